import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import {
  accuracyOf,
  corpusOptions,
  judge,
  loadCorpus,
  type Verdict,
} from '../../fixtures/traces/corpus'

/**
 * Corpus traces the compiler does not yet get right on all four counts (issue 3 "Measured").
 * Each capability of issue 3 is being built; when one lands, its traces start passing and this
 * test fails until they are removed from here, so the list only ever shrinks to empty.
 */
const KNOWN_GAPS: string[] = []

const corpus = loadCorpus()
const verdicts = new Map<string, Verdict>(
  corpus.map((entry) => [
    entry.name,
    judge(entry, compileTrace(entry.trace, corpusOptions(entry))),
  ]),
)
const passes = (v: Verdict) => v.target && v.slots && v.dependencies && v.mutating

describe('compiler corpus (test/fixtures/traces)', () => {
  it('holds at least 40 traces, each with noise and a named capability', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40)
    for (const entry of corpus) {
      expect(entry.covers.length, entry.name).toBeGreaterThan(0)
      expect(entry.trace.exchanges.length, entry.name).toBeGreaterThan(3)
    }
  })

  it('lists in KNOWN_GAPS only traces that exist', () => {
    const names = new Set(corpus.map((e) => e.name))
    expect(KNOWN_GAPS.filter((name) => !names.has(name))).toEqual([])
  })

  for (const entry of corpus) {
    const verdict = verdicts.get(entry.name)!
    if (KNOWN_GAPS.includes(entry.name)) {
      it(`${entry.name}: still a known gap (remove it from KNOWN_GAPS once it passes)`, () => {
        expect(passes(verdict), `${entry.name} now compiles as expected`).toBe(false)
      })
    } else {
      it(`${entry.name} (${entry.covers.join(', ')}) compiles to the expected tool`, () => {
        expect(verdict.problems).toEqual([])
      })
    }
  }

  it('is 100% accurate on target, slots, dependencies and mutating flag outside KNOWN_GAPS', () => {
    const outside = corpus.filter((e) => !KNOWN_GAPS.includes(e.name))
    const accuracy = accuracyOf(outside.map((e) => verdicts.get(e.name)!))
    expect(accuracy).toEqual({
      traces: outside.length,
      target: 1,
      slots: 1,
      dependencies: 1,
      mutating: 1,
    })
  })
})
