/**
 * A value as sites spell it in a URL path: percent-
 * decoded, `+`, `_` and `-` read as spaces (form encoding, MediaWiki titles, slugs), case folded,
 * spaces collapsed. Two spellings of one value compare equal.
 */
export function normalValue(text: string): string {
  let decoded = text
  try {
    decoded = decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    // keep the raw text
  }
  return decoded.replace(/[_+-]/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()
}

/** English singular of a path word or noun: `categories` → `category`, `tools` → `tool`. */
export function singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return word.slice(0, -3) + 'y'
  if (/(ss|us|is)$/.test(word)) return word
  if (/(sh|ch|x|z)es$/.test(word)) return word.slice(0, -2)
  if (/s$/.test(word) && word.length > 3) return word.slice(0, -1)
  return word
}

/** The words of a text, case folded: its runs of letters and digits (`team:status` → team, status). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}
