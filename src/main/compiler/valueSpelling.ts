/**
 * A value as sites spell it in a URL path (issue 9 "Values in a plain path segment"): percent-
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
