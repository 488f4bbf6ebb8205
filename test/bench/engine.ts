// The run engine's cost (issue 4 "Measured"): through surface A against the directory fixture's
// JSON endpoint, the overhead over a direct call of the same endpoint in the same run (p50, p99,
// milliseconds), and verified runs per second at concurrency 1, 16 and 64, every run checked
// persisted. Writes bench-results/engine.json. Run alone: `npx tsx test/bench/engine.ts`.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClients, type Clients } from './clients'
import { QUERIES } from './config'
import { machine } from './resources'
import { startBench, type BenchEnv } from './setup'
import { measureLatency, measureThroughput } from './surfaceA'

const OUT = fileURLToPath(new URL('../../bench-results/engine.json', import.meta.url))

/** The issue's goals, printed next to the figures (never asserted: benchmarks are not tests). */
export const ENGINE_GOALS = { p50OverheadMs: 1, runsPerSecond: 2000 }

export interface EngineThroughput {
  concurrency: number
  /** Succeeded Sitecall runs per second, and the direct calls per second beside them. */
  runsPerSecond: number
  directPerSecond: number
  runs: number
  failures: number
  /** Runs the SQLite file holds as `succeeded` from this phase: must equal `runs - failures`. */
  persisted: number
  p50Ms: number
  p99Ms: number
}

export interface EngineBenchResults {
  date: string
  machine: ReturnType<typeof machine>
  overhead: { p50Ms: number; p99Ms: number; directP50Ms: number; sitecallP50Ms: number }
  throughput: EngineThroughput[]
  /** Sitecall calls that failed or runs that were not found persisted: any is a bench error. */
  errors: number
  /** Why Sitecall calls failed, with counts (the first distinct reasons of each phase). */
  failureReasons: Record<string, number>
}

const succeededRuns = (env: BenchEnv): number =>
  (
    env.core.store.db
      .prepare(`SELECT COUNT(*) AS n FROM runs WHERE status = 'succeeded'`)
      .get() as {
      n: number
    }
  ).n

/**
 * Measures the engine on a started bench environment. Env: BENCH_ENGINE_N (sequential calls per
 * side, default 1,000), BENCH_ENGINE_SECONDS (per concurrency, default 4).
 */
export async function runEngineBench(env: BenchEnv, clients: Clients): Promise<EngineBenchResults> {
  const n = Number(process.env.BENCH_ENGINE_N ?? 1000)
  const seconds = Number(process.env.BENCH_ENGINE_SECONDS ?? 4)
  const latency = await measureLatency(clients, QUERIES, { n, warmup: 100, batch: 50 })
  env.site.requests.length = 0
  const throughput: EngineThroughput[] = []
  const failureReasons = { ...latency.failures.sitecall.reasons }
  for (const concurrency of [1, 16, 64]) {
    const before = succeededRuns(env)
    const t = await measureThroughput(clients, QUERIES, { concurrency, seconds })
    env.site.requests.length = 0
    await env.core.engine.idle()
    for (const [reason, count] of Object.entries(t.sitecall.failures.reasons))
      failureReasons[reason] = (failureReasons[reason] ?? 0) + count
    throughput.push({
      concurrency,
      runsPerSecond: t.sitecall.perSecond,
      directPerSecond: t.direct.perSecond,
      runs: t.sitecall.calls,
      failures: t.sitecall.failures.count,
      persisted: succeededRuns(env) - before,
      p50Ms: t.sitecall.latency.p50,
      p99Ms: t.sitecall.latency.p99,
    })
  }
  const errors =
    latency.failures.sitecall.count +
    throughput.reduce((s, t) => s + t.failures + Math.abs(t.runs - t.failures - t.persisted), 0)
  return {
    date: new Date().toISOString(),
    machine: machine(),
    overhead: {
      p50Ms: latency.sitecall.p50 - latency.direct.p50,
      p99Ms: latency.sitecall.p99 - latency.direct.p99,
      directP50Ms: latency.direct.p50,
      sitecallP50Ms: latency.sitecall.p50,
    },
    throughput,
    errors,
    failureReasons,
  }
}

/** The engine figures as a short text table. */
export function formatEngineReport(r: EngineBenchResults): string {
  const f = (x: number) => x.toFixed(2)
  const o = r.overhead
  return [
    `Run engine (surface A over a direct call, same run; goals: p50 overhead < ${ENGINE_GOALS.p50OverheadMs} ms, > ${ENGINE_GOALS.runsPerSecond} runs/s)`,
    `  overhead p50 ${f(o.p50Ms)} ms   p99 ${f(o.p99Ms)} ms   (direct p50 ${f(o.directP50Ms)} ms, Sitecall p50 ${f(o.sitecallP50Ms)} ms)`,
    ...r.throughput.map(
      (t) =>
        `  concurrency ${String(t.concurrency).padStart(2)}: ${t.runsPerSecond.toFixed(0).padStart(5)} runs/s (direct ${t.directPerSecond.toFixed(0)}/s)   p50 ${f(t.p50Ms)} ms   p99 ${f(t.p99Ms)} ms   ${t.persisted}/${t.runs - t.failures} persisted`,
    ),
    `  errors: ${r.errors}${r.errors ? ` ${JSON.stringify(r.failureReasons)}` : ''}`,
  ].join('\n')
}

/** Measures on `env`, prints the table, writes bench-results/engine.json; returns the errors. */
export async function reportEngineBench(env: BenchEnv, clients: Clients): Promise<number> {
  const results = await runEngineBench(env, clients)
  console.log(formatEngineReport(results))
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`JSON: ${OUT}`)
  return results.errors
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
