import { verbClassOf, type VerbClass } from './lexicon'
import { GENERIC_STEMS, STOP_WORDS, stem, words } from './text'

/**
 * One word of an intent: its surface form, its stem, and whether it names nothing in particular
 * (`GENERIC_STEMS`) or is a literal value (it carries a digit).
 */
export interface IntentWord {
  word: string
  stem: string
  generic: boolean
  literal: boolean
}

/**
 * What an intent asks, in the parts the scorer weighs differently:
 * - `core`: the object right after the verb (`search [the AI tools directory] by keyword`); every
 *   core word must be found in the tool;
 * - `qualifiers`: what the search goes by (`by [keyword and location]`): a slot or a tool word;
 * - `values`: what to look for (`for [writing]`, `about`, `named`, `with`...): a tool word, or a
 *   value one of its text slots can take;
 * - `places`: `in`, `from`, `to`, `near`... phrases: like values (`hotels in [paris]`);
 * - `sites`: `on`/`at` phrases: they name a site or app, so they must be the tool's;
 * - `quoted`: how many quoted strings the intent carries (always values).
 */
export interface ParsedIntent {
  verb: { word: string; verbClass: VerbClass } | null
  core: IntentWord[]
  qualifiers: IntentWord[]
  values: IntentWord[]
  places: IntentWord[]
  sites: IntentWord[]
  quoted: number
}

type Part = 'core' | 'qualifiers' | 'values' | 'places' | 'sites'

/** The word that opens each kind of phrase; `of` and `and` continue the phrase they are in. */
const OPENERS: Record<string, Part> = {
  by: 'qualifiers',
  for: 'values',
  about: 'values',
  matching: 'values',
  named: 'values',
  called: 'values',
  titled: 'values',
  entitled: 'values',
  saying: 'values',
  containing: 'values',
  like: 'values',
  with: 'values',
  whose: 'values',
  where: 'values',
  having: 'values',
  in: 'places',
  from: 'places',
  to: 'places',
  into: 'places',
  near: 'places',
  within: 'places',
  inside: 'places',
  through: 'places',
  across: 'places',
  under: 'places',
  over: 'places',
  between: 'places',
  on: 'sites',
  at: 'sites',
}

/** Leading filler before the verb (`please`, `I want to`, `help me`, `can you`). */
// `d`, `ll`, `m`... are what is left of contractions (`I'd like to`) once split into words.
const FILLER = new Set([
  ...STOP_WORDS,
  ...['to', 'like', 'try', 'go', 'quickly', 'now', 'd', 'll', 'm', 've', 're', 's'],
])

const QUOTED = /"([^"]*)"|“([^”]*)”|'([^']+)'(?=\s|$|[.,;:!?])/g

/**
 * Splits an intent into verb, object, qualifiers, values, places and sites (see `ParsedIntent`).
 * The verb is the first known verb before any other content word (`log in`, `sign in` are `auth`,
 * `sign up` is `create`, `look up` / `look for` search); without one, the first known verb that is
 * not a participle (`orders placed` is not a request to place one) anywhere in the intent.
 * `log out` / `sign out` are `logout`.
 */
export function parseIntent(intent: string): ParsedIntent {
  let quoted = 0
  const text = intent.replace(QUOTED, () => {
    quoted++
    return ' '
  })
  const tokens = words(text)
  let start = 0
  while (start < tokens.length && FILLER.has(tokens[start]!)) start++
  let verb: ParsedIntent['verb'] = null
  let rest = tokens
  const lead = tokens[start]
  const leadClass = lead === undefined ? null : verbClassOf(stem(lead))
  if (lead !== undefined && leadClass) {
    const next = tokens[start + 1]
    let verbClass: VerbClass = leadClass
    let skip = 1
    if ((lead === 'log' || lead === 'sign') && (next === 'in' || next === 'on')) skip = 2
    else if ((lead === 'log' || lead === 'sign') && next === 'out') {
      verbClass = 'logout'
      skip = 2
    } else if (lead === 'sign' && next === 'up') {
      verbClass = 'create'
      skip = 2
    } else if (lead === 'look' && next === 'up') skip = 2
    verb = { word: lead, verbClass }
    rest = tokens.slice(start + skip)
  } else {
    const at = tokens.findIndex(
      (t, i) => i >= start && !t.endsWith('ed') && verbClassOf(stem(t)) !== null,
    )
    if (at >= 0) {
      verb = { word: tokens[at]!, verbClass: verbClassOf(stem(tokens[at]!))! }
      rest = [...tokens.slice(start, at), ...tokens.slice(at + 1)]
    } else rest = tokens.slice(start)
  }
  const parsed: ParsedIntent = {
    verb,
    core: [],
    qualifiers: [],
    values: [],
    places: [],
    sites: [],
    quoted,
  }
  let part: Part = 'core'
  for (const token of rest) {
    const opener = OPENERS[token]
    if (opener) {
      part = opener
      continue
    }
    if (STOP_WORDS.has(token) || token === 'of') continue
    const s = stem(token)
    const word: IntentWord = {
      word: token,
      stem: s,
      generic: GENERIC_STEMS.has(s),
      literal: /\d/.test(token),
    }
    // A literal (an id, a date, a count) is a value wherever it stands.
    parsed[word.literal ? 'values' : part].push(word)
  }
  return parsed
}
