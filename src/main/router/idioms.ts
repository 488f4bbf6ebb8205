/**
 * Requests said without their verb in front (`scratch.py should be called utils.py`, `flow
 * Billing becomes Invoicing`, `'Open 9 to 5' should be the new text of the page`, `logo.svg
 * needs to go into the media files`, `Spam Article has to go`): each idiom is rewritten to the
 * plain request it stands for (`rename to`, `change the text of`, `upload into`, `delete`), so
 * the parser reads its verb. Values are already marks here (`parseIntent`), so a quoted text
 * never matches.
 */

/** An idiom and the words it stands for. */
const IDIOMS: Array<[RegExp, string]> = [
  // Renames.
  [/\b(?:should|must|needs? to|has to|is to) be (?:re)?(?:called|named|titled)\b/gi, ' rename to '],
  [/\bbecomes\b/gi, ' rename to '],
  [/\b(?:a |the )?new (?:title|name)(?: is| should be| of)?\b/gi, ' rename to '],
  // A new text.
  [
    /\b(?:should|must|needs? to) be (?:the |its )?(?:new )?(?:text|content|wording|body) of\b/gi,
    ' change the text of ',
  ],
  [
    /\b(?:make|put|set) (?:that|this|it) (?:as )?(?:the )?(?:new )?(?:text|content) of\b/gi,
    ' change the text of ',
  ],
  [
    /\bneeds? (?:its|the|a) (?:text|content|wording) (?:replaced|changed|updated)\b/gi,
    ' change the text ',
  ],
  // Into a place: an upload; to go, a delete.
  [/\b(?:needs?|has|have) to go (?=into|onto|in|on|to)\b/gi, ' upload '],
  [/\b(?:needs?|has|have) to go\b/gi, ' delete it '],
]

/** `text` with the idioms of {@link IDIOMS} rewritten as plain requests. */
export function plainRequest(text: string): string {
  let out = text
  for (const [pattern, plain] of IDIOMS) out = out.replace(pattern, plain)
  return out
}
