// Leave-one-app-out evaluation of the router's ranker (issue 25 F): the held-out unit is a whole
// app. Every paraphrase of one app's tools is routed by weights fitted on the other apps'
// paraphrases only, with a calibration fitted on the other apps' out-of-fold scores; the intents
// that must match nothing are dealt to the folds by a seeded hash. Used by the fitting script
// (`test/bench/routerFit.ts`) and by `npm run bench`.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  calibrate,
  fitChoiceModel,
  fitPlatt,
  softmax,
  dot,
  type ChoiceGroup,
  type Platt,
} from '../../src/main/router/choiceModel'
import { FactIndex, type FactEntry } from '../../src/main/router/factIndex'
import { DIMENSIONS, features, noneFeatures, setRuleFeatures } from '../../src/main/router/features'
import { createRuleScorer, type RuleScorer } from '../../src/main/router/ruleEngine'
import { sameThing } from '../../src/main/router/ranker'
import { choiceSet } from '../../src/main/router/router'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { appNames } from '../apps/registry'
import { loadCorpusTools, type Paraphrase } from './routerAccuracy'

const CACHE = fileURLToPath(new URL('../../bench-results/router-corpus.json', import.meta.url))

/**
 * The corpus tools (`routerAccuracy.ts` `loadCorpusTools`), kept in {@link CACHE} between bench
 * runs; apps the cache lacks (new ones) are compiled and added. Delete the file after a compiler
 * change.
 */
export async function cachedCorpusTools(): Promise<ToolSpec[]> {
  const kept = existsSync(CACHE) ? (JSON.parse(readFileSync(CACHE, 'utf8')) as ToolSpec[]) : []
  const held = new Set(kept.map((t) => t.id.split('/')[0]))
  const missing = appNames().filter((a) => !held.has(a))
  if (!missing.length) return kept
  const { tools } = await loadCorpusTools(missing)
  mkdirSync(dirname(CACHE), { recursive: true })
  writeFileSync(CACHE, JSON.stringify([...kept, ...tools]))
  return [...kept, ...tools]
}

/** The seed of the deal of must-match-nothing intents to folds (committed with the weights). */
export const FOLD_SEED = 25

/** One paraphrase ready to fit and score: its choice set as the router builds it. */
export interface Choice {
  text: string
  /** The app of its tool (its fold), or the fold it was dealt to (an intent of nothing). */
  fold: string
  /** Expected tool ids, or null for an intent that must match nothing. */
  expect: string[] | null
  entries: FactEntry[]
  rows: number[][]
  /** Which entries are right. */
  right: boolean[]
  /** False when the intent is not readable (it answers needs_observation whatever the weights). */
  readable: boolean
  /** How much it counts in a fit (1 when absent; `weighByApp`). */
  weight?: number
  /**
   * Length of its rows when a bench adds features after `features.ts`'s (`routerLexical.ts`);
   * `features.ts` `DIMENSIONS` when absent.
   */
  width?: number
}

/** The row of the choice of no tool, as long as `c`'s rows. */
function noneRowOf(c: Choice): number[] {
  const x = noneFeatures()
  while (x.length < (c.width ?? DIMENSIONS)) x.push(0)
  return x
}

/**
 * The choices with weights that give every fold (app) the same total, the mean count of a fold's
 * choices: an app with a thousand generated rewordings counts as much as one with forty written
 * by a stranger, so the fit learns what carries across apps, not one app's phrasing.
 */
export function weighByApp(choices: readonly Choice[]): Choice[] {
  const counts = new Map<string, number>()
  for (const c of choices) counts.set(c.fold, (counts.get(c.fold) ?? 0) + 1)
  const mean = choices.length / (counts.size || 1)
  return choices.map((c) => ({ ...c, weight: mean / counts.get(c.fold)! }))
}

/**
 * The choice sets of `paraphrases` among `tools` (the router's candidates, their features), with
 * `rules` as the rule engine (another for an ablation, `routerAblation.ts`).
 */
export function prepareChoices(
  tools: readonly ToolSpec[],
  paraphrases: readonly Paraphrase[],
  rules: RuleScorer = createRuleScorer(),
): Choice[] {
  const index = new FactIndex()
  index.sync(tools)
  const apps = [...new Set(tools.map((t) => t.id.split('/')[0]!))].sort()
  const withParaphrases = apps.filter((a) =>
    paraphrases.some((p) => [p.expect].flat().some((e) => e?.startsWith(`${a}/`))),
  )
  return paraphrases.map((p) => {
    const set = choiceSet(p.text, tools, index, rules)
    const entries = set.entries
    const expect = p.expect === null ? null : [p.expect].flat()
    const fold = expect ? expect[0]!.split('/')[0]! : dealt(p.text, withParaphrases)
    const rows = entries.map((e) => features(set.view, e.facts))
    setRuleFeatures(
      rows,
      entries.map((e) => set.rules.get(e.tool.id)?.score ?? 0),
    )
    return {
      text: p.text,
      fold,
      expect,
      entries,
      rows,
      right: entries.map((e) => expect !== null && expect.includes(e.tool.id)),
      readable: set.view.intent.readability.readable,
    }
  })
}

/** The fold an intent of nothing is dealt to: a hash of its text and the seed. */
function dealt(text: string, folds: readonly string[]): string {
  const h = createHash('sha256').update(`${FOLD_SEED}:${text}`).digest().readUInt32BE(0)
  return folds[h % folds.length]!
}

/** The choice group the model fits: no tool first, then the candidates. */
export function groupOf(c: Choice): ChoiceGroup {
  return {
    rows: [noneRowOf(c), ...c.rows],
    right: [c.expect === null, ...c.right],
    ...(c.weight === undefined ? {} : { weight: c.weight }),
  }
}

/**
 * Probabilities of `c`'s choices under `weights`: [none, ...entries], as the router gives them
 * (`ranker.ts` `rankEntries`): tools that do the same thing are one choice, shared by their logits.
 */
export function probabilities(c: Choice, weights: readonly number[]): number[] {
  const logits = c.rows.map((x) => dot(weights, x))
  const keys = c.entries.map((e) => sameThing(e.tool))
  const groups = new Map<string, number>()
  keys.forEach((k, i) => groups.set(k, Math.max(groups.get(k) ?? -Infinity, logits[i]!)))
  const groupKeys = [...groups.keys()]
  const p = softmax([dot(weights, noneRowOf(c)), ...groupKeys.map((k) => groups.get(k)!)])
  const pOf = new Map(groupKeys.map((k, i) => [k, p[i + 1]!]))
  return [
    p[0]!,
    ...c.entries.map((_, i) => pOf.get(keys[i]!)! * Math.exp(logits[i]! - groups.get(keys[i]!)!)),
  ]
}

/** What the router answers for one intent: its first tool and score, the right one's rank. */
export interface Outcome {
  choice: Choice
  /** Id of the first tool, null when there is none. */
  first: string | null
  score: number
  /** Ids of the tools at 0.9 or more (at most 10), best first. */
  matches: string[]
  /** 1-based rank of a right tool among the candidates, 0 when none is a candidate. */
  rank: number
}

/** The outcome of `c` under `weights` and `platt`. */
export function outcomeOf(c: Choice, weights: readonly number[], platt: Platt): Outcome {
  if (!c.readable) return { choice: c, first: null, score: 0, matches: [], rank: 0 }
  const p = probabilities(c, weights).slice(1)
  const order = p
    .map((_, i) => i)
    .sort((a, b) => p[b]! - p[a]! || (c.entries[a]!.tool.id < c.entries[b]!.tool.id ? -1 : 1))
  const scores = order.map((i) => calibrate(p[i]!, platt))
  const ids = order.map((i) => c.entries[i]!.tool.id)
  const rank = order.findIndex((i) => c.right[i]) + 1
  return {
    choice: c,
    first: ids[0] ?? null,
    score: scores[0] ?? 0,
    matches: ids.filter((_, k) => scores[k]! >= 0.9).slice(0, 10),
    rank,
  }
}

/** A share with its Wilson 95% interval (Wilson 1927). */
export interface Share {
  k: number
  n: number
  rate: number
  low: number
  high: number
}

export function share(k: number, n: number): Share {
  if (!n) return { k, n, rate: 0, low: 0, high: 0 }
  const z = 1.959964
  const p = k / n
  const d = 1 + (z * z) / n
  const centre = (p + (z * z) / (2 * n)) / d
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d
  return { k, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

export interface Figures {
  top1: Share
  recall: Share
  mrr: number
  falseMatches: Share
  perApp: Record<string, { top1: Share; falseMatches: Share }>
}

/** Top-1 at 0.9+, recall, MRR and false matches of `outcomes`, overall and per fold. */
export function figuresOf(outcomes: readonly Outcome[]): Figures {
  const tally = (list: readonly Outcome[]) => {
    const asked = list.filter((o) => o.choice.expect !== null)
    const nothing = list.filter((o) => o.choice.expect === null)
    const right = (o: Outcome) =>
      o.first !== null && o.choice.expect!.includes(o.first) && o.score >= 0.9
    return {
      top1: share(asked.filter(right).length, asked.length),
      recall: share(
        asked.filter((o) => o.matches.some((m) => o.choice.expect!.includes(m))).length,
        asked.length,
      ),
      mrr: asked.reduce((s, o) => s + (o.rank ? 1 / o.rank : 0), 0) / (asked.length || 1),
      falseMatches: share(nothing.filter((o) => o.score >= 0.9).length, nothing.length),
    }
  }
  const all = tally(outcomes)
  const perApp: Figures['perApp'] = {}
  for (const fold of [...new Set(outcomes.map((o) => o.choice.fold))].sort()) {
    const t = tally(outcomes.filter((o) => o.choice.fold === fold))
    perApp[fold] = { top1: t.top1, falseMatches: t.falseMatches }
  }
  return { ...all, perApp }
}

export interface LoaoResult {
  figures: Figures
  outcomes: Outcome[]
  /** Out-of-fold probability of each readable intent's first tool, and whether it was right. */
  outOfFold: Array<{ p: number; right: boolean; fold: string; weight?: number }>
}

/**
 * Leave one app out over `choices` (see the file comment): per fold, weights fitted on the other
 * folds (as many as the rows are wide); then per fold, a calibration fitted on the other folds'
 * out-of-fold probabilities.
 */
export function leaveOneAppOut(choices: readonly Choice[], l2?: number): LoaoResult {
  const dimensions = choices[0]?.width ?? DIMENSIONS
  const folds = [...new Set(choices.map((c) => c.fold))].sort()
  const weightsOf = new Map<string, number[]>()
  for (const fold of folds)
    weightsOf.set(
      fold,
      fitChoiceModel(
        choices.filter((c) => c.fold !== fold && c.readable).map(groupOf),
        dimensions,
        l2,
      ),
    )
  const outOfFold = choices
    .filter((c) => c.readable)
    .map((c) => {
      const p = probabilities(c, weightsOf.get(c.fold)!).slice(1)
      let best = -1
      for (let i = 0; i < p.length; i++) if (best < 0 || p[i]! > p[best]!) best = i
      return {
        p: best < 0 ? 0 : p[best]!,
        right: best >= 0 && c.right[best]!,
        fold: c.fold,
        ...(c.weight === undefined ? {} : { weight: c.weight }),
      }
    })
  const outcomes = choices.map((c) => {
    const platt = fitPlatt(outOfFold.filter((o) => o.fold !== c.fold))
    return outcomeOf(c, weightsOf.get(c.fold)!, platt)
  })
  return { figures: figuresOf(outcomes), outcomes, outOfFold }
}

/** One line per figure with its interval, then one per app. */
export function formatFigures(title: string, f: Figures): string {
  const pct = (s: Share) =>
    `${(s.rate * 100).toFixed(1)}% [${(s.low * 100).toFixed(1)}, ${(s.high * 100).toFixed(1)}] (${s.k}/${s.n})`
  const lines = [
    title,
    `  top-1 at >= 0.9  ${pct(f.top1)}`,
    `  recall           ${pct(f.recall)}`,
    `  MRR              ${f.mrr.toFixed(3)}`,
    `  false matches    ${pct(f.falseMatches)}`,
    ...Object.entries(f.perApp).map(
      ([app, a]) =>
        `  ${app.padEnd(12)} top-1 ${pct(a.top1)}; false ${a.falseMatches.k}/${a.falseMatches.n}`,
    ),
  ]
  return lines.join('\n')
}
