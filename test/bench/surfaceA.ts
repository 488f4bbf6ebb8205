import { performance } from 'node:perf_hooks'
import { attempt, type Call } from './clients'
import { emptyTally, recordFailure, type FailureTally } from './failures'
import { ratio, summarize, type LatencySummary } from './stats'
import { createStallWatch, type StallSummary } from './stalls'

export type Side = 'direct' | 'sitecall'
export type Sides = Record<Side, Call>

export interface LatencyResult {
  direct: LatencySummary
  sitecall: LatencySummary
  /** Sitecall / direct: how many times slower a call through Sitecall is. */
  ratio: { p50: number; p99: number; mean: number }
  failures: Record<Side, FailureTally>
}

export interface ThroughputSide {
  calls: number
  failures: FailureTally
  seconds: number
  /** Succeeded calls per second. */
  perSecond: number
  latency: LatencySummary
  /** Calls that ended in the unmeasured warm-up (`warmupMs`), and how many of them failed. */
  warmup: { calls: number; failures: number }
  /** What held the event loop during this side's segments (with `stalls: true`). */
  stalls?: StallSummary
}

export interface ThroughputResult {
  concurrency: number
  direct: ThroughputSide
  sitecall: ThroughputSide
  /** Sitecall / direct req/s. */
  ratio: number
}

/** Hands out the queries in turn, so consecutive calls (and workers) search different words. */
function rotation(queries: readonly string[]): () => string {
  let i = 0
  return () => queries[i++ % queries.length]!
}

/** Runs `count` calls one after another; times each (failed ones too, but tallies them). */
async function sequential(
  call: Call,
  count: number,
  next: () => string,
  samples: number[],
  failures: FailureTally,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const result = await attempt(call, next())
    samples.push(performance.now() - started)
    if (!result.ok) recordFailure(failures, result.reason)
  }
}

/**
 * Sequential latency of each of `sides` in one run. Warm-up calls are tallied but not timed.
 * Batches go round the sides, and the order turns every round, so drift over the run (a growing
 * runs table, GC, CPU frequency, other work on the machine) falls on every side alike.
 */
export async function measureSequential<K extends string>(
  sides: Record<K, Call>,
  queries: readonly string[],
  options: { n: number; warmup: number; batch: number },
): Promise<Record<K, { latency: LatencySummary; failures: FailureTally }>> {
  const names = Object.keys(sides) as K[]
  const failures = {} as Record<K, FailureTally>
  const samples = {} as Record<K, number[]>
  const next = {} as Record<K, () => string>
  for (const side of names) {
    failures[side] = emptyTally()
    samples[side] = []
    next[side] = rotation(queries)
    await sequential(sides[side], options.warmup, next[side], [], failures[side])
  }
  for (let done = 0, round = 0; done < options.n; done += options.batch, round++) {
    const count = Math.min(options.batch, options.n - done)
    const order = names.map((_, i) => names[(i + round) % names.length]!)
    for (const side of order)
      await sequential(sides[side], count, next[side], samples[side], failures[side])
  }
  const out = {} as Record<K, { latency: LatencySummary; failures: FailureTally }>
  for (const side of names)
    out[side] = { latency: summarize(samples[side]), failures: failures[side] }
  return out
}

/** `measureSequential` of the two sides, with Sitecall's ratios over the direct call. */
export async function measureLatency(
  sides: Sides,
  queries: readonly string[],
  options: { n: number; warmup: number; batch: number },
): Promise<LatencyResult> {
  // Only the two sides: callers pass their whole clients object, which holds `close` too.
  const measured = await measureSequential(
    { direct: sides.direct, sitecall: sides.sitecall },
    queries,
    options,
  )
  const direct = measured.direct.latency
  const sitecall = measured.sitecall.latency
  return {
    direct,
    sitecall,
    ratio: {
      p50: ratio(sitecall.p50, direct.p50),
      p99: ratio(sitecall.p99, direct.p99),
      mean: ratio(sitecall.mean, direct.mean),
    },
    failures: { direct: measured.direct.failures, sitecall: measured.sitecall.failures },
  }
}

/**
 * Keeps `concurrency` calls in flight for `warmupMs` and then `ms` more, in one closed loop; no
 * call starts after that. Only the second part is measured: its samples are the calls that
 * started in it, its calls those that ended in it, timed to the last answer. The warm-up runs at
 * the measured concurrency so connection pools (the client's to the server, the engine's to the
 * site, which undici closes after a few seconds idle) have grown to it first: a pool grows by
 * about one connection per event-loop turn under load, and the calls that waited for those
 * connections (100 to 700 ms) were about the slowest 1% at 64 in flight, a cost of the
 * phase's start, not of steady running.
 */
async function drive(
  call: Call,
  concurrency: number,
  ms: number,
  next: () => string,
  samples: number[],
  failures: FailureTally,
  warmupMs = 0,
): Promise<{ calls: number; seconds: number; warmup: { calls: number; failures: number } }> {
  let calls = 0
  const warmup = { calls: 0, failures: 0 }
  const from = performance.now() + warmupMs
  const until = from + ms
  const worker = async () => {
    while (performance.now() < until) {
      const t = performance.now()
      const result = await attempt(call, next())
      const end = performance.now()
      if (end < from) {
        warmup.calls++
        if (!result.ok) warmup.failures++
        continue
      }
      if (t >= from) samples.push(end - t)
      calls++
      if (!result.ok) recordFailure(failures, result.reason)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  // Measured to the last answer, not to `until`: calls in flight at the deadline still count.
  return { calls, seconds: (performance.now() - from) / 1000, warmup }
}

/**
 * Requests per second at `concurrency` for both sides, `seconds` each, in ABBA order (half the
 * time per segment) so neither side always runs on the later, bigger database. `warmupMs`:
 * each segment first runs that long unmeasured at the same concurrency (see `drive`).
 */
export async function measureThroughput(
  sides: Sides,
  queries: readonly string[],
  options: { concurrency: number; seconds: number; stalls?: boolean; warmupMs?: number },
): Promise<ThroughputResult> {
  const tally = () => ({
    calls: 0,
    seconds: 0,
    samples: [] as number[],
    failures: emptyTally(),
    warmup: { calls: 0, failures: 0 },
  })
  const acc = { direct: tally(), sitecall: tally() }
  const next = rotation(queries)
  const segment = (options.seconds * 1000) / 2
  const watches = options.stalls
    ? { direct: createStallWatch(), sitecall: createStallWatch() }
    : null
  for (const side of ['direct', 'sitecall', 'sitecall', 'direct'] as const) {
    const a = acc[side]
    const warmupMs = options.warmupMs ?? 0
    const watch = watches?.[side]
    const resume = watch && setTimeout(() => watch.resume(), warmupMs)
    const run = await drive(
      sides[side],
      options.concurrency,
      segment,
      next,
      a.samples,
      a.failures,
      warmupMs,
    )
    clearTimeout(resume)
    watch?.pause()
    a.calls += run.calls
    a.seconds += run.seconds
    a.warmup.calls += run.warmup.calls
    a.warmup.failures += run.warmup.failures
  }
  const finish = (side: Side): ThroughputSide => {
    const a = acc[side]
    return {
      calls: a.calls,
      failures: a.failures,
      seconds: a.seconds,
      perSecond: (a.calls - a.failures.count) / a.seconds,
      latency: summarize(a.samples),
      warmup: a.warmup,
      ...(watches ? { stalls: watches[side].summary() } : {}),
    }
  }
  const direct = finish('direct')
  const sitecall = finish('sitecall')
  return {
    concurrency: options.concurrency,
    direct,
    sitecall,
    ratio: ratio(sitecall.perSecond, direct.perSecond),
  }
}
