/**
 * Typing slips in an intent (`renmae`, `uplaod`, `dokuwki`): a word no dictionary, word list or
 * tool knows is read as the known word one edit away, so the verb and the site still count.
 *
 * An edit is one deletion, insertion, substitution or swap of two neighbouring letters (the
 * Damerau–Levenshtein distance 1 of Damerau 1964, "A technique for computer detection and
 * correction of spelling errors"); candidates are generated from the slip and looked up, as in
 * Norvig's corrector ("How to Write a Spelling Corrector", 2007), so a correction costs a few
 * hundred set lookups whatever the number of tools.
 */

/** What the corrector asks of the router's vocabularies. */
export interface SpellingVocabulary {
  /** True when `word` (lower case) is an English word or a word some tool says. */
  knows(word: string): boolean
  /**
   * How likely `word` is what was meant, lower first (a tool's own word before a verb of the
   * router's tables before an everyday word by its frequency); null when it is no candidate.
   */
  rank(word: string): number | null
  /** True when `word` is an everyday word (a part of a compound such as `read` + `me`). */
  common(word: string): boolean
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/** Words of one edit from `word` (may repeat). */
function edits(word: string): string[] {
  const out: string[] = []
  for (let i = 0; i <= word.length; i++) {
    const a = word.slice(0, i)
    const b = word.slice(i)
    if (b) out.push(a + b.slice(1))
    if (b.length > 1) out.push(a + b[1] + b[0] + b.slice(2))
    for (const c of LETTERS) {
      if (b && c !== b[0]) out.push(a + c + b.slice(1))
      out.push(a + c + b)
    }
  }
  return out
}

/** The ranks (`SpellingVocabulary.rank`) a four-letter slip may be read as when a letter dropped. */
const SHORT_SLIP = 1_000

/**
 * The known word `word` is most likely a slip of, or null. Only plain lower-case words of four
 * letters or more are corrected (shorter ones have too many neighbours to choose from); a word of
 * four letters only by a swap (`waht`) or by a letter dropped from a very frequent word (`evey`).
 */
export function correctWord(word: string, vocabulary: SpellingVocabulary): string | null {
  if (word.length < 4 || !/^[a-z]+$/.test(word) || vocabulary.knows(word)) return null
  if (isCompound(word, vocabulary)) return null
  let best: string | null = null
  let bestRank = Infinity
  for (const candidate of new Set(edits(word))) {
    // Four letters: a swap (`waht`), or a dropped letter of a word among the most frequent
    // (`evey` of `every`, `usng` of `using`).
    const swap =
      candidate.length === 4 && [...candidate].sort().join('') === [...word].sort().join('')
    const dropped = candidate.length === 5 && (vocabulary.rank(candidate) ?? Infinity) < SHORT_SLIP
    if (word.length === 4 && !swap && !dropped) continue
    // Slips rarely touch the first letter (Yannakoudakis & Fawthrop 1983); a changed first
    // letter is mostly another word (`jsmith` is no `smith`), unless the first two swapped.
    // (Four letters swapped at the start are mostly another word: `usng` is no `sung`.)
    const swappedFirst = word.length > 4 && candidate[0] === word[1] && candidate[1] === word[0]
    if (candidate[0] !== word[0] && !swappedFirst) continue
    const rank = vocabulary.rank(candidate)
    if (rank !== null && rank < bestRank) {
      best = candidate
      bestRank = rank
    }
  }
  return best
}

/** Two everyday words run together (`readme`, `backend`, `offsite`): a word, not a slip. */
function isCompound(word: string, vocabulary: SpellingVocabulary): boolean {
  for (let i = 2; i <= word.length - 2; i++)
    if (vocabulary.common(word.slice(0, i)) && vocabulary.common(word.slice(i))) return true
  return false
}

/**
 * `text` with its slips corrected (`correctWord`). Quoted parts are left alone, and so are words
 * that are part of a value (`budget.xlsx`, `team:status`, `tidy-csv`) or that start with a
 * capital anywhere but the first word (a name: `Pancakes`).
 */
export function correctSpelling(text: string, vocabulary: SpellingVocabulary): string {
  let quoted = false
  let first = true
  return text
    .split(/(\s+)/)
    .map((token) => {
      if (/^\s+$/.test(token) || !token) return token
      const opens = /^["'“‘`]/.test(token)
      const closes = /["'”’`][.,;:!?)]*$/.test(token) && (!opens || token.length > 1)
      const inQuote = quoted || opens
      if (opens && !closes) quoted = true
      else if (quoted && closes) quoted = false
      const wasFirst = first
      first = false
      if (inQuote) return token
      const m = /^([(]?)([A-Za-z]+)([.,;!?)]*)$/.exec(token)
      if (!m) return token
      const [, lead, bare, trail] = m
      if (
        bare !== bare!.toLowerCase() &&
        !(wasFirst && bare!.slice(1) === bare!.slice(1).toLowerCase())
      )
        return token
      const fixed = correctWord(bare!.toLowerCase(), vocabulary)
      return fixed ? `${lead}${fixed}${trail}` : token
    })
    .join('')
}
