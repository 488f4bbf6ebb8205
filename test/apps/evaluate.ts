/**
 * Measures the compiler on the real-app corpus (issue 9 "Measured"), per app and overall, for both
 * paths (Sitecall's recorder, plain HAR): target, slots, dependencies, mutating flag; robustness
 * to wording (each plain HAR compiled again with its intent written three other ways: the same
 * target every time); and with `--live`, working tools: each compiled tool run through the engine
 * against a fresh instance of its app with a changed input, judged by the key's check.
 *
 * Run: `npm run corpus:evaluate -- [app ...] [--live] [--json FILE] [--verbose]`. Without app names,
 * only the apps whose arrival was measured (`arrivals.ts`).
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
import { arrivedApps } from './arrivals'

/** The two ways a workflow was recorded: Sitecall's recorder, and a plain HAR. */
export const PATHS: RecordingPath[] = ['recording', 'har']

/** One workflow's results on one path. */
export interface PathResult {
  verdict: Verdict
  /** Share of the three rewordings compiled to the key's target (HAR path only). */
  wording?: number
  working?: WorkingVerdict
}

/** One workflow's results on both paths. */
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
  if (entry.har) out.har.wording = rewordingHits(entry).filter((r) => r.hit).length / 3
  return { ref: entry.ref, recording: out.recording, har: out.har }
}

/** One rewording of a workflow's intent and whether its plain HAR compiled to the key's target. */
export interface RewordingHit {
  kind: 'terse' | 'chatty' | 'withoutValue'
  intent: string
  hit: boolean
}

/**
 * Compiles a workflow's plain HAR once per rewording of its intent (issue 9 "Robustness to
 * wording") and says of each whether the tool's last step is the key's target. Empty when the
 * workflow has no stored HAR.
 */
export function rewordingHits(entry: StoredWorkflow): RewordingHit[] {
  if (!entry.har) return []
  const kinds = ['terse', 'chatty', 'withoutValue'] as const
  return kinds.map((kind) => {
    const intent = entry.workflow.rewordings[kind]
    const r = compileStored(entry, 'har', { intent })
    if (!r?.ok) return { kind, intent, hit: false }
    const last = r.candidate.steps[r.candidate.steps.length - 1]!
    return { kind, intent, hit: stepMatches(r.candidate, last.request, entry.workflow.key.target) }
  })
}

/**
 * Runs the live working-tools check of every workflow of one app on one fresh instance, filling
 * `working` of its results. Returns why it was skipped (the app cannot run here), else null.
 * Throws when the app fails to start.
 */
export async function evaluateLive(
  entries: StoredWorkflow[],
  results: WorkflowResult[],
): Promise<string | null> {
  const app = entries[0]!.app
  const why = app.unavailable()
  if (why) return why
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
  return null
}

/** Groups entries by app, in the order the apps come. */
export function byApp(entries: StoredWorkflow[]): Map<string, StoredWorkflow[]> {
  const groups = new Map<string, StoredWorkflow[]>()
  for (const e of entries) groups.set(e.app.name, [...(groups.get(e.app.name) ?? []), e])
  return groups
}

/** The corpus evaluated: every workflow's results and the apps the live check could not run. */
export interface CorpusEvaluation {
  entries: StoredWorkflow[]
  results: WorkflowResult[]
  /** App name -> why its live check did not run (unavailable here, or failed to start). */
  skipped: Record<string, string>
}

/**
 * Evaluates the named apps (all when empty): offline always, and with `live` the working-tools
 * check on one fresh instance per app, one app at a time (they share 2 cores with the rest). An
 * app that cannot run or fails to start is listed in `skipped`; the others still run.
 */
export async function evaluateCorpus(
  options: { names?: string[]; live?: boolean } = {},
): Promise<CorpusEvaluation> {
  const entries = await loadStoredWorkflows(options.names ?? [])
  const results = entries.map(evaluateOffline)
  const skipped: Record<string, string> = {}
  if (options.live)
    for (const [name, group] of byApp(entries)) {
      try {
        const why = await evaluateLive(group, results)
        if (why) skipped[name] = why
      } catch (error) {
        skipped[name] = `failed to start: ${(error as Error).message}`
      }
    }
  return { entries, results, skipped }
}

/** One line of the per-app table: shares from 0 to 1, null where nothing was measured. */
export interface SummaryRow {
  /** App name, or `ALL`. */
  app: string
  path: RecordingPath
  workflows: number
  target: number
  slots: number
  dependencies: number
  mutating: number
  /** Working tools among the workflows checked live (null: none was). */
  working: number | null
  /** How many workflows the live check ran on. */
  checkedLive: number
  /** Share of rewordings compiled to the key's target (HAR path only, else null). */
  wording: number | null
}

/** The per-app table as data: one row per app and path, then the `ALL` rows. */
export function summarize(results: WorkflowResult[]): SummaryRow[] {
  const groups = new Map<string, WorkflowResult[]>()
  for (const r of results) {
    const app = r.ref.split('/')[0]!
    groups.set(app, [...(groups.get(app) ?? []), r])
  }
  groups.set('ALL', results)
  const rows: SummaryRow[] = []
  for (const [app, rs] of groups) {
    for (const path of PATHS) {
      const v = rs.map((r) => r[path])
      const n = v.length
      const share = (f: (p: PathResult) => boolean): number => (n ? v.filter(f).length / n : 0)
      const live = v.filter((p) => p.working)
      const worded = v.filter((p) => p.wording !== undefined)
      rows.push({
        app,
        path,
        workflows: n,
        target: share((p) => p.verdict.target),
        slots: share((p) => p.verdict.slots),
        dependencies: share((p) => p.verdict.dependencies),
        mutating: share((p) => p.verdict.mutating),
        working: live.length ? live.filter((p) => p.working!.working).length / live.length : null,
        checkedLive: live.length,
        // A workflow without a stored HAR counts as no rewording right, as before.
        wording:
          path === 'har' && worded.length ? v.reduce((s, p) => s + (p.wording ?? 0), 0) / n : null,
      })
    }
  }
  return rows
}

const pct = (x: number | null): string =>
  x === null ? '    -' : `${(100 * x).toFixed(0)}%`.padStart(5)

/** The per-app table as text: one line per app and path, then the overall lines. */
export function formatTable(rows: SummaryRow[]): string {
  const live = rows.some((r) => r.checkedLive > 0)
  const lines = [
    `app          path       n  target slots  deps   mut ${live ? ' working' : ''} wording`,
  ]
  for (const r of rows)
    lines.push(
      `${r.app.padEnd(12)} ${r.path.padEnd(9)} ${String(r.workflows).padStart(2)} ${pct(r.target)}  ${pct(r.slots)} ${pct(r.dependencies)} ${pct(r.mutating)}   ${live ? `${pct(r.working)}   ` : ''}${pct(r.wording)}`,
    )
  return lines.join('\n')
}

/** One line per workflow and path that is not right (all of them with `verbose`). */
export function formatProblems(results: WorkflowResult[], verbose = false): string[] {
  const lines: string[] = []
  for (const r of results) {
    for (const path of PATHS) {
      const p = r[path]
      const broken = p.working && !p.working.working ? [`working: ${p.working.detail}`] : []
      const problems = [...p.verdict.problems, ...broken]
      if (problems.length || verbose)
        lines.push(`${r.ref} [${path}] ${problems.join(' | ') || 'ok'}`)
    }
  }
  return lines
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const live = args.includes('--live')
  const verbose = args.includes('--verbose')
  const jsonAt = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined
  const named = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--json')
  // Apps that have not arrived yet are measured on purpose, by name, once (issue 24 B): a bare
  // run must not show their figures to whoever tunes the compiler.
  const names = named.length ? named : arrivedApps()
  const { results, skipped } = await evaluateCorpus({ names, live })
  for (const [app, why] of Object.entries(skipped))
    console.log(`${app}: live check skipped (${why})`)
  for (const line of formatProblems(results, verbose)) console.log(line)
  console.log(formatTable(summarize(results)))
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
