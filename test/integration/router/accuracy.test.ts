// Router accuracy on the test half of the hand-written paraphrases (issue 10 "Done when"): the
// tools compiled from the real-app corpus's stored recordings, routed as agents route them.
// Behaviour, not timing. The test half was written blind (by someone who never saw the router,
// its lexicon or the development half) and is never tuned on; the floors below are the goal and
// what it measured.
import { beforeAll, describe, expect, it } from 'vitest'
import { createToolRouter, MAX_MATCHES, MIN_SCORE } from '../../../src/main/router/router'
import {
  loadCorpusTools,
  loadParaphrases,
  measureAccuracy,
  type AccuracyFigures,
  type CorpusTools,
} from '../../bench/routerAccuracy'

/**
 * Floors on the test half: measured top-1 96.9%, recall 96.9%, false matches 0 of 72 (27 Nov
 * 2026; 58.8%, 62.3% and 5 before six sessions' work, all of it tuned on development sets).
 * The floors are the issue's goals: top-1 95%, no false match.
 */
const MIN_TOP1 = 0.95
const MIN_RECALL = 0.95
const MAX_FALSE_MATCHES = 0

describe('router accuracy on the real-app paraphrases (test half)', () => {
  let corpus: CorpusTools
  let test: AccuracyFigures
  beforeAll(async () => {
    corpus = await loadCorpusTools()
    test = measureAccuracy(corpus.tools, loadParaphrases(), 'test')
  }, 180_000)

  it('compiles tools for the corpus', () => {
    expect(corpus.tools.length).toBeGreaterThanOrEqual(40)
  })

  it(`matches at most ${MAX_FALSE_MATCHES} of the intents that must match nothing`, () => {
    expect(test.nothing).toBeGreaterThanOrEqual(50)
    expect(test.falseMatches).toBeLessThanOrEqual(MAX_FALSE_MATCHES)
  })

  it(`ranks the right tool first at 0.9 or more for at least ${MIN_TOP1 * 100}% of intents`, () => {
    expect(test.intents).toBeGreaterThanOrEqual(250)
    expect(test.top1).toBeGreaterThanOrEqual(MIN_TOP1)
    expect(test.recall).toBeGreaterThanOrEqual(MIN_RECALL)
  })

  it('answers from its index exactly what scoring every tool would answer', () => {
    // `route` scores only the tools its inverted index can reach 0.9 with; `rank` scores all.
    // The index must never drop a tool that would match.
    const router = createToolRouter()
    const differ: string[] = []
    for (const p of loadParaphrases()) {
      const ranked = router
        .rank(p.text, corpus.tools)
        .filter((m) => m.score >= MIN_SCORE)
        .slice(0, MAX_MATCHES)
        .map((m) => m.id)
      const routed = router.route(p.text, corpus.tools).tools.map((m) => m.id)
      if (ranked.join() !== routed.join()) differ.push(p.text)
    }
    expect(differ).toEqual([])
  })
})
