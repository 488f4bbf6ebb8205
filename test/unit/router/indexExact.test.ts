// The router's index is exact (issue 25): `route` ranks only the tools its indexes find, `rank`
// ranks every tool, and both must answer the same matches. A tool neither index finds has
// features within `UNFOUND_RANGES` (what the indexes guarantee of it), and those ranges bound its
// score under the fitted weights below 0.9 (`unfoundCeiling`).
import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { FactIndex } from '../../../src/main/router/factIndex'
import {
  features,
  FEATURES,
  ruleContext,
  setRuleFeature,
  UNFOUND_RANGES,
  UNFOUND_RULE_MAX,
} from '../../../src/main/router/features'
import { FITTED, rankEntries, unfoundCeiling } from '../../../src/main/router/ranker'
import {
  choiceSet,
  createToolRouter,
  INDEX_IS_EXACT,
  MAX_MATCHES,
  MIN_SCORE,
} from '../../../src/main/router/router'
import {
  createRuleScorer,
  type RuleScore,
  type RuleScorer,
} from '../../../src/main/router/ruleEngine'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { loadCorpus } from '../../fixtures/traces/corpus'
import { fileTool } from './fileTool'

/** Rule evidence that says nothing (the fake scorer's). */
const NO_EVIDENCE: RuleScore['evidence'] = {
  verb: { intent: null, tool: 'update', factor: 1, contradicts: false },
  action: { intent: null, tool: null, agrees: false },
  head: null,
  toolHead: null,
  words: [],
}

/**
 * A rule scorer whose index finds no tool and whose scoring gives `unfoundId` `score` (the other
 * tools 0.5): the rule engine's scoring and its index disagreeing, as they did for Deluge's
 * limit-speed tool and `mark the latest edit to Book Club as patrolled` (0.966, not found).
 */
function disagreeingRules(unfoundId: string, score: number): RuleScorer {
  return {
    scores(_intent, _tools, also = new Set()) {
      const out = new Map<string, RuleScore>()
      for (const id of also)
        out.set(id, {
          score: id === unfoundId ? score : 0.5,
          evidence: NO_EVIDENCE,
          found: false,
          ownHead: false,
        })
      return out
    },
  }
}

/** The ranking `router.ts` makes of a choice set (rule scores by id, as counted). */
function rankingOf(set: ReturnType<typeof choiceSet>) {
  const scores = new Map([...set.rules].map(([id, r]) => [id, r.score]))
  return rankEntries(set.view, set.entries, scores, FITTED, set.outside)
}

describe('a tool the indexes do not find (issue 25)', () => {
  const tools = [
    fileTool('rename_file', 'rename the file a.txt', true),
    fileTool('limit_speed', 'limit the download speed', true),
  ]
  const intent = 'rename report.pdf'

  it('counts a rule score of 0.9 or more just under 0.9 when the rules’ index did not find it', () => {
    const rules = disagreeingRules('limit_speed', 0.966)
    const set = choiceSet(intent, tools, new FactIndex(), rules, { all: true })
    expect(set.outside.map((e) => e.tool.id)).toContain('limit_speed')
    expect(set.rules.get('limit_speed')).toMatchObject({ score: UNFOUND_RULE_MAX, scored: 0.966 })
    // What `rank` makes of it had the index found it: under 0.9 (it scored 0.99 counted in full).
    const outside = rankingOf(set).ranked.find((r) => r.entry.tool.id === 'limit_speed')!
    expect(outside.score).toBeLessThan(MIN_SCORE)
    expect(outside.score).toBeLessThanOrEqual(unfoundCeiling())
  })

  it('keeps the rule score of a tool the rules’ index found, whatever it is', () => {
    const found: RuleScorer = {
      scores: (_i, _t, also = new Set()) =>
        new Map(
          [...also, 'limit_speed'].map((id) => [
            id,
            { score: 0.966, evidence: NO_EVIDENCE, found: id === 'limit_speed', ownHead: false },
          ]),
        ),
    }
    const set = choiceSet(intent, tools, new FactIndex(), found)
    expect(set.entries.map((e) => e.tool.id)).toContain('limit_speed')
    expect(set.rules.get('limit_speed')).toMatchObject({ score: 0.966 })
    expect(set.rules.get('limit_speed')?.scored).toBeUndefined()
  })
})

describe('the bound on what the index leaves out (issue 25)', () => {
  it('keeps every tool neither index finds under 0.9 under the fitted weights', () => {
    expect(unfoundCeiling(FITTED)).toBeLessThan(MIN_SCORE)
    expect(INDEX_IS_EXACT).toBe(true)
  })

  it('is no bound for weights that let the rules’ other features carry a tool to 0.9', () => {
    const heavy = {
      ...FITTED,
      weights: FITTED.weights.map((w, i) => (FEATURES[i] === 'rules_best' ? w + 5 : w)),
    }
    expect(unfoundCeiling(heavy)).toBeGreaterThanOrEqual(MIN_SCORE)
    // A calibration that does not increase bounds nothing.
    expect(unfoundCeiling({ ...FITTED, platt: { slope: -1, offset: 0 } })).toBe(1)
  })

  it('bounds the features of such a tool as the indexes guarantee, and the score it gets', () => {
    // Every compiled corpus trace (`test/fixtures/traces`) and intents of many kinds.
    const corpus: ToolSpec[] = loadCorpus().flatMap((entry) => {
      const c = compileTrace(entry.trace, { toolId: entry.name, now: 0, intent: entry.intent })
      return c.ok ? [{ ...c.candidate, status: 'verified' as const }] : []
    })
    const intents = [
      'search the AI tools directory by keyword',
      'log in to the npm registry',
      'rename budget.xlsx to budget-2024.xlsx',
      'mark the latest edit to Book Club as patrolled',
      'what is grace@example.org working on?',
      'add a todo',
      'show the details of the tidy-csv package on Verdaccio',
      'what am I downloading right now?',
      'weather in berlin',
    ]
    const index = new FactIndex()
    const rules = createRuleScorer()
    const router = createToolRouter()
    let outside = 0
    for (const intent of intents) {
      const set = choiceSet(intent, corpus, index, rules, { all: true })
      const ctx = ruleContext(set.entries.map((e) => set.rules.get(e.tool.id)?.score ?? 0))
      for (const e of set.outside) {
        outside++
        const x = features(set.view, e.facts)
        const s = set.rules.get(e.tool.id)?.score ?? 0
        setRuleFeature(x, s, ruleContext([ctx.best, ctx.second, s]))
        FEATURES.forEach((f, i) => {
          const [low, high] = UNFOUND_RANGES[f]
          expect(x[i], `${f} of ${e.tool.id} for ${intent}`).toBeGreaterThanOrEqual(low)
          expect(x[i], `${f} of ${e.tool.id} for ${intent}`).toBeLessThanOrEqual(high)
        })
      }
      const ranked = router
        .rank(intent, corpus)
        .filter((m) => m.score >= MIN_SCORE)
        .slice(0, MAX_MATCHES)
      expect(router.route(intent, corpus).tools.map((m) => m.id)).toEqual(ranked.map((m) => m.id))
    }
    expect(outside).toBeGreaterThan(100)
  })
})
