/**
 * What an intent word may be in a tool (its expansion by meaning) and how strongly a tool word so
 * found shows the intent's head. Shared by the scorer (`score.ts`) and the inverted index
 * (`toolIndex.ts`), which prunes by the same rule the scorer applies, so neither imports the
 * other.
 */
import type { TermField } from './toolProfile'

export interface Expansion {
  strength: number
  via: 'word' | 'lemma' | 'thesaurus' | 'derived' | 'synonym' | 'vector'
}

/** What an intent word may be in a tool: stems with how strongly each stands for the word. */
export type Expanded = Map<string, Expansion>

/** Penalty of an intent's head noun the tool does not show (see `score.ts` PENALTY). */
export const HEAD_PENALTY = 0.35

/** A head noun found only among slot names or output fields counts this much of its strength. */
export const HEAD_IN_FIELDS = 0.6

/**
 * The least strength a tool can show the intent's head with and still score 0.9: the head's
 * penalty `HEAD_PENALTY · (1 − strength)` may not pass 0.1 (`toolIndex.ts` prunes by it).
 */
export const MIN_HEAD_STRENGTH = 1 - 0.1 / HEAD_PENALTY

/**
 * Fields whose words are data the person saw or typed as much as vocabulary (page titles, slot
 * values, quoted names): only the word itself counts there, never a vector neighbour.
 */
export const DATA_FIELDS: ReadonlySet<TermField> = new Set(['title', 'value', 'named'])

/** Fields whose words name the tool's inputs or answer, not what it is about. */
export const WEAK_HEAD_FIELDS: ReadonlySet<TermField> = new Set(['slot', 'output', 'value'])

/**
 * How strongly a tool word (its field and field strength) found through expansion `x` shows the
 * intent's head, 0 to 1: page titles and slot values count only as the word itself (a vector
 * neighbour there is data, not vocabulary); slot names and output fields count
 * {@link HEAD_IN_FIELDS} of their strength.
 */
export function headStrength(term: { field: TermField; strength: number }, x: Expansion): number {
  if (x.via === 'vector' && DATA_FIELDS.has(term.field)) return 0
  return term.strength * x.strength * (WEAK_HEAD_FIELDS.has(term.field) ? HEAD_IN_FIELDS : 1)
}
