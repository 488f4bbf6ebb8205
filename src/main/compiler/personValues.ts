import type { Trace } from '../../shared/trace'
import { fold } from '../../shared/jsonPath'
import { intentWords } from './intentWords'
import { signInAccounts, typedValues } from './typedValues'

/**
 * A value the person gave, saw or named, as evidence of which record they meant. `strong`: typed
 * or chosen in a field, quoted in the intent ("trigger the inject node "run nightly import""),
 * or the accessible name (or a quoted part of it) of what they clicked. Not strong: a phrase of
 * the intent's own words ("run nightly import now"), which may name a record by chance.
 */
export interface PersonValue {
  value: string
  strong: boolean
  /** Where it came from, for the evidence signal: `typed`, `quoted`, `clicked`, `intent`. */
  source: 'typed' | 'quoted' | 'clicked' | 'intent'
}

/** Longest run of intent words taken as one phrase ("refresh the reports cache now"). */
const MAX_PHRASE_WORDS = 6
const MIN_LENGTH = 3

/**
 * The values of a trace that may name a record, strong first, each once
 * (compared folded: case and runs of spaces aside). Sources: the fields the person filled or
 * chose (`typedValues`), the intent's quoted parts ('…', "…", “…”, ‘…’), the names of the
 * elements they clicked and their quoted parts (WordPress: `Move “Old Announcement” to the
 * Trash`), then every phrase of one to six intent words that holds a content word.
 */
export function personValues(trace: Trace, intent: string): PersonValue[] {
  const out: PersonValue[] = []
  const seen = new Set<string>()
  const add = (value: string, source: PersonValue['source']) => {
    const text = value.trim()
    const key = fold(text)
    if (text.length < MIN_LENGTH || seen.has(key)) return
    seen.add(key)
    out.push({ value: text, strong: source !== 'intent', source })
  }
  // Who the person signed in as names no record (see signInAccounts).
  const accounts = signInAccounts(trace.actions, intent)
  for (const t of typedValues(trace.actions)) if (!accounts.has(t.value)) add(t.value, 'typed')
  for (const q of quotedParts(intent)) add(q, 'quoted')
  for (const a of trace.actions) {
    if (a.kind !== 'click' || !a.name) continue
    for (const q of quotedParts(a.name)) add(q, 'clicked')
    add(a.name, 'clicked')
  }
  for (const phrase of intentPhrases(intent)) add(phrase, 'intent')
  return out
}

/**
 * The quoted parts of a text: between straight or typographic quotes, a single quote counting
 * only at a word's edge (so "didn't … 'x'" quotes `x`, not `t … `).
 */
export function quotedParts(text: string): string[] {
  const out: string[] = []
  const patterns = [
    /"([^"]+)"/g,
    /“([^”]+)”/g,
    /‘([^’]+)’/g,
    /(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])/gu,
  ]
  for (const pattern of patterns)
    for (const m of text.matchAll(pattern)) if (m[1]!.trim()) out.push(m[1]!.trim())
  return out
}

/** Every run of one to six words of the intent that holds a content word, longest first. */
function intentPhrases(intent: string): string[] {
  const tokens = intent
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean)
  const phrases: string[] = []
  for (let n = Math.min(MAX_PHRASE_WORDS, tokens.length); n >= 1; n--)
    for (let start = 0; start + n <= tokens.length; start++) {
      const phrase = tokens.slice(start, start + n).join(' ')
      if (intentWords(phrase).length) phrases.push(phrase)
    }
  return phrases
}
