/**
 * Values in an intent: what a tool takes as input rather than what it is about. `rename
 * budget.xlsx`, `open acme-utils`, `the issue #42`, `create a page called "Berlin"`: the value
 * needs no preposition to be one, so it is recognised by its form and
 * matched against the tool's input slots, never against the tool's words.
 */
import { inWordnet } from './wordnet'

export type ValueKind =
  | 'quoted'
  | 'url'
  | 'email'
  | 'file'
  | 'path'
  | 'date'
  | 'version'
  | 'number'
  | 'identifier'
  | 'name'

export interface IntentValue {
  /** As written (without quotes). */
  text: string
  kind: ValueKind
}

/** Prefixes of hyphenated words that are ordinary English (`sign-in`, `re-run`, `e-mail`). */
const WORD_PREFIXES = new Set([
  ...['re', 'pre', 'co', 'e', 'sign', 'log', 'to', 'self', 'non', 'multi', 'sub', 'un'],
  ...['up', 'built', 'well', 'long', 'short', 'full', 'half', 'all', 'follow', 'check', 'set'],
])

/** One pattern per kind, tried in this order; each span found is taken out of the text. */
const PATTERNS: Array<[ValueKind, RegExp]> = [
  ['quoted', /"([^"]*)"|“([^”]*)”|‘([^’]*)’|(?<=^|\s)'([^']+)'(?=\s|$|[.,;:!?])/g],
  ['url', /\bhttps?:\/\/\S+/g],
  // A release (`2.1.0`, `v1.2`, `lunar-phase@1.0.0`): three dotted numbers, or two after a `v`;
  // before e-mails (`name@1.0.0` is none) and numbers (`2.1.0` is no `2.1`).
  [
    'version',
    /(?<![\w.@-])(?:(?:@[\w-]+\/)?[\w.-]+@)?(?:v?\d+\.\d+\.\d+(?:-[\w.]+)?|v\d+\.\d+)(?![\w.])/g,
  ],
  // A scoped package (`@team/ui-kit`), before e-mails and paths.
  ['identifier', /(?<![\w@])@[\w-]+\/[\w.-]*[\w-](?![\w@])/g],
  ['email', /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g],
  // A file name: a name, a dot and an extension of up to 7 (`budget.xlsx`, `data.parquet`),
  // with the folders before it (`data/summary.csv`); before dates, which file names carry
  // (`minutes-2026-12-01.pdf`).
  ['file', /(?<![\w/])(?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,6}(?!\w|\.\w)/g],
  // A namespaced id (`meetings:2026-01-12`, `team:status`): before dates, which ids carry.
  ['identifier', /(?<![\w:-])[A-Za-z][\w-]*(?::[\w-]+)+(?![\w:])/g],
  ['date', /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g],
  ['path', /(?<=^|\s)\/[\w./~-]+/g],
  // A folder path without its leading slash (`archive/2025`, `data/raw`); not `and/or`.
  [
    'path',
    /(?<![\w/:.])(?!(?:and|or|either|yes|on|in|he|she|his|her)\/)[A-Za-z][\w.-]*(?:\/[\w.-]+)+\/?(?![\w/])/g,
  ],
  // A folder named with its trailing slash (`scratch/`, `experiments/`; not `w/` for with).
  ['path', /(?<![\w/:.])[A-Za-z][\w.-]+\/(?=$|\s|[,;:!?)])/g],
  ['number', /(?<=^|\s)#?\d+(?:[.,]\d+)?(?=$|\s|[.,;:!?])/g],
  // `acme-utils`, `my_notebook`, `projects:office_move`: joined words that are no English word.
  ['identifier', /(?<![\w-])[A-Za-z0-9]+(?:[-_:][A-Za-z0-9]+)+(?![\w-])/g],
  // A word with a capital inside (`DokuWiki`, `WordPress`) is a name wherever it stands.
  ['name', /\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/g],
  // A run of capitalised words inside a sentence is a name (`the page Meeting Notes`), as is a
  // brand (`DokuWiki`, matched against site names later); not the first word of a sentence, nor
  // the rest of a run that starts a clause after a colon (`new page: Picnic Plan` is one value).
  [
    'name',
    /(?<!(?:^|[.!?:;]|\n)\s*)(?<!:\s*[A-Z][a-z0-9']*\s+)\b[A-Z][a-z0-9']*(?:[A-Z][a-z0-9']*)*(?:\s+[A-Z][a-z0-9']*(?:[A-Z][a-z0-9']*)*)*\b/g,
  ],
]

/** Abbreviations that look like file names (`e.g.`, `i.e.`). */
const NOT_FILES = /^(e\.g|i\.e|etc|vs|a\.m|p\.m)$/i

/**
 * Takes the values out of `intent`: returns the text with each value replaced by `placeholder`
 * (a space unless given; the parser passes a word of its own, made from the value's index in
 * the values returned, to see where each value stood), and the
 * values in the order found. A hyphenated word English knows (`sign-in`, `e-mail`, `to-do`) is not
 * an identifier.
 */
export function extractValues(
  intent: string,
  placeholder: string | ((index: number, kind: ValueKind) => string) = ' ',
): { text: string; values: IntentValue[] } {
  const values: IntentValue[] = []
  let text = intent
  for (const [kind, pattern] of PATTERNS) {
    text = text.replace(pattern, (whole: string, ...groups: unknown[]) => {
      const inner = groups.slice(0, 4).find((g) => typeof g === 'string') as string | undefined
      // `'Closed on Sundays.' Make that the text of ...`: a verb that opens a sentence after a
      // quoted one, before its object, is no name.
      if (kind === 'name' && imperativeAt(whole, groups)) return whole
      const value = kind === 'quoted' ? (inner ?? '') : whole
      if (kind === 'file' && NOT_FILES.test(value)) return whole
      if (kind === 'identifier' && isEnglish(value)) return whole
      // (One word, so the parser reads it as one verb of its own act.)
      if (kind === 'identifier' && leadingVerb(value, text, groups)) return whole.replace('-', '')
      // `I`, and acronyms of a few capitals (`AI`, `CSV`), are words.
      if (kind === 'name' && /^(I|[A-Z]{1,4}s?)$/.test(value)) return whole
      // (`move the post to Trash`: the bin a deleted thing goes to, no record's name.)
      if (kind === 'name' && /^(?:trash|bin|recycle bin)$/i.test(value)) return whole
      values.push({ text: value, kind })
      return typeof placeholder === 'string' ? placeholder : placeholder(values.length - 1, kind)
    })
  }
  return { text, values }
}

/** Words that open a verb's object (`make [that] the text`). */
const OBJECT_OPENERS = /^\s+(that|this|it|the|a|an|my|our|them|these|those)\b/i

/**
 * True when the capitalised word `whole` (one word) is an English verb followed by the opening of
 * its object: an imperative, not a name. `groups` are `String.replace`'s extra arguments (the
 * offset and the whole text come last for a pattern without groups).
 */
function imperativeAt(whole: string, groups: unknown[]): boolean {
  if (/\s/.test(whole)) return false
  const offset = groups.at(-2)
  const all = groups.at(-1)
  if (typeof offset !== 'number' || typeof all !== 'string') return false
  return (
    inWordnet(whole.toLowerCase(), 'verb') && OBJECT_OPENERS.test(all.slice(offset + whole.length))
  )
}

/**
 * True when a hyphenated `value` opens the request before its object as a verb of English
 * words (`password-protect the post X`, `force-push the branch`), not a record's name: it is
 * kept as one word without its hyphen.
 */
function leadingVerb(value: string, text: string, groups: unknown[]): boolean {
  const at = groups.find((g) => typeof g === 'number') as number | undefined
  if (at === undefined || !/^\W*$/.test(text.slice(0, at))) return false
  if (
    !/^\s+(?:the|my|our|a|an|this|that|all|every|these|those)\b/i.test(
      text.slice(at + value.length),
    )
  )
    return false
  const parts = value.toLowerCase().split('-')
  return (
    parts.length === 2 &&
    parts.every((p) => inWordnet(p, 'noun') || inWordnet(p, 'verb')) &&
    inWordnet(parts[1]!, 'verb')
  )
}

function isEnglish(joined: string): boolean {
  const lower = joined.toLowerCase()
  if (/\d/.test(lower)) return false
  const parts = lower.split(/[-_:]/)
  if (WORD_PREFIXES.has(parts[0]!)) return true
  const underscored = parts.join('_')
  return inWordnet(underscored, 'noun') || inWordnet(underscored, 'verb')
}
