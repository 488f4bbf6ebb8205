/**
 * Robustness to wording over the stored real-app HARs (issue 9 "Measured"): each plain HAR compiled
 * again with its intent written three other ways (terse, chatty, without the value) reaches the
 * answer key's target exactly as `test/apps/expected.json` pins it, rewording by rewording: a
 * regression fails naming the rewording, and so does an improvement, so the file stays the truth
 * (refresh it with `npm run corpus:expect`). Behaviour only: no timing is asserted.
 */
import { describe, expect, it } from 'vitest'
import { arrivedApps } from '../../apps/arrivals'
import { loadStoredWorkflows } from '../../apps/corpus'
import { rewordingHits } from '../../apps/evaluate'
import { readExpected } from '../../apps/expect'

const REFRESH = 'run `npm run corpus:expect` and commit test/apps/expected.json'
const entries = (await loadStoredWorkflows(arrivedApps())).filter((e) => e.har)
const expected = readExpected()

describe('real-app corpus: the target however the intent is worded (plain HARs)', () => {
  for (const entry of entries)
    // Three compiles of a trace of up to a few MB: Syncthing's 205-exchange HAR takes 2–8 s a
    // compile on a 2-core machine, and over 60 s for the three when other suites share it.
    it(entry.ref, { timeout: 180_000 }, () => {
      const pinned = expected[entry.ref]?.har.wording
      if (!pinned) throw new Error(`${entry.ref} has no pinned rewordings: ${REFRESH}`)
      const moved = rewordingHits(entry)
        .filter((r) => r.hit !== pinned[r.kind])
        .map(
          (r) =>
            `${r.kind} ${r.hit ? 'now reaches' : 'no longer reaches'} the target: "${r.intent}"`,
        )
      expect(moved, REFRESH).toEqual([])
    })

  it('covers all three rewordings of every stored HAR', () => {
    expect(entries.length).toBeGreaterThanOrEqual(80)
  })
})
