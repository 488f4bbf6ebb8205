// The run engine's cost (issue 4 "Measured", issue 12): through surface A against the directory
// fixture's JSON endpoint, with small (about 1.3 KB) and large (about 72 KB) answers, the overhead
// over a direct call of the same endpoint in the same run (p50, p99, milliseconds), verified runs
// per second at concurrency 1, 16 and 64 next to the direct rate, every run checked persisted,
// and the bytes each run stored. Writes bench-results/engine.json. Run alone:
// `npx tsx test/bench/engine.ts` (BENCH_ENGINE_SIZES=small or large for one size only).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClients, type Clients } from './clients'
import { startForwarder } from './forwarder'
import { QUERIES } from './config'
import { machine } from './resources'
import { startBench, type AnswerSize, type BenchEnv } from './setup'
import { formatStalls, type StallSummary } from './stalls'
import { measureLatency, measureThroughput, type ThroughputSide } from './surfaceA'

const OUT = fileURLToPath(new URL('../../bench-results/engine.json', import.meta.url))

/** The issues' goals, printed next to the figures (never asserted: benchmarks are not tests). */
export const ENGINE_GOALS = {
  /** Issue 12: p50 overhead over a direct call, small (about 1 KB) and large answers. */
  p50OverheadMs: { small: 1, large: 1.5 },
  /** Issue 12: verified, persisted runs per second with small answers at 16 in flight. */
  runsPerSecond: 2000,
  /** Issue 12: Sitecall's rate over the direct rate at 16 in flight. */
  ratioAt16: 0.8,
  /** Issue 12: p99 at 64 in flight over the direct p99 there. */
  p99RatioAt64: 4,
}

export interface EngineThroughput {
  concurrency: number
  /** Succeeded Sitecall runs per second, and the direct calls per second beside them. */
  runsPerSecond: number
  directPerSecond: number
  /** Sitecall / direct runs per second. */
  ratio: number
  runs: number
  failures: number
  /** Calls of the unmeasured warm-up, and their failures (counted as errors too). */
  warmup: { calls: number; failures: number }
  /**
   * Runs the SQLite file holds as `succeeded` from this phase: must equal the succeeded calls,
   * those of the warm-up included.
   */
  persisted: number
  p50Ms: number
  p99Ms: number
  directP99Ms: number
  /** What held the event loop while each side ran (./stalls.ts), without the pause list. */
  stalls: Record<'sitecall' | 'direct', Omit<StallSummary, 'pauses'>>
}

/** One answer size's figures. */
export interface EngineSizeResults {
  size: AnswerSize
  /** Bytes of one answer of the site (the first bench query's). */
  answerBytes: number
  overhead: { p50Ms: number; p99Ms: number; directP50Ms: number; sitecallP50Ms: number }
  throughput: EngineThroughput[]
  /**
   * What each run added to the SQLite file: its result column (stored bytes, compressed above a
   * size) and the whole file (pages of the runs table, indexes and ledger included).
   */
  storedPerRun: { resultBytes: number; fileBytes: number }
  /**
   * A bare forwarder of the same request (./forwarder.ts: one more HTTP hop in this process, no
   * engine): its p50 overhead over the direct call and its rate at 16 in flight. What Sitecall
   * adds beyond this is the engine's own cost.
   */
  floor: { p50Ms: number; perSecondAt16: number; ratioAt16: number }
  errors: number
  /** Why Sitecall calls failed, with counts. */
  failureReasons: Record<string, number>
}

export interface EngineBenchResults {
  date: string
  machine: ReturnType<typeof machine>
  sizes: EngineSizeResults[]
  /** Sitecall calls that failed or runs that were not found persisted: any is a bench error. */
  errors: number
}

const succeededRuns = (env: BenchEnv): number =>
  (
    env.core.store.db
      .prepare(`SELECT COUNT(*) AS n FROM runs WHERE status = 'succeeded'`)
      .get() as {
      n: number
    }
  ).n

/** Runs holding a result, and the bytes their result column holds (text or compressed). */
const storedResults = (env: BenchEnv): { runs: number; bytes: number } =>
  env.core.store.db
    .prepare(
      `SELECT COUNT(*) AS runs, COALESCE(SUM(length(CAST(result AS BLOB))), 0) AS bytes
       FROM runs WHERE result IS NOT NULL`,
    )
    .get() as { runs: number; bytes: number }

/** Bytes of the SQLite file as this connection sees it (the WAL's pages included). */
const fileBytes = (env: BenchEnv): number =>
  (env.core.store.db.pragma('page_count', { simple: true }) as number) *
  (env.core.store.db.pragma('page_size', { simple: true }) as number)

/** Bytes of the site's answer to the first bench query, as the direct side receives it. */
async function answerBytes(env: BenchEnv): Promise<number> {
  const res = await fetch(`${env.site.url}/api/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERIES[0], verified: false, page: 1, perPage: 12 }),
  })
  return (await res.arrayBuffer()).byteLength
}

/**
 * Measures the engine on a started bench environment. Env: BENCH_ENGINE_N (sequential calls per
 * side, default 1,000), BENCH_ENGINE_SECONDS (measured per concurrency, default 4),
 * BENCH_ENGINE_WARMUP_MS (unmeasured running at the same concurrency before each of the four
 * segments of a throughput phase, default 500; see `drive` in ./surfaceA.ts).
 */
export async function runEngineBench(
  env: BenchEnv,
  clients: Clients,
  size: AnswerSize,
): Promise<EngineSizeResults> {
  const n = Number(process.env.BENCH_ENGINE_N ?? 1000)
  const seconds = Number(process.env.BENCH_ENGINE_SECONDS ?? 4)
  const warmupMs = Number(process.env.BENCH_ENGINE_WARMUP_MS ?? 500)
  const latency = await measureLatency(clients, QUERIES, { n, warmup: 100, batch: 50 })
  env.site.requests.length = 0
  const throughput: EngineThroughput[] = []
  const failureReasons = { ...latency.failures.sitecall.reasons }
  const before = { runs: storedResults(env), file: fileBytes(env) }
  for (const concurrency of [1, 16, 64]) {
    const persistedBefore = succeededRuns(env)
    const t = await measureThroughput(clients, QUERIES, {
      concurrency,
      seconds,
      warmupMs,
      stalls: true,
    })
    env.site.requests.length = 0
    await env.core.engine.idle()
    for (const [reason, count] of Object.entries(t.sitecall.failures.reasons))
      failureReasons[reason] = (failureReasons[reason] ?? 0) + count
    throughput.push({
      concurrency,
      runsPerSecond: t.sitecall.perSecond,
      directPerSecond: t.direct.perSecond,
      ratio: t.ratio,
      runs: t.sitecall.calls,
      failures: t.sitecall.failures.count,
      warmup: t.sitecall.warmup,
      persisted: succeededRuns(env) - persistedBefore,
      p50Ms: t.sitecall.latency.p50,
      p99Ms: t.sitecall.latency.p99,
      directP99Ms: t.direct.latency.p99,
      stalls: { sitecall: withoutPauses(t.sitecall), direct: withoutPauses(t.direct) },
    })
  }
  const after = { runs: storedResults(env), file: fileBytes(env) }
  const floor = await measureFloor(env, clients, n, seconds, warmupMs)
  const added = Math.max(1, after.runs.runs - before.runs.runs)
  const errors =
    latency.failures.sitecall.count +
    throughput.reduce(
      (s, t) => s + t.failures + t.warmup.failures + Math.abs(succeededCalls(t) - t.persisted),
      0,
    )
  return {
    size,
    answerBytes: await answerBytes(env),
    overhead: {
      p50Ms: latency.sitecall.p50 - latency.direct.p50,
      p99Ms: latency.sitecall.p99 - latency.direct.p99,
      directP50Ms: latency.direct.p50,
      sitecallP50Ms: latency.sitecall.p50,
    },
    throughput,
    floor,
    storedPerRun: {
      resultBytes: (after.runs.bytes - before.runs.bytes) / added,
      fileBytes: (after.file - before.file) / added,
    },
    errors,
    failureReasons,
  }
}

/** Sitecall calls of a phase that succeeded, its warm-up's included. */
const succeededCalls = (t: EngineThroughput): number =>
  t.runs - t.failures + t.warmup.calls - t.warmup.failures

/** A side's stall summary without its list of pauses (too long for the JSON). */
function withoutPauses(side: ThroughputSide): Omit<StallSummary, 'pauses'> {
  const { pauses: _, ...rest } = side.stalls!
  return rest
}

/** The bare forwarder's overhead and rate beside the direct call (see `floor`). */
async function measureFloor(
  env: BenchEnv,
  clients: Clients,
  n: number,
  seconds: number,
  warmupMs: number,
): Promise<EngineSizeResults['floor']> {
  const forwarder = await startForwarder(env)
  try {
    const sides = { direct: clients.direct, sitecall: forwarder.call }
    const latency = await measureLatency(sides, QUERIES, { n, warmup: 100, batch: 50 })
    const at16 = await measureThroughput(sides, QUERIES, { concurrency: 16, seconds, warmupMs })
    env.site.requests.length = 0
    return {
      p50Ms: latency.sitecall.p50 - latency.direct.p50,
      perSecondAt16: at16.sitecall.perSecond,
      ratioAt16: at16.ratio,
    }
  } finally {
    await forwarder.close()
  }
}

/** The engine figures as a short text table. */
export function formatEngineReport(r: EngineBenchResults): string {
  const f = (x: number) => x.toFixed(2)
  const g = ENGINE_GOALS
  const lines = [
    `Run engine (surface A over a direct call of the same endpoint, same run; goals: p50 overhead ≤ ${g.p50OverheadMs.small} ms small / ${g.p50OverheadMs.large} ms large, ≥ ${g.ratioAt16}× direct at 16, > ${g.runsPerSecond} runs/s small, p99 at 64 < ${g.p99RatioAt64}× direct)`,
  ]
  for (const s of r.sizes) {
    const o = s.overhead
    lines.push(
      `  ${s.size} answers (${(s.answerBytes / 1024).toFixed(1)} KB): overhead p50 ${f(o.p50Ms)} ms   p99 ${f(o.p99Ms)} ms   (direct p50 ${f(o.directP50Ms)} ms, Sitecall p50 ${f(o.sitecallP50Ms)} ms)`,
      ...s.throughput.map(
        (t) =>
          `    concurrency ${String(t.concurrency).padStart(2)}: ${t.runsPerSecond.toFixed(0).padStart(5)} runs/s (direct ${t.directPerSecond.toFixed(0)}/s, ${f(t.ratio)}×)   p50 ${f(t.p50Ms)} ms   p99 ${f(t.p99Ms)} ms (direct p99 ${f(t.directP99Ms)} ms)   ${t.persisted}/${succeededCalls(t)} persisted\n` +
          `      Sitecall: ${formatStalls({ ...t.stalls.sitecall, pauses: [] })}\n` +
          `      direct:   ${formatStalls({ ...t.stalls.direct, pauses: [] })}`,
      ),
      `    floor (a bare forwarder, ./forwarder.ts): overhead p50 ${f(s.floor.p50Ms)} ms   16 in flight ${s.floor.perSecondAt16.toFixed(0)}/s (${f(s.floor.ratioAt16)}× direct)`,
      `    stored per run: result ${s.storedPerRun.resultBytes.toFixed(0)} B, file ${s.storedPerRun.fileBytes.toFixed(0)} B   errors: ${s.errors}${s.errors ? ` ${JSON.stringify(s.failureReasons)}` : ''}`,
    )
  }
  return lines.join('\n')
}

/**
 * Measures large answers on `env` and small ones on an environment of its own, prints the table,
 * writes bench-results/engine.json; returns the errors.
 */
export async function reportEngineBench(env: BenchEnv, clients: Clients): Promise<number> {
  const sizes = benchSizes()
  const large = sizes.includes('large') ? await runEngineBench(env, clients, 'large') : null
  let small: EngineSizeResults | null = null
  if (sizes.includes('small')) {
    const smallEnv = await startBench(QUERIES, 'small')
    const smallClients = createClients(smallEnv)
    try {
      small = await runEngineBench(smallEnv, smallClients, 'small')
    } finally {
      await smallClients.close()
      await smallEnv.close()
    }
  }
  const measured = [small, large].filter((s): s is EngineSizeResults => s !== null)
  const results: EngineBenchResults = {
    date: new Date().toISOString(),
    machine: machine(),
    sizes: measured,
    errors: measured.reduce((sum, s) => sum + s.errors, 0),
  }
  console.log(formatEngineReport(results))
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`JSON: ${OUT}`)
  return results.errors
}

/** The answer sizes to measure: BENCH_ENGINE_SIZES (`small`, `large` or both, comma-separated). */
function benchSizes(): AnswerSize[] {
  const named = (process.env.BENCH_ENGINE_SIZES ?? 'small,large').split(',').map((s) => s.trim())
  return (['small', 'large'] as const).filter((size) => named.includes(size))
}

/** Starts its own environment for `reportEngineBench`, then closes it. */
export async function runEngineBenchAlone(): Promise<number> {
  const env = await startBench(QUERIES)
  const clients = createClients(env)
  try {
    return await reportEngineBench(env, clients)
  } finally {
    await clients.close()
    await env.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = (await runEngineBenchAlone()) ? 1 : 0
