import { singular } from './valueSpelling'

/**
 * How an intent presents a word as a value rather than as the thing it names: quoted, capitalised
 * after the first word ("the page Old Draft"), after a word that introduces a value ("packages
 * named lunar"), or before a noun that holds named things ("the
 * invoices folder"). One place for the cues the compiler reads intents by.
 */

/** Words after which a person names a value in any part of a request. */
export const VALUE_INTRODUCERS = new Set(
  'for about named called titled tagged to as containing mentioning matching like with by from in under inside within have has mention mentions include includes say says'.split(
    ' ',
  ),
)

/**
 * The stricter introducers for a word in a URL path, where a preposition ("in", "to", "by")
 * more often leads to a route word than to a value.
 */
export const NAME_INTRODUCERS = new Set(
  'for about named called titled tagged containing mentioning matching like'.split(' '),
)

/** Nouns that hold named things: a word just before one in an intent is that thing's name. */
export const CONTAINER_NOUNS = new Set(
  'folder directory dir page file project category tag tab flow board list channel repo repository package namespace space collection album section wiki tiddler post issue ticket document doc note sheet notebook group team workspace bucket table database'.split(
    ' ',
  ),
)

/** Words that make what follows a particular thing, one a name can follow. */
const DEFINITE = new Set(['the', 'this', 'that', 'my', 'our', 'your', 'their'])

/**
 * True when the intent presents the words `start..end` (indexes into `raw`, its words as
 * written, and `lower`, the same words lower-cased without quotes) as a value. `introducers`
 * chooses which words before it count.
 */
export function presentedAsValue(
  raw: string[],
  lower: string[],
  start: number,
  end: number,
  introducers: ReadonlySet<string>,
): boolean {
  const spelled = raw.slice(start, end + 1).join(' ')
  if (/^["'“‘]/.test(spelled) || (start > 0 && /^[A-Z]/.test(spelled))) return true
  if (start > 0 && introducers.has(lower[start - 1] ?? '')) return true
  // A name given after the definite thing it names ("the wiki page meetings", "our folder
  // invoices"); "a package search" is a kind of search, not a package called "search".
  const after = start > 0 && CONTAINER_NOUNS.has(singular(lower[start - 1] ?? ''))
  const definite = DEFINITE.has(lower[start - 2] ?? '') || DEFINITE.has(lower[start - 3] ?? '')
  if (after && definite && !CONTAINER_NOUNS.has(singular(lower[start] ?? ''))) return true
  return CONTAINER_NOUNS.has(singular(lower[end + 1] ?? ''))
}
