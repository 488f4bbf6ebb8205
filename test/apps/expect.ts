/**
 * The committed expectations of the real-app corpus (`test/apps/expected.json`): per workflow and
 * path (recorder, plain HAR), what the compiler gets right today (compiled, target, slots,
 * dependencies, mutating flag) and, once measured live, whether the tool works. `npm test`
 * compares the compiler with it (test/integration/compiler/): a regression fails, and so does an
 * improvement, so the file stays the truth.
 *
 * Run: `npm run corpus:expect -- [--live] [app ...]`. Always rewrites the offline verdicts of every
 * workflow of the apps that arrived (`arrivals.ts`). With `--live`, also runs the working-tools check on a fresh instance of each named app
 * (all when none are named) and writes its `working` fields; other apps keep the ones the file
 * had. Exit 1 when an app could not be checked live.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  compileStored,
  judge,
  loadStoredWorkflows,
  type StoredWorkflow,
  type Verdict,
} from './corpus'
import { byApp, evaluateLive, PATHS, rewordingHits, type WorkflowResult } from './evaluate'
import type { RecordingPath } from './store'
import { arrivedApps } from './arrivals'

/** `test/apps/expected.json` */
export const EXPECTED_FILE = fileURLToPath(new URL('./expected.json', import.meta.url))

/** What the offline judge says of a compiled tool, in the order the file lists it. */
export const MEASURES = ['compiled', 'target', 'slots', 'dependencies', 'mutating'] as const
export type Measure = (typeof MEASURES)[number]
/** The offline measures and the live one. */
export const ALL_MEASURES = [...MEASURES, 'working'] as const

/** One workflow on one path: each measure right or not; `working` once checked live. */
export type PathExpectation = Record<Measure, boolean> & {
  working?: boolean
  /** Plain HARs only: whether each rewording of the intent reached the key's target. */
  wording?: Record<'terse' | 'chatty' | 'withoutValue', boolean>
}
/** One workflow on both paths. */
export type WorkflowExpectation = Record<RecordingPath, PathExpectation>
/** The whole file: `<app>/<workflow>` -> its expectation. */
export type Expectations = Record<string, WorkflowExpectation>

/** Reads `expected.json`; an empty record when it does not exist yet. */
export function readExpected(file = EXPECTED_FILE): Expectations {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Expectations) : {}
}

/** The measures of one verdict as the file stores them. */
export function expectationOf(verdict: Verdict): PathExpectation {
  const out = {} as PathExpectation
  for (const m of MEASURES) out[m] = verdict[m]
  return out
}

/** How a result moved from what the file expects: the measures lost and those gained. */
export interface Drift {
  regressed: string[]
  improved: string[]
}

/** Compares `actual` with `expected` on the given measures (a missing expectation counts false). */
export function drift(
  expected: Partial<PathExpectation>,
  actual: Partial<PathExpectation>,
  measures: ReadonlyArray<Measure | 'working'>,
): Drift {
  const out: Drift = { regressed: [], improved: [] }
  for (const m of measures) {
    const was = expected[m] === true
    const now = actual[m] === true
    if (was && !now) out.regressed.push(m)
    if (!was && now) out.improved.push(m)
  }
  return out
}

/** Per path, how many workflows are right on each measure (`working`: of those checked live). */
export type Totals = Record<RecordingPath, Record<Measure | 'working', number>>

/** Counts the file's (or a run's) expectations per path and measure: the overall figures. */
export function totals(expectations: Expectations): Totals {
  const zero = (): Record<Measure | 'working', number> => ({
    compiled: 0,
    target: 0,
    slots: 0,
    dependencies: 0,
    mutating: 0,
    working: 0,
  })
  const out: Totals = { recording: zero(), har: zero() }
  for (const wf of Object.values(expectations))
    for (const path of PATHS) for (const m of ALL_MEASURES) if (wf[path][m] === true) out[path][m]++
  return out
}

/** Compiles one stored workflow on one path and judges it against its key (offline). */
export function judgeStored(entry: StoredWorkflow, path: RecordingPath): Verdict {
  return judge(compileStored(entry, path), entry.workflow.key)
}

/** The file's text: workflows sorted, two-space JSON, one trailing newline (Prettier-stable). */
export function formatExpected(expectations: Expectations): string {
  const sorted: Expectations = {}
  for (const ref of Object.keys(expectations).sort()) sorted[ref] = expectations[ref]!
  return `${JSON.stringify(sorted, null, 2)}\n`
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const live = args.includes('--live')
  const names = args.filter((a) => !a.startsWith('--'))
  const previous = readExpected()
  // Apps still waiting for their arrival measure stay out of the file (issue 24 B).
  const entries = await loadStoredWorkflows(arrivedApps())
  const next: Expectations = {}
  for (const entry of entries) {
    next[entry.ref] = {
      recording: expectationOf(judgeStored(entry, 'recording')),
      har: expectationOf(judgeStored(entry, 'har')),
    }
    const hits = rewordingHits(entry)
    if (hits.length)
      next[entry.ref]!.har.wording = Object.fromEntries(
        hits.map((h) => [h.kind, h.hit]),
      ) as PathExpectation['wording']
    // Without a live run the working figures stay what was last measured.
    for (const path of PATHS) {
      const was = previous[entry.ref]?.[path].working
      if (was !== undefined) next[entry.ref]![path].working = was
    }
  }
  if (live) {
    for (const [name, group] of byApp(entries)) {
      if (names.length && !names.includes(name)) continue
      const results: WorkflowResult[] = group.map((e) => ({
        ref: e.ref,
        recording: { verdict: judge(null, e.workflow.key) },
        har: { verdict: judge(null, e.workflow.key) },
      }))
      const started = Date.now()
      let why: string | null
      try {
        why = await evaluateLive(group, results)
      } catch (error) {
        why = `failed to start: ${(error as Error).message}`
      }
      if (why) {
        console.error(`${name}: not checked live, its working fields are kept (${why})`)
        process.exitCode = 1
        continue
      }
      for (const r of results)
        for (const path of PATHS) {
          const w = r[path].working
          if (!w) continue
          next[r.ref]![path].working = w.working
          if (!w.working) console.log(`${r.ref} [${path}] not working: ${w.detail}`)
        }
      console.log(`${name}: checked live in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    }
  }
  // What moved since the file was last written, so the one who refreshes it sees it.
  for (const ref of Object.keys({ ...previous, ...next }).sort()) {
    if (!next[ref]) console.log(`${ref}: gone (no longer in the corpus)`)
    else if (!previous[ref]) console.log(`${ref}: new`)
    else
      for (const path of PATHS) {
        const d = drift(previous[ref]![path], next[ref]![path], ALL_MEASURES)
        if (d.regressed.length) console.log(`${ref} [${path}] regressed: ${d.regressed.join(', ')}`)
        if (d.improved.length) console.log(`${ref} [${path}] improved: ${d.improved.join(', ')}`)
      }
  }
  writeFileSync(EXPECTED_FILE, formatExpected(next))
  const t = totals(next)
  const n = Object.keys(next).length
  for (const path of PATHS)
    console.log(
      `${path.padEnd(9)} of ${n}: ${ALL_MEASURES.map((m) => `${m} ${t[path][m]}`).join(', ')}`,
    )
  console.log(`wrote ${EXPECTED_FILE}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
