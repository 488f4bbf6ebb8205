import { nounSynonyms, roleSynonyms, verbAgreement, type VerbClass } from './lexicon'
import type { IntentWord, ParsedIntent } from './parseIntent'
import { isPlural, stem } from './text'
import { FIELD_STRENGTH, type TermField, type ToolProfile } from './toolProfile'

/**
 * The penalties of the calibration (see `router.ts`): what one unaccounted-for intent word costs
 * from a base of 1. Chosen so that a single missing specific word (0.12) already leaves a tool
 * below the 0.9 threshold, while a few missing generic words (0.02 each) do not.
 */
export const PENALTY = {
  /** The intent's head noun (what it wants to act on) is not the tool's. */
  head: 0.35,
  /** Any other specific word of the object, a `by` qualifier or an `on`/`at` site. */
  word: 0.12,
  /** A generic word (`results`, `data`, `site`...). */
  generic: 0.02,
  /** The tool's own head noun appears nowhere in the intent: it may be about something else. */
  toolHead: 0.08,
} as const

/** A head noun found only among slot names or output fields counts this much of its strength. */
export const HEAD_IN_FIELDS = 0.6
/** Verb agreement at most this when many are asked of a tool that reads one (`list orders` of `track an order`). */
export const ONE_ITEM_FACTOR = 0.85

/** Score at most this when the verbs contradict: below the 0.9 threshold whatever else agrees. */
export const CONTRADICTION_CAP = 0.6
/** Score at most this when the intent names nothing to act on (`search`). */
export const VAGUE_CAP = 0.8

/** How an intent word was accounted for. */
export interface WordEvidence {
  word: string
  part: 'core' | 'qualifier' | 'value' | 'place' | 'site'
  /** `matched`: a tool word; `absorbed`: a value a text slot takes; `missing`: neither. */
  outcome: 'matched' | 'absorbed' | 'missing'
  /** Where it was found (`intent`, `name`, `slot`...) and through what (`synonym`...). */
  field?: TermField
  via?: 'word' | 'synonym' | 'role' | 'site_label'
  /** How strongly the tool shows it (0 to 1). */
  strength: number
  penalty: number
}

export interface MatchEvidence {
  verb: { intent: VerbClass | null; tool: VerbClass; factor: number; contradicts: boolean }
  head: string | null
  toolHead: string | null
  words: WordEvidence[]
  /** Why the score was capped, when it was. */
  cap?: 'contradiction' | 'vague'
}

export interface ToolScore {
  score: number
  /** Share of the tool's intent words the intent used: breaks ties between equal scores. */
  closeness: number
  evidence: MatchEvidence
}

interface Found {
  strength: number
  field: TermField
  via: NonNullable<WordEvidence['via']>
}

/** How strongly the tool shows `w`: its own stem, a synonym (x0.95), or a part of its site name. */
function find(profile: ToolProfile, w: IntentWord, roles: boolean): Found | null {
  let best: Found | null = null
  const consider = (found: Found) => {
    if (!best || found.strength > best.strength) best = found
  }
  const own = profile.terms.get(w.stem)
  if (own) consider({ strength: own.strength, field: own.field, via: 'word' })
  for (const s of nounSynonyms(w.stem)) {
    const term = profile.terms.get(s)
    if (term) consider({ strength: term.strength * 0.95, field: term.field, via: 'synonym' })
  }
  if (roles)
    for (const s of roleSynonyms(w.stem))
      if (profile.slotStems.has(s))
        consider({ strength: FIELD_STRENGTH.slot * 0.95, field: 'slot', via: 'role' })
  // `parcel` in `parcelpost`: a site named by a part of its host label.
  if (w.stem.length >= 4 && profile.siteLabels.some((l) => l !== w.stem && l.startsWith(w.stem)))
    consider({ strength: 0.85, field: 'site', via: 'site_label' })
  return best
}

/**
 * Scores one tool for one parsed intent, from 0 to 1 (see `router.ts` for the calibration):
 * `base = 1 − Σ penalties` of the intent words the tool cannot account for, times the verb
 * agreement, capped at 0.6 on a contradicting verb and at 0.8 when the intent names nothing.
 */
export function scoreTool(intent: ParsedIntent, profile: ToolProfile): ToolScore {
  const evidence: WordEvidence[] = []
  const matchedStems = new Set<string>()
  const account = (
    w: IntentWord,
    part: WordEvidence['part'],
    mayAbsorb: boolean,
    fullPenalty: number,
  ) => {
    const found = find(profile, w, part === 'qualifier')
    // The head must be what the tool is about: a slot or output field of that name (a `page`
    // slot for paging) is weak evidence of it.
    const weak = w === head && (found?.field === 'slot' || found?.field === 'output')
    const strength = (found?.strength ?? 0) * (weak ? HEAD_IN_FIELDS : 1)
    if (found) matchedStems.add(w.stem)
    if (!found && mayAbsorb) {
      evidence.push({ word: w.word, part, outcome: 'absorbed', strength: 0, penalty: 0 })
      return
    }
    const penalty = round(fullPenalty * (1 - strength))
    evidence.push({
      word: w.word,
      part,
      outcome: found ? 'matched' : 'missing',
      ...(found ? { field: found.field, via: found.via } : {}),
      strength: round(strength),
      penalty,
    })
  }
  const head = pickHead(intent, profile)
  for (const w of intent.core) {
    const cost = w === head ? PENALTY.head : w.generic ? PENALTY.generic : PENALTY.word
    account(w, 'core', false, cost)
  }
  for (const w of intent.qualifiers)
    account(w, 'qualifier', false, w.generic ? PENALTY.generic : PENALTY.word)
  for (const w of intent.sites) account(w, 'site', w.literal, PENALTY.word)
  // Values and places are what to look for: a word the tool does not know is fine when a text
  // slot can take it (`for [writing]`, `in [paris]`), and a literal whenever it has any slot.
  for (const [list, part] of [
    [intent.values, 'value'],
    [intent.places, 'place'],
  ] as const)
    for (const w of list) {
      const absorbable = profile.hasTextSlot || (w.literal && profile.slotCount > 0)
      const cost = w === head ? PENALTY.head : w.generic ? PENALTY.generic : PENALTY.word
      account(w, part, absorbable && w !== head, cost)
    }
  let penalty = evidence.reduce((sum, e) => sum + e.penalty, 0)
  if (!head) penalty += PENALTY.head
  if (intent.quoted && profile.slotCount === 0) penalty += PENALTY.word
  const allStems = new Set([
    ...[intent.core, intent.qualifiers, intent.values, intent.places, intent.sites]
      .flat()
      .map((w) => w.stem),
  ])
  const toolHeadNamed =
    profile.head === null ||
    allStems.has(profile.head) ||
    [...nounSynonyms(profile.head)].some((s) => allStems.has(s))
  if (!toolHeadNamed) penalty += PENALTY.toolHead
  const verb = verbAgreement(intent.verb?.verbClass ?? null, profile.verb)
  const asksMany =
    (intent.verb?.verbClass === 'list' || intent.verb?.verbClass === 'search') &&
    head !== null &&
    isPlural(head.word)
  if (asksMany && profile.verb === 'read' && profile.headSingular && !verb.contradicts)
    verb.factor = Math.min(verb.factor, ONE_ITEM_FACTOR)
  let score = Math.max(0, 1 - penalty) * (verb.contradicts ? 1 : verb.factor)
  let cap: MatchEvidence['cap']
  if (verb.contradicts && score > CONTRADICTION_CAP) {
    score = CONTRADICTION_CAP
    cap = 'contradiction'
  }
  const vague = allStems.size === 0
  if (vague && score > VAGUE_CAP) {
    score = VAGUE_CAP
    cap = 'vague'
  }
  const verbStem = intent.verb ? stem(intent.verb.word) : null
  const used = [...profile.intentStems].filter((s) => allStems.has(s) || s === verbStem)
  return {
    score: round(score),
    closeness: profile.intentStems.size ? used.length / profile.intentStems.size : 0,
    evidence: {
      verb: { intent: intent.verb?.verbClass ?? null, tool: profile.verb, ...verb },
      head: head?.word ?? null,
      toolHead: profile.head,
      words: evidence,
      ...(cap ? { cap } : {}),
    },
  }
}

/**
 * The word the intent wants to act on: the last specific word of its object; else the last
 * generic object word the tool knows (`search [the web] for cats`); else the first value, place or
 * site word the tool knows (`search for [hotels] in paris`); else none (the intent names nothing
 * this tool is about).
 */
function pickHead(intent: ParsedIntent, profile: ToolProfile): IntentWord | null {
  const specific = intent.core.filter((w) => !w.generic)
  if (specific.length) return specific.at(-1)!
  const known = (w: IntentWord) => find(profile, w, false) !== null
  const generic = intent.core.filter(known)
  if (generic.length) return generic.at(-1)!
  return (
    [...intent.values, ...intent.places, ...intent.sites].find((w) => !w.generic && known(w)) ??
    null
  )
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000
}
