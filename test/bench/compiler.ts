// The compiler bench (issue 3 "Measured"): the four accuracies over the corpus, and compile time
// and heap growth for traces of 100, 1,000 and 10,000 exchanges. Writes bench-results/compiler.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { compileTrace } from '../../src/main/compiler'
import type { Trace } from '../../src/shared/trace'
import { pageNoise, products } from '../fixtures/traces/build/noise'
import { html, site } from '../fixtures/traces/build/site'
import {
  accuracyOf,
  corpusOptions,
  judge,
  loadCorpus,
  type Accuracy,
} from '../fixtures/traces/corpus'
import { mb } from './resources'

const OUT = fileURLToPath(new URL('../../bench-results/compiler.json', import.meta.url))
const SIZES = [100, 1_000, 10_000]

export interface ScaleFigure {
  exchanges: number
  /** Size of the trace as JSON, MB. */
  traceMB: number
  runs: number
  medianMs: number
  minMs: number
  /** Heap used right after one compile minus right before it (after a GC), MB: what it allocates. */
  heapGrowthMB: number
  /** Heap still held after a GC, the candidate kept alive, MB. */
  heapRetainedMB: number
  /** The compile found the one target it should. */
  targetFound: boolean
}

export interface CompilerBenchResults {
  date: string
  accuracy: Accuracy
  /** Corpus traces that are not right on all four counts, with what is wrong. */
  misses: Array<{ name: string; problems: string[] }>
  scale: ScaleFigure[]
}

/**
 * A trace of `n` exchanges shaped like a long browsing session: mostly page noise (assets,
 * dictionaries, beacons, flags, third-party tags), one JSON API call in eight, and one search
 * carrying the typed value near the end.
 */
export function scaleTrace(n: number): Trace {
  const b = site('https://www.bigshop.example')
  b.page('/', html('Bigshop', '<input id="q" name="q">'))
  let i = 1
  while (b.exchangeCount() < n - 2) {
    if (i % 8 === 0)
      b.api('GET', `/api/catalog/section-${i}?limit=20`, {
        response: { items: products(`item ${i}`, 5) },
      })
    else pageNoise(b, { flags: i % 3 === 0, thirdParty: i % 2 === 0 })
    i++
  }
  b.fill('kettle').press('Enter')
  b.api('GET', '/api/search?q=kettle&page=1', {
    response: { results: products('kettle', 10), total: 10 },
  })
  const trace = b.entry('scale', 'search products', { explanation: true }, []).trace
  // Page noise comes in blocks: cut the middle so the trace holds exactly n, the target last.
  const all = trace.exchanges
  trace.exchanges = [...all.slice(0, n - 1), all.at(-1)!].map((e, k) => ({
    ...e,
    id: `exc_${k + 1}`,
    seq: k + 1,
  }))
  return trace
}

function forceGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

function measure(n: number, gc: () => void): ScaleFigure {
  const trace = scaleTrace(n)
  const options = { toolId: '00000000-0000-4000-8000-00000000be4c', now: Date.UTC(2026, 0, 1) }
  const runs = n >= 10_000 ? 5 : 9
  const times: number[] = []
  let targetFound = false
  compileTrace(trace, options)
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now()
    const result = compileTrace(trace, options)
    times.push(performance.now() - t0)
    targetFound =
      result.ok && result.candidate.evidence.targetExchangeId === trace.exchanges.at(-1)!.id
  }
  gc()
  const before = process.memoryUsage().heapUsed
  const kept = compileTrace(trace, options)
  const after = process.memoryUsage().heapUsed
  gc()
  const retained = process.memoryUsage().heapUsed
  void kept
  times.sort((a, b) => a - b)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    exchanges: trace.exchanges.length,
    traceMB: mb(Buffer.byteLength(JSON.stringify(trace))),
    runs,
    medianMs: round(times[Math.floor(times.length / 2)]!),
    minMs: round(times[0]!),
    heapGrowthMB: mb(after - before),
    heapRetainedMB: mb(retained - before),
    targetFound,
  }
}

/** Runs the compiler bench, prints its table and writes bench-results/compiler.json. */
export function runCompilerBench(): CompilerBenchResults {
  const corpus = loadCorpus()
  const verdicts = corpus.map((entry) => ({
    name: entry.name,
    verdict: judge(entry, compileTrace(entry.trace, corpusOptions(entry))),
  }))
  const gc = forceGc()
  const results: CompilerBenchResults = {
    date: new Date().toISOString(),
    accuracy: accuracyOf(verdicts.map((v) => v.verdict)),
    misses: verdicts
      .filter((v) => v.verdict.problems.length)
      .map((v) => ({ name: v.name, problems: v.verdict.problems })),
    scale: SIZES.map((n) => measure(n, gc)),
  }
  console.log(formatCompilerReport(results))
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`\nJSON: ${OUT}`)
  return results
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

export function formatCompilerReport(r: CompilerBenchResults): string {
  const a = r.accuracy
  const rows = r.scale.map(
    (s) =>
      `  ${String(s.exchanges).padStart(6)}  ${s.traceMB.toFixed(1).padStart(6)} MB  ${s.medianMs.toFixed(2).padStart(9)} ms  ${s.heapGrowthMB.toFixed(1).padStart(7)} MB  ${s.heapRetainedMB.toFixed(1).padStart(7)} MB  ${s.targetFound ? 'yes' : 'NO'}`,
  )
  return [
    `Compiler bench, ${r.date}`,
    `Corpus accuracy over ${a.traces} traces: target ${pct(a.target)}, slots ${pct(a.slots)}, dependencies ${pct(a.dependencies)}, mutating ${pct(a.mutating)}`,
    ...r.misses.map((m) => `  miss ${m.name}: ${m.problems.join('; ')}`),
    '',
    '  exchanges   trace     median    heap +    retained  target',
    ...rows,
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runCompilerBench()
