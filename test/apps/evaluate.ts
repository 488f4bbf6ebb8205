/**
 * Measures the compiler on the real-app corpus (issue 9 "Measured"), per app and overall, for both
 * paths (Sitecall's recorder, plain HAR): target, slots, dependencies, mutating flag; robustness
 * to wording (each plain HAR compiled again with its intent written three other ways: the same
 * target every time); and with `--live`, working tools: each compiled tool run through the engine
 * against a fresh instance of its app with a changed input, judged by the key's check.
 *
 * Run: `npm run corpus:evaluate -- [app ...] [--live] [--json FILE] [--verbose]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  compileStored,
  judge,
  loadStoredWorkflows,
  type StoredWorkflow,
  type Verdict,
} from './corpus'
import { stepMatches } from './match'
import type { RecordingPath } from './store'
import { checkWorking, type WorkingVerdict } from './working'

const PATHS: RecordingPath[] = ['recording', 'har']

/** One workflow's results on one path. */
export interface PathResult {
  verdict: Verdict
  /** Share of the three rewordings compiled to the key's target (HAR path only). */
  wording?: number
  working?: WorkingVerdict
}

export interface WorkflowResult {
  ref: string
  recording: PathResult
  har: PathResult
}

/** Offline results of one workflow: both paths judged, the HAR's rewordings compiled. */
export function evaluateOffline(entry: StoredWorkflow): WorkflowResult {
  const out = {} as Record<RecordingPath, PathResult>
  for (const path of PATHS)
    out[path] = { verdict: judge(compileStored(entry, path), entry.workflow.key) }
  if (entry.har) {
    const { terse, chatty, withoutValue } = entry.workflow.rewordings
    const hits = [terse, chatty, withoutValue].filter((intent) => {
      const r = compileStored(entry, 'har', { intent })
      if (!r?.ok) return false
      const last = r.candidate.steps[r.candidate.steps.length - 1]!
      return stepMatches(r.candidate, last.request, entry.workflow.key.target)
    })
    out.har.wording = hits.length / 3
  }
  return { ref: entry.ref, recording: out.recording, har: out.har }
}

/** Runs the live working-tools check of every workflow of one app on one fresh instance. */
export async function evaluateLive(
  entries: StoredWorkflow[],
  results: WorkflowResult[],
): Promise<void> {
  const app = entries[0]!.app
  const why = app.unavailable()
  if (why) {
    console.log(`${app.name}: live check skipped (${why})`)
    return
  }
  const inst = await app.start()
  try {
    const session = await inst.signIn()
    for (const entry of entries) {
      const result = results.find((r) => r.ref === entry.ref)!
      for (const path of PATHS)
        result[path].working = await checkWorking(entry, path, inst, session)
    }
  } finally {
    await inst.close()
  }
}

const pct = (n: number, d: number): string =>
  d ? `${((100 * n) / d).toFixed(0)}%`.padStart(5) : '    -'

/** Prints the per-app table: one line per app and path, then the overall lines. */
function printTable(results: WorkflowResult[], live: boolean): void {
  const groups = new Map<string, WorkflowResult[]>()
  for (const r of results) {
    const app = r.ref.split('/')[0]!
    groups.set(app, [...(groups.get(app) ?? []), r])
  }
  groups.set('ALL', results)
  console.log(
    `app          path       n  target slots  deps   mut ${live ? ' working' : ''} wording`,
  )
  for (const [app, rs] of groups) {
    for (const path of PATHS) {
      const v = rs.map((r) => r[path])
      const n = v.length
      const count = (f: (p: PathResult) => boolean) => v.filter(f).length
      const working = live
        ? pct(
            count((p) => p.working?.working === true),
            n,
          )
        : ''
      const wording =
        path === 'har'
          ? pct(
              v.reduce((s, p) => s + (p.wording ?? 0), 0),
              n,
            )
          : '    -'
      console.log(
        `${app.padEnd(12)} ${path.padEnd(9)} ${String(n).padStart(2)} ${pct(
          count((p) => p.verdict.target),
          n,
        )}  ${pct(
          count((p) => p.verdict.slots),
          n,
        )} ${pct(
          count((p) => p.verdict.dependencies),
          n,
        )} ${pct(
          count((p) => p.verdict.mutating),
          n,
        )}   ${working}   ${wording}`,
      )
    }
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const live = args.includes('--live')
  const verbose = args.includes('--verbose')
  const jsonAt = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined
  const names = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--json')
  const entries = await loadStoredWorkflows(names)
  const results = entries.map(evaluateOffline)
  if (live) {
    const byApp = new Map<string, StoredWorkflow[]>()
    for (const e of entries) byApp.set(e.app.name, [...(byApp.get(e.app.name) ?? []), e])
    for (const group of byApp.values()) await evaluateLive(group, results)
  }
  for (const r of results) {
    for (const path of PATHS) {
      const p = r[path]
      const bad = p.verdict.problems.length > 0 || (p.working && !p.working.working)
      if (bad || verbose)
        console.log(
          `${r.ref} [${path}] ${[...p.verdict.problems, ...(p.working && !p.working.working ? [`working: ${p.working.detail}`] : [])].join(' | ') || 'ok'}`,
        )
    }
  }
  printTable(results, live)
  if (jsonAt) {
    mkdirSync(dirname(jsonAt), { recursive: true })
    writeFileSync(jsonAt, `${JSON.stringify(results, null, 1)}\n`)
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!))
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
