/**
 * The compiler's accuracy over the stored real-app traces (issue 9 "Done when"): every workflow of
 * `test/apps/`, both paths (Sitecall's recorder, plain HAR), compiled and judged against its
 * answer key, must match `test/apps/expected.json` measure by measure. A regression fails naming
 * the workflow and what went wrong; an improvement fails too, asking for the file to be refreshed
 * with `npm run corpus:expect`, so the file always says what the compiler does. Behaviour only:
 * no timing is asserted.
 */
import { describe, expect, it } from 'vitest'
import { loadStoredWorkflows, type StoredWorkflow, type Verdict } from '../../apps/corpus'
import {
  drift,
  expectationOf,
  judgeStored,
  MEASURES,
  readExpected,
  totals,
  type Expectations,
} from '../../apps/expect'
import type { RecordingPath } from '../../apps/store'
import { arrivedApps } from '../../apps/arrivals'

const PATHS: RecordingPath[] = ['recording', 'har']
const REFRESH = 'run `npm run corpus:expect` and commit test/apps/expected.json'

// Read once at collection: the ~110 gzipped recordings are decompressed a single time and the
// tests below are named after the workflows they find.
// Apps waiting for their arrival measure are not judged here (issue 24 B: `arrivals.ts`).
const entries = await loadStoredWorkflows(arrivedApps())
const expected: Expectations = readExpected()

// Each trace is compiled once; the overall test reuses the verdicts the per-workflow tests made.
const verdicts = new Map<string, Verdict>()
function verdictOf(entry: StoredWorkflow, path: RecordingPath): Verdict {
  const id = `${entry.ref} ${path}`
  let v = verdicts.get(id)
  if (!v) {
    v = judgeStored(entry, path)
    verdicts.set(id, v)
  }
  return v
}

describe('real-app corpus: compiler accuracy against test/apps/expected.json', () => {
  it('lists every stored workflow, and only those', () => {
    const refs = entries.map((e) => e.ref).sort()
    const missing = refs.filter((r) => !expected[r])
    const gone = Object.keys(expected).filter((r) => !refs.includes(r))
    expect({ missing, gone }, `expected.json is out of date with the corpus: ${REFRESH}`).toEqual({
      missing: [],
      gone: [],
    })
  })

  for (const entry of entries)
    describe(entry.ref, () => {
      for (const path of PATHS)
        // Compiling the larger traces takes up to ~1 s each on a loaded 2-core machine.
        it(`${path}: as recorded in expected.json`, { timeout: 60_000 }, () => {
          const want = expected[entry.ref]?.[path]
          if (!want) throw new Error(`${entry.ref} has no expectation: ${REFRESH}`)
          const verdict = verdictOf(entry, path)
          const { regressed, improved } = drift(want, expectationOf(verdict), MEASURES)
          if (regressed.length)
            throw new Error(
              `${entry.ref} [${path}] regressed on ${regressed.join(', ')}: ${verdict.problems.join(' | ')}`,
            )
          if (improved.length)
            throw new Error(
              `${entry.ref} [${path}] now gets ${improved.join(', ')} right (expected.json says not): ${REFRESH}`,
            )
        })
    })

  it('overall figures are at least the recorded ones', { timeout: 120_000 }, () => {
    const now: Expectations = {}
    for (const entry of entries)
      now[entry.ref] = {
        recording: expectationOf(verdictOf(entry, 'recording')),
        har: expectationOf(verdictOf(entry, 'har')),
      }
    const got = totals(now)
    const want = totals(expected)
    for (const path of PATHS)
      for (const m of MEASURES)
        expect(
          got[path][m],
          `${path} ${m}: ${got[path][m]} of ${entries.length}, recorded ${want[path][m]}`,
        ).toBeGreaterThanOrEqual(want[path][m])
  })
})
