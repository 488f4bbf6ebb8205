/**
 * The ranker's features: what one intent and one tool have in common, as numbers
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

/**
 * An expansion at this strength or more finds the tools that say it (`factIndex.ts`
 * `candidates`) and counts as said in `tool_cover`; weaker ones only count in `shows`.
 */
export const FINDS = 0.9

/** A rule score at this or more is the rules' own match (`rules_match`). */
const RULE_MATCH = 0.9

/**
 * The most a rule score counts for a tool the rules' own index did not find (`router.ts`
 * `choiceSet`): that index lists the tools that may reach the rules' {@link RULE_MATCH}, so a tool
 * it leaves out counts just under it, whatever the rules' scoring made of it (a Deluge
 * tool the index never looked at scored 0.966 by the rules for `mark the latest edit to Book Club
 * as patrolled`, and 0.918 in the ranker). Not fitted: the rules' own threshold, less 0.001.
 */
export const UNFOUND_RULE_MAX = 0.899

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

/**
 * Each feature's range ([low, high]) for a tool outside an intent's choice set (`router.ts`
 * `choiceSet`): one that neither the fact index nor the rules' index found. What the indexes
 * guarantee of such a tool, feature by feature:
 * - it says none of the intent's words (nor its head) by an expansion of {@link FINDS} or more,
 *   else the fact index's postings list it: what a word shows of it (`head_*`, `cover`) is under
 *   FINDS, and none of its topic words is said (`tool_cover` 0);
 * - it is on none of the sites the intent names (`site_same` 0: those are posted by site) and is
 *   no sign-in asked for (`auth_pair` 0: sign-ins are posted by act);
 * - its rule score is at most {@link UNFOUND_RULE_MAX} (`router.ts` `choiceSet` caps the tools
 *   the rules' index did not find), so `rules_match` is 0 and its gap to the others' scores (all at least 0) is at
 *   most that score.
 * The other features may take any value they can take for a found tool. `ranker.ts`
 * `unfoundCeiling` bounds the score of such a tool from these ranges and the weights. A new
 * feature must say its range here (the type asks for every name).
 */
export const UNFOUND_RANGES: Readonly<Record<FeatureName, readonly [number, number]>> = {
  none: [0, 0],
  act_same: [0, 1],
  act_family: [0, 1],
  act_conflict: [0, 1],
  act_other_write: [0, 1],
  act_unsaid: [0, 1],
  act_said_same: [0, 1],
  head_fact: [0, FINDS],
  head_topic: [0, FINDS],
  head_site: [0, FINDS],
  head_unsaid: [0, 1],
  cover: [0, FINDS],
  missing: [0, 1],
  tool_cover: [0, 0],
  site_same: [0, 0],
  site_other: [0, 1],
  value_kind: [0, 1],
  value_no_slot: [0, 1],
  auth_pair: [0, 0],
  rules: [0, UNFOUND_RULE_MAX],
  rules_best: [0, 1],
  rules_gap: [-1, UNFOUND_RULE_MAX],
  rules_match: [0, 0],
  rules_logit: [ruleLogit(0), ruleLogit(UNFOUND_RULE_MAX)],
}

/** The best strength at which `tool` shows `word` in the fields of `mask`, 0 when it does not. */
function shows(facts: ToolFacts, word: ExpandedWord, mask: number): number {
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
 * whether it reaches the rules' own {@link RULE_MATCH}, and its logit (divided by 7: in [-1, 1]).
 */
export function setRuleFeature(x: number[], s: number, ctx: RuleContext): void {
  x[AT.rules] = s
  x[AT.rules_best] = s >= ctx.best ? 1 : 0
  const other = s >= ctx.best ? ctx.second : ctx.best
  x[AT.rules_gap] = Number.isFinite(other) ? Math.max(-1, Math.min(1, s - other)) : s
  x[AT.rules_match] = s >= RULE_MATCH ? 1 : 0
  x[AT.rules_logit] = ruleLogit(s)
}

/** The `rules_logit` feature of rule score `s`: its logit, clamped to [0.001, 0.999], over 7. */
function ruleLogit(s: number): number {
  const q = Math.min(0.999, Math.max(0.001, s))
  return Math.log(q / (1 - q)) / 7
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
    if (view.words.some((w) => (w.stems.get(s) ?? 0) >= FINDS)) said++
  }
  return total ? said / total : 0
}
