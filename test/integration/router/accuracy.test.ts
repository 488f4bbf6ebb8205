// The router on the real-app paraphrases (issue 25 F), among the tools compiled from every
// corpus app's stored recordings. Behaviour, not timing. The development half's answers are
// pinned one by one (`devPins.json`, written by `test/bench/routerPins.ts`): a change lists
// exactly which intents it moved, and re-pins them on purpose. The test half and the held-out
// paraphrases are never asserted: `npm run bench` measures them.
import { beforeAll, describe, expect, it } from 'vitest'
import { createToolRouter, MAX_MATCHES, MIN_SCORE } from '../../../src/main/router/router'
import {
  devAnswers,
  loadCorpusTools,
  loadParaphrases,
  type CorpusTools,
} from '../../bench/routerAccuracy'
import { loadPins, movedAnswers, pinnedApps } from '../../bench/routerPins'

describe('router on the real-app paraphrases', () => {
  let corpus: CorpusTools
  beforeAll(async () => {
    corpus = await loadCorpusTools(pinnedApps())
  }, 300_000)

  it('compiles tools for the corpus', () => {
    expect(corpus.tools.length).toBeGreaterThanOrEqual(100)
  })

  it('answers every development paraphrase as pinned', () => {
    const pins = loadPins().answers
    expect(Object.keys(pins).length).toBeGreaterThanOrEqual(8000)
    const now = devAnswers(corpus.tools, loadParaphrases())
    // Each line: the intent, its pinned answer -> its answer now [right or wrong].
    expect(movedAnswers(pins, now)).toEqual([])
  }, 900_000)

  it('answers from its index exactly what scoring every tool would answer', () => {
    // `route` ranks the tools its index finds; `rank` also ranks every other tool as if the
    // index had found it. The index must never drop a tool that would match.
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
  }, 900_000)
})
