// The real-app corpus bench (issue 9 "Measured"): per app and overall, for both paths (Sitecall's
// recorder, plain HAR), the share of workflows whose compiled tool has the key's target, slots,
// dependencies and mutating flag; working tools (the tool run through the engine against a fresh
// instance of the app, judged by the key's check) for the apps that can run here; and robustness
// to wording (the HAR compiled again with its intent written three other ways). Writes
// bench-results/apps.json. Env: BENCH_APPS=dokuwiki,nodered (only those), BENCH_APPS_LIVE=0 (no
// live check: offline figures only).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  evaluateCorpus,
  formatProblems,
  formatTable,
  summarize,
  type SummaryRow,
  type WorkflowResult,
} from '../apps/evaluate'
import { formatArrivals } from '../apps/arrivals'
import targetParams from '../../src/main/compiler/ranker/targetModel.params.json' with { type: 'json' }

/**
 * The target ranker's fit as its fitting script recorded it (`fitTargetRanker.ts` writes
 * `provenance` into the parameter file): the apps, the choice sets and the leave-one-app-out share.
 */
export function formatRankerFit(): string {
  const { provenance } = targetParams as unknown as {
    provenance: {
      commit: string
      apps: string[]
      choiceSets: number
      leaveOneAppOut: { right: number; of: number; share: number }
    }
  }
  const loao = provenance.leaveOneAppOut
  return (
    `Target ranker, fitted at ${provenance.commit} on ${provenance.apps.length} apps (${provenance.choiceSets} choice sets): ` +
    `leave-one-app-out target right ${loao.right}/${loao.of} (${(loao.share * 100).toFixed(1)}%)`
  )
}

const OUT = fileURLToPath(new URL('../../bench-results/apps.json', import.meta.url))

export interface AppsBenchResults {
  date: string
  apps: Array<{
    name: string
    title: string
    source: string
    about: string
    workflows: number
    /** Why its working tools were not measured (cannot run here, failed to start), or null. */
    liveSkipped: string | null
  }>
  /** One row per app and path, then the `ALL` rows; shares from 0 to 1. */
  table: SummaryRow[]
  /** Every workflow's verdicts, wording share and live check, with what is wrong. */
  workflows: WorkflowResult[]
  /** Wall time of the whole corpus bench, s (compiles, app starts and tool runs). */
  seconds: number
}

/** Reads BENCH_APPS (comma-separated app names; all when unset) and BENCH_APPS_LIVE (0: off). */
export function readAppsConfig(env: NodeJS.ProcessEnv = process.env): {
  names: string[]
  live: boolean
} {
  const names = (env['BENCH_APPS'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return { names, live: env['BENCH_APPS_LIVE'] !== '0' }
}

/**
 * Evaluates the real-app corpus (live on every app that can run here, one at a time), prints the
 * per-app table and the misses, writes bench-results/apps.json and returns the figures.
 */
export async function runAppsBench(
  config: { names: string[]; live: boolean } = readAppsConfig(),
): Promise<AppsBenchResults> {
  const started = performance.now()
  const { entries, results, skipped } = await evaluateCorpus(config)
  const apps = [...new Map(entries.map((e) => [e.app.name, e.app])).values()].map((app) => ({
    name: app.name,
    title: app.title,
    source: app.source,
    about: app.about,
    workflows: app.workflows.length,
    liveSkipped: config.live ? (skipped[app.name] ?? null) : 'BENCH_APPS_LIVE=0',
  }))
  const out: AppsBenchResults = {
    date: new Date().toISOString(),
    apps,
    table: summarize(results),
    workflows: results,
    seconds: (performance.now() - started) / 1000,
  }
  console.log(`Real-app corpus bench, ${out.date} (${out.seconds.toFixed(0)} s)`)
  for (const a of apps)
    console.log(
      `  ${a.name.padEnd(11)} ${a.source}${a.liveSkipped ? ` [not live: ${a.liveSkipped}]` : ''}`,
    )
  for (const line of formatProblems(results)) console.log(`  miss ${line}`)
  console.log('')
  console.log(formatTable(out.table))
  console.log('')
  console.log(formatRankerFit())
  console.log('')
  console.log('Arrivals: each app measured as it came, before any change made for it (ARRIVALS.md)')
  console.log(formatArrivals())
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`)
  console.log(`\nJSON: ${OUT}`)
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  runAppsBench().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
