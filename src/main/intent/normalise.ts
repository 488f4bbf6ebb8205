/**
 * Stage 1 of reading an intent: one spelling of the same text. Unicode NFKC (full-width letters,
 * ligatures and compatibility forms become the plain ones, Unicode Standard Annex #15), typographic
 * quotes and dashes become ASCII ones the later stages know, and runs of white space one space.
 * Nothing is dropped: letters of any script stay, so the language stage can see them.
 */

/** Typographic characters and their plain forms (a value quoted with `“…”` is still quoted). */
const PLAIN: ReadonlyArray<[RegExp, string]> = [
  [/[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g, '"'],
  [/[\u2018\u2019\u201A\u201B\u2032]/g, "'"],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200B\u202F\u205F\u3000]/g, ' '],
]

/**
 * `text` in one spelling (see the file comment), trimmed. Pure; never throws.
 * `normalise('  find  “Old Draft”  ')` is `find "Old Draft"`.
 */
export function normalise(text: string): string {
  let out = text.normalize('NFKC')
  for (const [pattern, plain] of PLAIN) out = out.replace(pattern, plain)
  return out.replace(/\s+/g, ' ').trim()
}
