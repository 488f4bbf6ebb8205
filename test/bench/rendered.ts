// The same read tool via `http` and via `rendered` (issue 4 "Measured"): median milliseconds of
// sequential surface-A calls of each, and their ratio. Writes bench-results/rendered.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import type { Run } from '../../src/shared/run'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { emptyTally, recordFailure, type FailureTally } from './failures'
import type { BenchEnv } from './setup'
import { ratio, summarize, type LatencySummary } from './stats'

const OUT = fileURLToPath(new URL('../../bench-results/rendered.json', import.meta.url))

export interface RenderedBenchResults {
  /** ISO 8601, when this part started. */
  date: string
  tool: string
  /** Measured calls per side (BENCH_RENDERED_N, default 30), after 3 unmeasured ones each. */
  n: number
  http: LatencySummary
  rendered: LatencySummary
  /** rendered p50 / http p50. */
  ratio: number
  failures: { http: FailureTally; rendered: FailureTally }
}

const WARMUP = 3

/**
 * Saves a twin of the bench's search tool with `via: "rendered"` and calls both through
 * `POST /api/v1/sites/{host}/call/{name}` one at a time: warm-up first (the first rendered call
 * launches Chromium), then `n` measured calls per side. A call counts only when it answers 200
 * `succeeded` with the `via` asked for.
 */
export async function runRenderedBench(
  env: BenchEnv,
  query: string,
  n = Number(process.env.BENCH_RENDERED_N ?? 30),
): Promise<RenderedBenchResults> {
  const date = new Date().toISOString()
  const twin: ToolSpec = {
    ...env.tool,
    id: crypto.randomUUID(),
    name: env.core.store.tools.uniqueName(env.tool.siteHost, `${env.tool.name}_rendered`),
    via: 'rendered',
  }
  env.core.store.tools.save(twin)
  const sides = { http: env.tool, rendered: twin }
  const samples = { http: [] as number[], rendered: [] as number[] }
  const failures = { http: emptyTally(), rendered: emptyTally() }
  for (const side of ['http', 'rendered'] as const) {
    for (let i = 0; i < WARMUP + n; i++) {
      const started = performance.now()
      const failed = await callOnce(env, sides[side], side, query)
      const ms = performance.now() - started
      if (failed) recordFailure(failures[side], failed)
      else if (i >= WARMUP) samples[side].push(ms)
    }
  }
  const http = summarize(samples.http)
  const rendered = summarize(samples.rendered)
  const results: RenderedBenchResults = {
    date,
    tool: env.tool.name,
    n,
    http,
    rendered,
    ratio: ratio(rendered.p50, http.p50),
    failures,
  }
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`)
  console.log(formatRenderedReport(results))
  console.log(`\nJSON: ${OUT}`)
  return results
}

/** Null when the call succeeded through `via`, else why not. */
async function callOnce(
  env: BenchEnv,
  tool: ToolSpec,
  via: 'http' | 'rendered',
  query: string,
): Promise<string | null> {
  try {
    const res = await fetch(`${env.base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    })
    const run = (await res.json()) as Partial<Run> & { error?: { code?: string } | null }
    if (res.status === 200 && run.status === 'succeeded' && run.via === via) return null
    return `HTTP ${res.status} ${run.status ?? ''} ${run.error?.code ?? ''} via ${run.via}`.trim()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

export function formatRenderedReport(r: RenderedBenchResults): string {
  const ms = (x: number) => x.toFixed(1)
  const row = (name: string, s: LatencySummary, failed: number) =>
    `${name.padEnd(10)}${ms(s.p50).padStart(10)}${ms(s.p99).padStart(10)}${String(s.n).padStart(6)}${String(failed).padStart(8)}`
  return [
    `Same read tool via http and via rendered (${r.tool}), sequential calls through surface A`,
    `${'via'.padEnd(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'n'.padStart(6)}${'failed'.padStart(8)}`,
    row('http', r.http, r.failures.http.count),
    row('rendered', r.rendered, r.failures.rendered.count),
    `rendered / http (p50): ${Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}×` : 'n/a'}`,
  ].join('\n')
}
