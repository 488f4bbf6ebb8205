/**
 * `rank(intent, tools) → scored tools with evidence`: the intent is read once
 * (`../intent/readIntent.ts`), each tool that may fit it gets its features (`features.ts`) and a
 * logit under the fitted weights (`rankerParams.json`, written by `test/bench/routerFit.ts`),
 * and the choice model (`choiceModel.ts`) turns them into the probability that each is the one
 * asked for, beside the probability that none is. Tools that do the same thing (one request on
 * one site: a tool saved twice, two recordings of one workflow) are one choice, so they do not
 * split it. A calibrated probability is the score: 0.9 means nine in ten right on apps the weights
 * never saw.
 *
 * Two tools that do different things and fit equally share the probability, so neither reaches
 * 0.9 (ties are not matches); `tieOf` says which they are and what would tell them
 * apart.
 */
import { readIntent, type Intent } from '../intent/readIntent'
import { calibrate, dot, softmax, type Platt } from './choiceModel'
import type { FactEntry, FactIndex } from './factIndex'
import {
  features,
  FEATURES,
  noneFeatures,
  ruleContext,
  setRuleFeature,
  UNFOUND_RANGES,
  type ExpandedWord,
  type IntentView,
} from './features'
import fitted from './rankerParams.json' with { type: 'json' }
import { sameThing } from './sameThing'

if (fitted.features.join() !== FEATURES.join())
  throw new Error(
    'rankerParams.json was fitted on other features than features.ts names: refit (test/bench/routerFit.ts)',
  )

/** The fitted model: one weight per feature, and the calibration of its probabilities. */
export interface RankerParams {
  features: readonly string[]
  weights: number[]
  platt: Platt
}

/** The model `test/bench/routerFit.ts` fitted (see `rankerParams.json` for its figures). */
export const FITTED: RankerParams = fitted

export interface RankedTool {
  entry: FactEntry
  /** Feature vector (`FEATURES` order). */
  x: number[]
  /** Probability, among the choices, that this tool is the one asked for. */
  p: number
  /** `p` calibrated: the tool's score. */
  score: number
}

export interface Ranking {
  view: IntentView
  /** Best first. */
  ranked: RankedTool[]
  /** Probability that no tool held is asked for. */
  none: number
}

/** Lemmas that say nothing of what is asked (`something`, `thing`, `please`). */
const EMPTY_WORDS = new Set(['thing', 'something', 'stuff', 'one', 'please', 'pls', 'just', 'also'])

/** Texts whose readings one index keeps (`viewOf`); all are dropped when the cap is reached. */
const VIEWS_KEPT = 2_000

/** Per index, the readings of the texts searched since what it holds last changed. */
const views = new WeakMap<FactIndex, { version: number; byText: Map<string, IntentView> }>()

/**
 * Reads `text` as the index's features need it: the intent, its head and words expanded. The
 * reading is kept per text while what `index` holds stays the same (`FactIndex.version`: the site
 * names, how many tools say each word), so a text searched again is not read again
 * (speed); it is shared, so callers must not change it.
 */
export function viewOf(text: string, index: FactIndex): IntentView {
  let kept = views.get(index)
  if (kept?.version !== index.version) {
    kept = { version: index.version, byText: new Map() }
    views.set(index, kept)
  }
  let view = kept.byText.get(text)
  if (!view) {
    if (kept.byText.size >= VIEWS_KEPT) kept.byText.clear()
    view = readView(text, index)
    kept.byText.set(text, view)
  }
  return view
}

/** {@link viewOf} without keeping it. */
function readView(text: string, index: FactIndex): IntentView {
  const intent = readIntent(text, { siteNames: index.siteNames() })
  const expanded = (lemma: string): ExpandedWord => {
    const stems = index.expand(lemma)
    let idf = 0
    for (const [s, strength] of stems) if (strength === 1) idf = Math.max(idf, index.idf(s))
    return { lemma, stems, idf }
  }
  const units = unitsOfNumbers(intent)
  const words = [...new Set(intent.words)]
    .filter((w) => !EMPTY_WORDS.has(w) && !units.has(w))
    .map(expanded)
    .filter((w) => !isUnknownName(w, index))
  return { intent, head: intent.head ? expanded(intent.head) : null, words }
}

/** Units that belong to the number before them (`for 30 min`, `90 minutes`, `2 hours`). */
const UNITS = new Set([
  ...['s', 'sec', 'second', 'm', 'min', 'mins', 'minute', 'h', 'hr', 'hrs', 'hour'],
  ...['d', 'day', 'week', 'month', 'year', 'mb', 'gb', 'kb', 'percent'],
])

/**
 * The unit lemmas of `intent` that stand right after a number value: they are part of the value
 * (a duration, a size), which is matched against the tool's slots, never a topic word a tool
 * must say (issue 25 A: a word unaccounted for counts against every tool alike).
 */
function unitsOfNumbers(intent: Intent): Set<string> {
  const out = new Set<string>()
  intent.tokens.forEach((t, i) => {
    const before = intent.tokens[i - 1]
    if (before?.value !== undefined && intent.values[before.value]?.kind === 'number')
      if (UNITS.has(t.lemma)) out.add(t.lemma)
  })
  return out
}

/**
 * True when `word` carries a digit and no tool says it (`db01`, `web02`, `mail01`): a record's
 * name written without quotes, not what is asked of a tool; left out of the words the tool must
 * account for. A digit word a tool does say (`ipv6`, `base64`) stays a word.
 */
function isUnknownName(word: ExpandedWord, index: FactIndex): boolean {
  if (!/\d/.test(word.lemma)) return false
  for (const [s, strength] of word.stems) if (strength === 1 && index.saying(s) > 0) return false
  return true
}

export { sameThing }

/**
 * Scores `entries` (the choice set) for `view` under `params` (see the file comment), with the
 * rule engine's score of each (`ruleScores` by tool id; a tool it did not score counts 0).
 * `outside` tools are ranked too, each as if it alone were added to the choice set (what it would
 * score had the index found it), without changing the others' scores. `ownHead`: ids of the tools
 * whose own head noun is the intent's (the rules say), first among equal probabilities. Pure.
 * O(tools × features).
 */
export function rankEntries(
  view: IntentView,
  choices: readonly FactEntry[],
  ruleScores: ReadonlyMap<string, number>,
  params: RankerParams = FITTED,
  outside: readonly FactEntry[] = [],
  ownHead?: ReadonlySet<string>,
): Ranking {
  // In one order whatever the tools' order: sums of floating-point terms depend on it.
  const entries = [...choices].sort((a, b) => compareIds(a.tool.id, b.tool.id))
  const rows = entries.map((e) => features(view, e.facts))
  const ruleOf = (e: FactEntry) => ruleScores.get(e.tool.id) ?? 0
  const ctx = ruleContext(entries.map(ruleOf))
  rows.forEach((x, i) => setRuleFeature(x, ruleOf(entries[i]!), ctx))
  const logits = rows.map((x) => dot(params.weights, x))
  // One choice per thing done: its best tool's logit.
  const groups = new Map<string, number>()
  const keys = entries.map((e) => e.thing)
  keys.forEach((k, i) => groups.set(k, Math.max(groups.get(k) ?? -Infinity, logits[i]!)))
  const groupKeys = [...groups.keys()]
  const choiceLogits = [
    dot(params.weights, noneFeatures()),
    ...groupKeys.map((k) => groups.get(k)!),
  ]
  const p = softmax(choiceLogits)
  const pOf = new Map(groupKeys.map((k, i) => [k, p[i + 1]!]))
  const ranked: RankedTool[] = entries.map((entry, i) => {
    const share = pOf.get(keys[i]!)! * Math.exp(logits[i]! - groups.get(keys[i]!)!)
    return { entry, x: rows[i]!, p: share, score: calibrate(share, params.platt) }
  })
  if (outside.length) {
    const top = Math.max(...choiceLogits)
    const z = choiceLogits.reduce((sum, l) => sum + Math.exp(l - top), 0)
    for (const entry of outside) {
      const x = features(view, entry.facts)
      const s = ruleOf(entry)
      setRuleFeature(x, s, ruleContext([ctx.best, ctx.second, s]))
      const e = Math.exp(dot(params.weights, x) - top)
      const share = e / (z + e)
      ranked.push({ entry, x, p: share, score: calibrate(share, params.platt) })
    }
  }
  // At equal probabilities, the tool whose own head noun is the intent's head, then the id.
  // (Looked up once per tool, not per comparison.)
  const own = new Map<RankedTool, number>()
  if (ownHead?.size) for (const r of ranked) if (ownHead.has(r.entry.tool.id)) own.set(r, 1)
  ranked.sort(
    (a, b) =>
      b.p - a.p ||
      (own.get(b) ?? 0) - (own.get(a) ?? 0) ||
      compareIds(a.entry.tool.id, b.entry.tool.id),
  )
  return { view, ranked, none: p[0]! }
}

/**
 * The highest score under `params` of a tool outside an intent's choice set (one neither index
 * found: `router.ts` `choiceSet`), whatever the intent and the other tools: its logit is at most
 * the sum over features of the larger of weight × low and weight × high of the feature's range
 * for such a tool (`features.ts` `UNFOUND_RANGES`), and its share (`rankEntries`, `outside`)
 * at most what it would have beside the choice of no tool alone, σ(logit − logit of none), then
 * calibrated (1 when the calibration is not increasing). Below 0.9 the index cannot drop a tool
 * that would match; `router.ts` scores every tool otherwise. O(features).
 */
export function unfoundCeiling(params: RankerParams = FITTED): number {
  if (!(params.platt.slope > 0)) return 1
  let top = 0
  FEATURES.forEach((f, i) => {
    const [low, high] = UNFOUND_RANGES[f]
    const w = params.weights[i]!
    top += Math.max(w * low, w * high)
  })
  const none = dot(params.weights, noneFeatures())
  return calibrate(1 / (1 + Math.exp(none - top)), params.platt)
}

/** Tool ids in code-unit order (locale-free, so every machine orders alike). */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Two or more tools that do different things and share what the intent asks. */
export interface Tie {
  tools: RankedTool[]
  /** What would tell them apart, in words (`which site: DokuWiki or MediaWiki`). */
  tellApart: string
}

/**
 * The tie at the top of `ranking`, or null: the first tools (up to 4) that do different things,
 * whose probabilities together reach what one alone would need for 0.9 while none does alone.
 */
export function tieOf(ranking: Ranking, params: RankerParams = FITTED): Tie | null {
  const top = ranking.ranked[0]
  if (!top || top.score >= 0.9) return null
  const seen = new Set<string>()
  const tied: RankedTool[] = []
  let together = 0
  for (const r of ranking.ranked) {
    const key = r.entry.thing
    if (seen.has(key)) continue
    if (r.p < top.p / 4 || tied.length === 4) break
    seen.add(key)
    tied.push(r)
    together += r.p
    if (tied.length >= 2 && calibrate(together, params.platt) >= 0.9) {
      return { tools: tied, tellApart: tellApart(tied) }
    }
  }
  return null
}

/** What tells `tied` tools apart: their sites, their acts, or a value one needs. */
function tellApart(tied: readonly RankedTool[]): string {
  const sites = [...new Set(tied.map((r) => r.entry.tool.siteHost))]
  if (sites.length > 1) {
    const names = tied.map((r) => r.entry.tool.site?.names[0] ?? r.entry.tool.siteHost)
    return `which site: ${[...new Set(names)].join(' or ')}`
  }
  const acts = [...new Set(tied.map((r) => r.entry.facts.act))]
  if (acts.length > 1) return `what to do: ${acts.join(' or ')}`
  const needs = tied.flatMap((r) =>
    r.entry.facts.required.map((n) => `${n} (${r.entry.tool.name})`),
  )
  if (needs.length) return `a value: ${needs.join(', ')}`
  return `which of them: ${tied.map((r) => r.entry.tool.name).join(' or ')}`
}

/** The features of `x` by name (a tool's evidence). */
export function namedFeatures(x: readonly number[]): Record<string, number> {
  return Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(x[i]! * 1000) / 1000]))
}
