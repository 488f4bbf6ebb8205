/**
 * The ranker's features (issue 25 C): what one intent and one tool have in common, as numbers
 * in [0, 1]. Each says one thing a person would check: does the tool do what is asked (the acts),
 * on the thing asked (the head noun, in what the request sends or in the words it was recorded
 * with), are the intent's words the tool's, is it on the site named, can it take the values
 * given. Their weights are fitted (`rankerParams.json`), none is set by hand.
 */
import { actFamily, type Act } from '../intent/act'
import type { Intent } from '../intent/readIntent'
import { FACT_BITS, FIELD_BIT, type ToolFacts } from './toolFacts'

/** Feature names, in vector order. `none` is 1 only for the choice of no tool. */
export const FEATURES = [
  'none',
  'act_same',
  'act_family',
  'act_conflict',
  'act_other_write',
  'act_unsaid',
  'act_said_same',
  'head_fact',
  'head_topic',
  'head_site',
  'head_unsaid',
  'cover',
  'missing',
  'tool_cover',
  'site_same',
  'site_other',
  'value_kind',
  'value_no_slot',
  'auth_pair',
  'rules',
  'rules_best',
  'rules_gap',
  'rules_match',
  'rules_logit',
] as const

export type FeatureName = (typeof FEATURES)[number]
export const DIMENSIONS = FEATURES.length
const AT = Object.fromEntries(FEATURES.map((f, i) => [f, i])) as Record<FeatureName, number>

/** An intent word with the tool stems it may be said by, each with a strength (1: itself). */
export interface ExpandedWord {
  lemma: string
  stems: ReadonlyMap<string, number>
  /** How much the word tells tools apart (inverse document frequency over the tools held). */
  idf: number
}

/** The intent as the features read it: parsed once, its words expanded once. */
export interface IntentView {
  intent: Intent
  head: ExpandedWord | null
  words: ExpandedWord[]
}

/** The best strength at which `tool` shows `word` in the fields of `mask`, 0 when it does not. */
export function shows(facts: ToolFacts, word: ExpandedWord, mask: number): number {
  let best = 0
  for (const [s, strength] of word.stems)
    if (strength > best && ((facts.stems.get(s) ?? 0) & mask) !== 0) best = strength
  return best
}

const ALL = 0x7f

/** The feature vector of the choice of no tool. */
export function noneFeatures(): number[] {
  const x = new Array<number>(DIMENSIONS).fill(0)
  x[AT.none] = 1
  return x
}

/** The feature vector of `facts` for `view`. Pure. */
export function features(view: IntentView, facts: ToolFacts): number[] {
  const x = new Array<number>(DIMENSIONS).fill(0)
  const { intent } = view
  setActs(x, intent.act, facts)
  if (view.head) {
    x[AT.head_fact] = shows(facts, view.head, FACT_BITS)
    x[AT.head_topic] = shows(facts, view.head, FIELD_BIT.topic)
    x[AT.head_site] = shows(facts, view.head, FIELD_BIT.site)
  } else x[AT.head_unsaid] = 1
  let weight = 0
  let covered = 0
  let missing = 0
  for (const w of view.words) {
    const best = shows(facts, w, ALL)
    weight += w.idf
    covered += w.idf * best
    if (best < 0.5) missing++
  }
  x[AT.cover] = weight > 0 ? covered / weight : 0
  x[AT.missing] = Math.min(1, missing / 3)
  x[AT.tool_cover] = toolCover(view, facts)
  const sites = intent.sites
  if (sites.length) {
    const mine = sites.some((s) => facts.siteNames.includes(s))
    x[mine ? AT.site_same : AT.site_other] = 1
  }
  const kinds = intent.values.map((v) => v.kind)
  x[AT.value_kind] = kinds.some((k) => k !== 'name' && k !== 'quoted' && facts.valueKinds.has(k))
    ? 1
    : 0
  x[AT.value_no_slot] = intent.values.length > 0 && facts.slots === 0 ? 1 : 0
  return x
}

/** The best and second-best rule scores of a choice set (what `rules_best`, `rules_gap` compare). */
export interface RuleContext {
  best: number
  second: number
}

/** The {@link RuleContext} of `scores` (-Infinity for what is missing). */
export function ruleContext(scores: readonly number[]): RuleContext {
  let best = -Infinity
  let second = -Infinity
  for (const s of scores)
    if (s > best) [best, second] = [s, best]
    else if (s > second) second = s
  return { best, second }
}

/**
 * Sets the rule engine's features of one row (`ruleEngine.ts`, a feature source while it earns
 * its place) whose rule score is `s`, in a choice set whose best scores are `ctx`: its score,
 * whether it is the best of the set, its gap to the best other score (negative below it),
 * whether it reaches the rules' own 0.9, and its logit (divided by 7: in [-1, 1]).
 */
export function setRuleFeature(x: number[], s: number, ctx: RuleContext): void {
  x[AT.rules] = s
  x[AT.rules_best] = s >= ctx.best ? 1 : 0
  const other = s >= ctx.best ? ctx.second : ctx.best
  x[AT.rules_gap] = Number.isFinite(other) ? Math.max(-1, Math.min(1, s - other)) : s
  x[AT.rules_match] = s >= 0.9 ? 1 : 0
  const q = Math.min(0.999, Math.max(0.001, s))
  x[AT.rules_logit] = Math.log(q / (1 - q)) / 7
}

/** Sets the rule features of each row of one choice set; `scores[i]` is row i's rule score. */
export function setRuleFeatures(rows: number[][], scores: readonly number[]): void {
  const ctx = ruleContext(scores)
  rows.forEach((x, i) => setRuleFeature(x, scores[i]!, ctx))
}

function setActs(x: number[], asked: Act | null, facts: ToolFacts): void {
  if (asked === null) {
    x[AT.act_unsaid] = 1
    return
  }
  if (asked === facts.act) x[AT.act_same] = 1
  else if (actFamily(asked) !== actFamily(facts.act)) x[AT.act_conflict] = 1
  else if (actFamily(asked) === 'write') x[AT.act_other_write] = 1
  else x[AT.act_family] = 1
  if (asked === facts.intentAct) x[AT.act_said_same] = 1
  if (asked === 'auth' && facts.act === 'auth') x[AT.auth_pair] = 1
}

/** The share of the tool's own topic words (its recorded intent's) the intent says. */
function toolCover(view: IntentView, facts: ToolFacts): number {
  let total = 0
  let said = 0
  for (const [s, bits] of facts.stems) {
    if ((bits & FIELD_BIT.topic) === 0) continue
    total++
    if (view.words.some((w) => (w.stems.get(s) ?? 0) >= 0.9)) said++
  }
  return total ? said / total : 0
}
