/**
 * Values said aloud, as a voice assistant transcribes them (`readme dot md`, `issue seventeen`,
 * `version two point zero point one`), written as people type them (`readme.md`, `issue 17`,
 * `version 2.0.1`), so `values.ts` reads them by their form. Only where the form is sure: a file
 * extension after `dot`, a number after a word that numbers a record.
 */

import { STOP_WORDS } from './text'

/** Prepositions no spoken file name holds (`the report [as] pdf`), besides `STOP_WORDS`. */
const SMALL_WORDS = new Set(['as', 'in', 'to', 'of', 'for', 'with', 'on', 'at', 'by', 'from'])

/** Extensions a spoken file name ends with (`report dot csv`). */
const EXTENSIONS =
  'md|txt|csv|tsv|json|yaml|yml|xml|pdf|jpg|jpeg|png|gif|svg|zip|tar|gz|xlsx|xls|docx|doc|pptx|py|ipynb|js|ts|html|log|sql|pkl|mp3|mp4'

const DOT_EXTENSION = new RegExp(`\\b([\\w-]+) dot (${EXTENSIONS})\\b`, 'gi')

/**
 * `upload the survey results csv to the server`: a file said by its name and its type, after
 * an article, ending the phrase (not `the tidy csv package`).
 */
const NAMED_FILE = new RegExp(
  `\\b(the|my|our|this|that) ((?:[a-z][\\w-]* ){0,2}[a-z][\\w-]*) (${EXTENSIONS})(?=\\s+(?:to|into|onto|on|in|from|for)\\b|\\s*[,.;!?]|\\s*$)`,
  'g',
)

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
]
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']

/** A number said in words below a hundred (`seventeen`, `forty two`, `forty-two`). */
const SAID = `(?:(?:${TENS.slice(2).join('|')})(?:[ -](?:${UNITS.slice(1, 10).join('|')}))?|${UNITS.join('|')})`

/** Words after which a number numbers a record or a release (`issue four`, `version two`). */
const NUMBERING = 'issue|ticket|bug|post|page|number|no|item|task|version|release|v'

const NUMBERED = new RegExp(
  `\\b(${NUMBERING})\\s+(${SAID}(?:\\s+(?:point|dot)\\s+${SAID})*)\\b`,
  'gi',
)

/** `intent` with its spoken file names and record numbers written as people type them. */
export function spokenAsWritten(intent: string): string {
  return (
    intent
      .replace(DOT_EXTENSION, (_, name: string, ext: string) => `${name}.${ext.toLowerCase()}`)
      // (`the report as pdf`: a name has no small words.)
      .replace(NAMED_FILE, (whole: string, article: string, name: string, ext: string) =>
        name.split(' ').some((w) => STOP_WORDS.has(w) || SMALL_WORDS.has(w))
          ? whole
          : `${article} ${name.replace(/ /g, '-')}.${ext}`,
      )
      .replace(NUMBERED, (_, lead: string, said: string) => {
        const parts = said.split(/\s+(?:point|dot)\s+/i).map(toNumber)
        return `${lead} ${parts.join('.')}`
      })
  )
}

/** The value of a number said in words below a hundred (`forty two` → 42). */
function toNumber(said: string): number {
  const words = said.toLowerCase().split(/[ -]+/)
  let n = 0
  for (const w of words) {
    const tens = TENS.indexOf(w)
    n += tens >= 2 ? tens * 10 : UNITS.indexOf(w)
  }
  return n
}

/** True when `word` is a number said in words (`two`, `forty`): no name of anything. */
export function isNumberWord(word: string): boolean {
  return UNITS.includes(word) || TENS.indexOf(word) >= 2 || word === 'hundred'
}
