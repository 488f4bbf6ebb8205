/**
 * One reader of what people ask (docs/architecture.md "The pipeline and the rooms" `intent/`), for the router and the compiler alike:
 * a pipeline of small pure stages, each with its golden examples in `test/unit/intent/`.
 *
 * 1. normalise (`normalise.ts`): one spelling of quotes, dashes, spaces, Unicode forms;
 * 2. language (`language.ts`): English in Latin letters, or not readable (and why);
 * 3. values (`values.ts`): quoted text, file names, URLs, numbers, names... taken out by form;
 * 4. tokens (`tokens.ts`): tokens, lemmas, parts of speech from wink-nlp's English model;
 * 5. clauses (`clauses.ts`): which clauses ask, which give reasons;
 * 6. act (`act.ts`): the verb of the request and what it asks done;
 * 7. object (`object.ts`): the thing it acts on, and its head noun;
 * 8. site (`site.ts`): the site it names, among the names the caller knows.
 *
 * The compiler should call `readIntent(intent)` (no site names) where it parses verbs today
 * (`compiler/intentVerb.ts`, `intentWords.ts`, `intentValues.ts`): `act` for the verb's class,
 * `values` for typed values, `words` for the intent's words.
 */
import { actOfNoun, actOfPhrasal, actOfVerb, type Act } from './act'
import { splitClauses } from './clauses'
import { readability, type Readability } from './language'
import { normalise } from './normalise'
import { findObject } from './object'
import { findSites, siteKey, type SiteNames } from './site'
import { placeholder, tagTokens, type Token } from './tokens'
import { extractValues, type IntentValue } from './values'

export interface Intent {
  /** The text, normalised. */
  text: string
  readability: Readability
  /** Values by form, in the order found (`qvx<i>` in the tokens is value i). */
  values: IntentValue[]
  /** The tokens of the request's clauses. */
  tokens: Token[]
  /** The tokens of the clauses that give reasons or steps on the way (`log in and ...`). */
  context: Token[]
  act: Act | null
  /** Lemma of the request's verb (`trigger`), also when it says no act (`make`). */
  verb: string | null
  /** Lemma of the thing acted on, or null. */
  head: string | null
  /** Lemmas of the thing's phrase. */
  object: string[]
  /** Lemmas of the request's content words (nouns, verbs, adjectives, adverbs), sites left out. */
  words: string[]
  /** Site names said (as `siteKey` spells them). */
  sites: string[]
}

export interface ReadOptions {
  /** Names of the sites the caller knows (`siteKey` spelling); none by default. */
  siteNames?: SiteNames
}

/** Verbs that say a wish, not an act (`I [need] to rename`, `[let] me see`, `[help] me find`). */
const WISHES = new Set([
  'want',
  'need',
  'like',
  'love',
  'wish',
  'try',
  'let',
  'help',
  'please',
  'have',
  'would',
  'go',
  'able',
])

/** Acts done on the way to another (`log in and rename the file`). */
const ON_THE_WAY: ReadonlySet<Act | null> = new Set(['auth'])

const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM'])

/**
 * Reads `said` through the stages above. Pure but for the NLP model and tinyld, loaded on first
 * use. Never throws; an unreadable text still has its values and tokens.
 */
export function readIntent(said: string, options: ReadOptions = {}): Intent {
  const text = normalise(said)
  const names = options.siteNames ?? new Set<string>()
  const extracted = extractValues(text, (i) => ` ${placeholder(i)} `)
  const tokens = tagTokens(extracted.text.replace(/\s+/g, ' ').trim())
  // A name found by form that is a site's name says the site, not a value (`on DokuWiki`).
  const siteValues = new Set(
    extracted.values.flatMap((v, i) =>
      v.kind === 'name' && names.has(siteKey(v.text)) ? [i] : [],
    ),
  )
  const clauses = splitClauses(tokens)
  const acted = clauses.map((c) => ({ clause: c, ...findAct(c.tokens) }))
  const asking = acted.filter((a) => a.clause.role === 'request')
  const pool = asking.length ? asking : acted
  // The request: the first clause that asks a work act, else the first with an act.
  const chosen =
    pool.find((a) => a.act !== null && !ON_THE_WAY.has(a.act)) ??
    pool.find((a) => a.act !== null) ??
    pool[0]
  const request = chosen?.clause.tokens ?? []
  const sites = findSites(tokens, names)
  for (const i of siteValues) sites.sites.push(siteKey(extracted.values[i]!.text))
  const verbAt = chosen?.at ?? -1
  const object = findObject(request, verbAt, sites.tokens)
  const words = request
    .filter(
      (t, i) => CONTENT.has(t.pos) && t.value === undefined && !sites.tokens.has(t) && i !== verbAt,
    )
    .map((t) => t.lemma)
  return {
    text,
    readability: readability(text),
    values: extracted.values.filter((_, i) => !siteValues.has(i)),
    tokens: request,
    context: acted.filter((a) => a !== chosen).flatMap((a) => a.clause.tokens),
    act: chosen?.act ?? null,
    verb: chosen?.verb ?? null,
    head: object.head,
    object: object.words,
    words,
    sites: [...new Set(sites.sites)],
  }
}

/** Words that may stand before an imperative's verb (`please just [rename]`, `now [open]`). */
const BEFORE_VERB = new Set([
  'please',
  'just',
  'kindly',
  'now',
  'then',
  'so',
  'and',
  'also',
  'quickly',
])

/** Words that open a question about things (`which pages...`, `what's in...`). */
const QUESTION = /^(what|which|who|where|how|whose|is|are|does|do|did|any|can|could)$/

/**
 * True when the verb at `i` of `tokens` is the request's, not a statement's (`the printer
 * [moved]`): nothing but courtesy before it, or a wish (`I need to [rename]`, `can you [open]`,
 * `let me [see]`).
 */
function asksAt(tokens: readonly Token[], i: number): boolean {
  const before = tokens.slice(0, i)
  if (before.every((t) => BEFORE_VERB.has(t.lower) || ['PUNCT', 'INTJ', 'ADV'].includes(t.pos)))
    return true
  const prev = tokens[i - 1]!
  if (prev.lower === 'to' || prev.lower === 'me' || prev.lower === 'us') return true
  return prev.lower === 'you' && /^(can|could|would|will|please)$/.test(tokens[i - 2]?.lower ?? '')
}

/**
 * The act of one clause: its first verb asked (`asksAt`) that says no wish (`I need to
 * [rename]`), with its particle (`log in`); else its first word when it is an act's verb tagged
 * otherwise (`list open issues`); else a noun that names an act (`Verdaccio [login]`); else
 * `new` before a thing (`a new page`: create); else a question (`which pages...`: a read). `at`
 * is the verb's index, -1 without one.
 */
function findAct(tokens: readonly Token[]): { act: Act | null; verb: string | null; at: number } {
  const question = QUESTION.test(tokens[0]?.lower ?? '')
  for (let i = 0; i < tokens.length && !question; i++) {
    const t = tokens[i]!
    if (t.pos !== 'VERB' || t.value !== undefined || !asksAt(tokens, i)) continue
    if (WISHES.has(t.lemma) && tokens.slice(i + 1, i + 4).some((n) => n.pos === 'VERB')) continue
    const particle = tokens[i + 1]
    const phrasal = particle ? actOfPhrasal(t.lemma, particle.lower) : null
    return { act: phrasal ?? actOfVerb(t.lemma), verb: t.lemma, at: i }
  }
  // Tagged as a noun at the start (`list open issues`, `search DokuWiki`): a verb all the same.
  const first = tokens[0]
  if (first && first.value === undefined && !question) {
    const particle = tokens[1]
    const phrasal = particle ? actOfPhrasal(first.lemma, particle.lower) : null
    const act = phrasal ?? actOfVerb(first.lower)
    if (act && first.pos !== 'DET' && first.pos !== 'PRON') return { act, verb: first.lower, at: 0 }
  }
  for (let i = 0; i < tokens.length; i++) {
    const act = actOfNoun(tokens[i]!.lemma)
    if (act) return { act, verb: null, at: -1 }
  }
  if (tokens.some((t, i) => t.lower === 'new' && tokens[i + 1]?.pos === 'NOUN'))
    return { act: 'create', verb: null, at: -1 }
  if (question) return { act: 'read', verb: null, at: 0 }
  return { act: null, verb: null, at: -1 }
}
