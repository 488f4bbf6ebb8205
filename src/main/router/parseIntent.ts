import {
  ACTION_ALIASES,
  GENERIC_VERBS,
  isSiteKind,
  READ_CLASSES,
  verbClassOf,
  type VerbClass,
} from './lexicon'
import { plainRequest } from './idioms'
import { actClassOf, isActPhrase, MAKES_WHEN_NEW, sameAct } from './meaning/actions'
import { verbLemma } from './meaning/lemma'
import {
  isModifier,
  isMostlyNoun,
  isMostlyVerb,
  isPhrasalVerb,
  isWord,
  verbClassByMeaning,
} from './meaning/related'
import { GENERIC_STEMS, isPlural, STOP_WORDS, stem, words } from './text'
import { spokenAsWritten } from './spoken'
import { extractValues, type ValueKind } from '../intent/values'

/**
 * One word of an intent: its surface form, its stem, and whether it names nothing in particular
 * (`GENERIC_STEMS`) or is a literal value (it carries a digit).
 */
export interface IntentWord {
  word: string
  stem: string
  generic: boolean
  literal: boolean
  /** It names the site of some tool (`Redmine`): the tool must be on that site. */
  siteName?: boolean
  /** It names an app no tool is on (`in Google Drive`, `otherApps.ts`): no tool was asked for. */
  otherApp?: boolean
  /**
   * A second record of the kind the first is, that the first is set in relation to (`mark issue
   * #4 as blocked by issue [#6]`): no slot of a tool that takes one record holds it.
   */
  related?: boolean
  /** What kind of value it is, when it was recognised by its form (`budget.xlsx`: `file`). */
  value?: ValueKind
  /**
   * An object's modifier or a question's predicate (`the [open] tickets`, `a [quick] search`,
   * `which packages does the registry [hold]`), by WordNet's sense counts (`isModifier`): the
   * router counts it as generic unless some tool says it (`verified` of `search verified tools`).
   */
  modifier?: boolean
  /** The noun right after `which` / `what` (`which [pages] have ...`): what a question is about. */
  asked?: boolean
  /**
   * The verb after a question's noun that says how those things stand to another (`which pages
   * [link] to X`, `depend on`, `point to`): a tool must say it; an output field of that name
   * (a result's `link`) is no such relation.
   */
  relation?: boolean
  /** The word that opened the value phrase it stands in (`with`, `for`, `as`...). */
  after?: string
  /** It stands right before `of` (`the [priority] of issue #2`): what is asked of the rest. */
  ofHead?: boolean
  /**
   * The sites whose tools say this word of where they work (`blog`: the WordPress), set by the
   * router: a tool of another site that only absorbs or lacks it was not asked for.
   */
  saidBySites?: string[]
  /**
   * Not said but implied by a shell command (`file` of `rm`): a guess at the object, which names
   * the head only of a tool that works on that very thing (`tw rm 'Test'` removes no file).
   */
  implied?: boolean
  /** Where the thing before it is shown (`the package [page]`): costs a tool little to lack. */
  shownOn?: boolean
  /** A place of one's own named by one noun (`to [my watchlist]`): no slot's value. */
  owned?: boolean
  /**
   * Of a modifier: what the tools that say it work on (`verified` of tools), set by the router;
   * it tells apart only tools of sites that hold one of them (`an [old] version` of a package).
   */
  saidOf?: string[]
  /** It says how much or which part of what follows `of` (`a [rundown] of the pages`). */
  partitive?: boolean
  /** Of a place: its number follows it (`from issue [#5]`): one record of what it names. */
  numbered?: boolean
  /**
   * Of a place: its name follows it (`in the category [Recipes]`): what holds the thing is of
   * that kind, which the tool must know, no value a slot takes.
   */
  named?: boolean
  /**
   * Of a numbered place: the sites whose tools work on what it names (`issue`: the tracker), set
   * by the router; a tool of another site was not asked for.
   */
  heldBySites?: string[]
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
  /**
   * The verb and its class; `alternatives`: other classes its meaning allows when it was classed
   * by meaning (`put` is `set`, an update, and `place`, a create): a tool of one of them is no
   * contradiction.
   */
  verb: { word: string; verbClass: VerbClass; alternatives?: VerbClass[] } | null
  /**
   * The verb's dictionary form (`renamed` → `rename`; a phrasal verb joined with `_`:
   * `kick_off`), to tell apart two verbs of one class (`rename` is not `edit`).
   */
  action: string | null
  /** The verb was classed by meaning (`LeadVerb.guessed`): its action must be the tool's own. */
  actionGuessed: boolean
  /** Values that stand as the verb's object (`rename [budget.xlsx]`), by kind. */
  objectKinds: ValueKind[]
  /**
   * What of a record a search is asked to look in: `name` (`pages named X`, `whose title starts
   * with`), `text` (`pages that mention X`, `search the contents`).
   */
  looksIn: Set<'name' | 'text'>
  /** It speaks of a second factor (`two-factor`, `2FA`, `the code from my authenticator`). */
  secondFactor: boolean
  /** It asks who did or does something (`who last edited the page X?`): a person is the answer. */
  asksWho?: boolean
  /** It asks one change of many things at once (`delete every page in archive:`, `rename all`). */
  bulk?: boolean
  core: IntentWord[]
  qualifiers: IntentWord[]
  values: IntentWord[]
  places: IntentWord[]
  sites: IntentWord[]
  quoted: number
}

type Part = 'core' | 'qualifiers' | 'values' | 'places' | 'sites'

/**
 * True when a change's object is all of a kind (`delete [every] page in archive:`, `rename
 * [all the] files`): a change of each one at once.
 */
function changesMany(intent: string, verb: NonNullable<ParsedIntent['verb']>): boolean {
  if (verb.verbClass !== 'update' && verb.verbClass !== 'delete') return false
  const word = verb.word.replace(/[^\w-]/g, '')
  return new RegExp(`\\b${word}\\s+(?:all|every|each)\\b`, 'i').test(intent)
}

/** Prepositions that say where things are or what they are about, after a noun. */
const PLACE_WORDS: ReadonlySet<string> = new Set([
  'in',
  'under',
  'about',
  'from',
  'on',
  'with',
  'inside',
  'within',
  'tagged',
  'filed',
])

/** The word that opens each kind of phrase; `of` and `and` continue the phrase they are in. */
const OPENERS: Record<string, Part> = {
  by: 'qualifiers',
  for: 'values',
  about: 'values',
  matching: 'values',
  match: 'values',
  matches: 'values',
  named: 'values',
  called: 'values',
  titled: 'values',
  entitled: 'values',
  saying: 'values',
  // `so it says ...`, `pages that mention ...`: what follows is the text, a value.
  says: 'values',
  say: 'values',
  mention: 'values',
  mentions: 'values',
  mentioning: 'values',
  contain: 'values',
  contains: 'values',
  containing: 'values',
  include: 'values',
  includes: 'values',
  including: 'values',
  discuss: 'values',
  discusses: 'values',
  discussing: 'values',
  like: 'values',
  with: 'values',
  using: 'values',
  via: 'values',
  whose: 'values',
  where: 'values',
  having: 'values',
  in: 'places',
  from: 'places',
  onto: 'places',
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
  as: 'values',
  on: 'sites',
  at: 'sites',
}

/** Leading filler before the verb (`please`, `I want to`, `help me`, `can you`). */
// `d`, `ll`, `m`... are what is left of contractions (`I'd like to`) once split into words.
const FILLER = new Set([
  ...STOP_WORDS,
  ...['to', 'like', 'try', 'go', 'quickly', 'now', 'd', 'll', 'm', 've', 're', 's'],
  // `I need every open bug`, `I want to see the pages`: a wish says nothing of the act.
  ...['need', 'needs', 'want', 'wants', 'wish'],
  // `hey, open the page`, `ok so list the files`: what a spoken request opens with.
  ...['hey', 'hi', 'hello', 'ok', 'okay', 'alright', 'um', 'uh', 'yo', 'so'],
])

/** Verbs that only lead to the page where the work happens (`go to the wiki and ...`). */
const NAVIGATION = new Set(['go', 'open', 'visit', 'navigate', 'head', 'browse', 'pull'])
/**
 * Phrasal verbs whose most frequent WordNet senses are not what people mean when they ask a tool
 * (`pull up` a page is to show it, not to stop a car); WordNet classes the others.
 */
const PHRASAL: Record<string, VerbClass> = {
  pull_up: 'read',
  // `look at version 3.2.0`: to see it, not to search.
  look_at: 'read',
  bring_up: 'read',
  look_through: 'search',
  go_through: 'search',
  dig_up: 'search',
  switch_off: 'update',
  turn_off: 'update',
  switch_on: 'update',
  turn_on: 'update',
}

/** A name written with its colon (`the [hr:] namespace`) after an article or a preposition. */
const NAME_WITH_COLON =
  /(\b(?:the|a|an|our|my|its|their|under|in|inside|within|into)\s+|'s\s+)([a-z0-9][\w.-]*):(?=\s|$|[?.!,])/gi

/** A step of signing in said after it (`and enter the one-time code from the app`). */
const SIGN_IN_STEP =
  /^(?:enter|type|provide|use|supply|input|give|add)\b.{0,40}\b(?:code|password|passcode|token|otp|pin|two-factor)\b/

/** What each shell command works on; its arguments are values. */
const SHELL_OBJECTS: Record<string, string> = {
  ls: 'folder',
  mkdir: 'folder',
  cat: 'file',
  rm: 'file',
  mv: 'file',
}
/** Verbs that only carry tense or possession here (`which nodes have ...`). */
const AUXILIARIES = new Set(['have', 'has', 'had', 'were', 'been', 'being', 'did', 'got'])
/** What is left of `'s`, `'d`, `n't`... once split into words. */
const CLITICS = new Set(['s', 'd', 'll', 'm', 've', 're', 't'])
/** Words after which a verb starts a clause (`log in and [rename] the file`). */
const JOINTS = new Set(['and', 'then', 'to', 'please'])
/** Words that open a question about a noun (`which pages`, `what packages`). */
const QUESTION_WORDS = new Set(['which', 'what'])
/** Words after which a verb's form is an adjective (`issues that are [still] [open]`). */
const PREDICATE_LEADS = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'still',
  'already',
  'not',
])
/** Words that open a verb's object (`trash [the] draft`). */
const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'my',
  'our',
  'this',
  'that',
  'all',
  'every',
  'some',
  'me',
  'it',
  'them',
  'these',
  'those',
])
/**
 * The word left where a value was taken out (`rename [budget.xlsx]`): no word of English, so
 * the parser sees that an object follows a verb without reading the value as a word.
 */
const VALUE_MARK = 'zzvaluezz'
// A number's mark ends in `n`, a file name's in `f`, any other's in `x`: `issue #4` reads
// `issue` as a noun, `a.pdf onto #2` puts a file there (`idioms.ts`).
const markOf = (index: number, kind: ValueKind) =>
  ` ${VALUE_MARK}${index}${kind === 'number' ? 'n' : kind === 'file' ? 'f' : 'x'} `
const isMark = (token: string | undefined) => token?.startsWith(VALUE_MARK) ?? false
const isNumberMark = (token: string | undefined) => isMark(token) && token!.endsWith('n')
const markIndex = (token: string) => Number(token.slice(VALUE_MARK.length, -1))

/** Words that open an object not named yet (`file [a] bug`, `add [another] page`). */
const INDEFINITE = new Set(['a', 'an', 'new', 'another', 'some'])

/** What opens a gerund's object (`by clicking [its] button`, `by giving [it] a tag`). */
const GERUND_OBJECTS = new Set([
  'the',
  'a',
  'an',
  'its',
  'their',
  'it',
  'them',
  'my',
  'our',
  'this',
  'that',
  'his',
  'her',
])

/** Articles: what follows one is a noun phrase, no verb. */
const ARTICLES = new Set(['the', 'a', 'an'])

/** Words that own a noun (`in their [label]`): what follows is no verb. */
const POSSESSIVES = new Set(['their', 'its', 'your', 'his', 'her', 'my', 'our', 'whose'])

/** Where the words before a verb found later end (`in the tracker, can you | write a reply`). */
const BOUNDARY = 'zzboundaryzz'

/** Nouns that name a search (`refine the [search]`). */
const SEARCH_NOUNS = new Set(['search', 'searches', 'query', 'queries', 'lookup'])

/** Words that open what is said about a search's object (`tickets [about] X`). */
const CLAUSE_AFTER_OBJECT = new Set([
  ...['about', 'that', 'which', 'whose', 'where', 'with', 'mentioning', 'containing', 'matching'],
  ...['named', 'called', 'titled', 'tagged', 'on', 'in'],
])

/** What a container holds, said of it (`the [contents] of data/raw`). */
const CONTENTS = new Set(['contents', 'content', 'listing'])
/** Shell commands whose argument is a new thing's name (`mkdir [archive]`). */
const NAMES_NEW = new Set(['mkdir', 'touch'])
/** What follows a verb of how things stand to another (`link [to]`, `depend [on]`). */
const RELATION_PARTICLES = new Set(['to', 'on', 'upon'])
/** Particles that are no preposition (`zip [up] the folder`; `in`, `on` begin a place). */
const ADVERB_PARTICLES = new Set(['up', 'off', 'out', 'down', 'away', 'over', 'back'])
/** Particles that make a phrasal verb with the word before them. */
const PARTICLES = new Set(['up', 'off', 'out', 'down', 'in', 'on', 'over', 'away', 'back', 'at'])

/**
 * Splits an intent into verb, object, qualifiers, values, places and sites (see `ParsedIntent`).
 * Values written in their own form (quoted text, file names, URLs, identifiers, numbers, dates:
 * `values.ts`) are taken out first, so `rename budget.xlsx` asks to rename, with a value.
 *
 * The verb is the first verb before any other content word: a table verb (`log in`, `sign in` are
 * `auth`, `sign up` is `create`, `look up` / `look for` search), else a phrasal verb or a verb
 * WordNet knows, classed by meaning (`kick off` → `start`, `erase` → `delete`); without one, the
 * first table verb that is not a participle (`orders placed` is not a request to place one)
 * anywhere in the intent. `log out` / `sign out` are `logout`. A sign-in or a navigation step
 * before the work (`log in and rename the file`, `go to the wiki and create a page`) is not the
 * intent's verb: the verb after `and` / `then` is.
 *
 * The stages run in this order on one {@link IntentReading}, then on the parse they build.
 */
export function parseIntent(said: string): ParsedIntent {
  const st = readingOf(said)
  const { lead, leadName } = readLead(st)
  takeVerb(st, lead, leadName)
  readRenaming(st)
  readMaking(st)
  readPlacing(st)
  const objectKinds = readShell(st)
  // `which pages talk about X`: a question about what records say is a search.
  const asksIn = looksIn(st.tokens)
  readQuestionVerb(st, asksIn)
  const { intent, verb } = st
  const parsed: ParsedIntent = {
    verb,
    action: st.action,
    actionGuessed: st.guessed,
    objectKinds,
    looksIn: asksIn,
    secondFactor: SECOND_FACTOR.test(intent),
    ...(/^\W*who\b/i.test(intent) ? { asksWho: true } : {}),
    ...(verb && changesMany(intent, verb) ? { bulk: true } : {}),
    core: [],
    qualifiers: [],
    values: [],
    places: [],
    sites: [],
    quoted: st.quoted,
  }
  const openedOf = walkTokens(st, parsed)
  readSought(st, parsed)
  // One signs in or out *to* a site: the place is the site (`log in to the flow editor`), and so
  // is the object of `sign into the flow editor`.
  if (st.verb?.verbClass === 'auth' || st.verb?.verbClass === 'logout') readSignInSites(st, parsed)
  else readRoles(st, parsed)
  addTrailingValues(st, parsed, openedOf)
  return parsed
}

/** What the stages of {@link parseIntent} read and set, in order. */
interface IntentReading {
  /** The intent with spoken forms written (`readme dot md` → `readme.md`). */
  intent: string
  /** Its text with each value replaced by its mark (`markOf`), idioms read; and the values. */
  extracted: ReturnType<typeof extractValues>
  /** How many quoted values it has. */
  quoted: number
  /** The words of the request (a clause after a colon first). */
  tokens: string[]
  /** The words after a colon that are a value, not a clause. */
  afterColon: string[]
  /** Those words are one capitalised name. */
  afterColonNamed: boolean
  /** The tokens start with the clause after a colon. */
  clauseFirst: boolean
  /** Where the request starts in `tokens` (filler and leading names skipped). */
  start: number
  verb: ParsedIntent['verb']
  /** The verb is a word nobody taught the router. */
  guessed: boolean
  action: string | null
  /** The words after the verb, to be placed in the parse's parts. */
  rest: string[]
  /** The object a shell command implies (`folder` of `mkdir`). */
  shell: string | undefined
  /** A shell command's arguments: values. */
  shellArgs: string[]
}

/**
 * Reads the said text: spoken forms written, values taken out as marks, idioms read; then the
 * tokens, with a colon's two sides ordered (a clause after it first, else what follows it kept
 * as values). Returns the reading before any verb is read.
 */
function readingOf(said: string): IntentReading {
  // (`readme dot md`, `issue four`: as people type them.)
  const intent = spokenAsWritten(said)
  // (`brand-new` before values, which would take it for an identifier; `the hr: namespace`,
  // `filed under team:`: a name with its colon after an article or a preposition is a value, no
  // label.)
  const marked = extractValues(
    intent
      .replace(/\bbrand[- ]new\b/gi, 'new')
      // (A capitalised name before a colon is a site's label: `In DokuWiki: create a page`.)
      .replace(NAME_WITH_COLON, (whole: string, lead: string, name: string) =>
        /[A-Z]/.test(name) ? whole : `${lead}"${name}:"`,
      ),
    markOf,
  )
  // `scratch.py should be called utils.py`: an idiom read as the request it stands for.
  const extracted = { ...marked, text: plainRequest(marked.text) }
  const quoted = extracted.values.filter((v) => v.kind === 'quoted').length
  const st: IntentReading = {
    intent,
    extracted,
    quoted,
    tokens: words(extracted.text),
    afterColon: [],
    afterColonNamed: false,
    clauseFirst: false,
    start: 0,
    verb: null,
    guessed: false,
    action: null,
    rest: [],
    shell: undefined,
    shellArgs: [],
  }
  readColon(st)
  return st
}

/**
 * `Redmine search: login`, `new tiddler: Weekend Plans`: after a colon comes the value, unless
 * a clause starts there (`DokuWiki: create a page`). Reads `extracted.text`; sets `tokens`
 * (the clause first), or `tokens` to the left side and `afterColon` (and `afterColonNamed`).
 */
function readColon(st: IntentReading): void {
  const { extracted } = st
  const colon = /:\s/.exec(extracted.text)
  if (!colon) return
  const left = words(extracted.text.slice(0, colon.index))
  const right = words(extracted.text.slice(colon.index + 1))
  // After a colon a clause starts with its verb, even one that is a noun too (`export`); one
  // word after a verb is what it works on (`Redmine search: login`).
  const leftVerb = left.some((t) => verbClassOf(stem(t)) !== null)
  // (`Redmine search: login error`: after a search, what follows is what to look for.)
  const searchFirst = left.some((t) => verbClassOf(stem(t)) === 'search')
  // (`New tiddler: Book Ideas`, `blog draft: Water Butts`: after what is asked, a capitalised
  // run is the name, not a verb.)
  // (`mediawiki delete: Temp Notes`: a capitalised run after what is asked is one name.)
  const named =
    (leftVerb || left.includes('new')) && /^\s*[A-Z]/.test(extracted.text.slice(colon.index + 1))
  const lone = (right.filter((t) => !isMark(t)).length === 1 && leftVerb) || searchFirst || named
  // Values may come first (`Jupyter: scratch.py rename to utils.py`).
  const verbAt = skipFiller(
    right,
    Math.max(
      0,
      right.findIndex((t) => !isMark(t)),
    ),
  )
  // (`WordPress: posts in category X`: a plural is what is asked about, no verb.)
  // (`Jupyter: new folder 'data'`: a new thing asked for opens a clause as a verb does.)
  // (`Verdaccio: every package, private ones too`: so does a phrase of many, an object.)
  const firstWord = right.find((t) => !isMark(t)) ?? ''
  const opens =
    (!isPlural(right[verbAt] ?? '') && readVerb(right, verbAt, true) !== null) ||
    ['new', 'every', 'all', 'each'].includes(firstWord) ||
    // (`DokuWiki: text search for X`: a search named a word in.)
    right.slice(verbAt, verbAt + 3).some((t) => verbClassOf(stem(t)) === 'search')
  if (right.length && !lone && opens) {
    st.tokens = [...right, ...left]
    st.clauseFirst = true
  } else if (right.length) {
    st.tokens = left
    st.afterColon = right
    st.afterColonNamed = named && right.every((t) => !isMark(t))
  }
}

/**
 * Reads the leading verb of `tokens`: skips filler and a name before the verb, reads a shell
 * command's verb after its site's short name (`leadName`), and passes over a sign-in or a
 * navigation step to the work after `and`/`then`. Sets `start`; returns the verb, if any.
 */
function readLead(st: IntentReading): { lead: LeadVerb | null; leadName: string[] } {
  const { tokens, extracted, clauseFirst } = st
  let start = skipFiller(tokens, 0)
  // `DokuWiki subscribe to ...`: a name before the verb is where, not what is asked.
  // (Not after an article: `the DokuWiki [page]` names a page.)
  while (
    isMark(tokens[start]) &&
    tokens.length > start + 1 &&
    !isMark(tokens[start + 1]) &&
    !DETERMINERS.has(tokens[start - 1] ?? '')
  ) {
    const kind = extracted.values[markIndex(tokens[start]!)]?.kind
    if (kind !== 'name') break
    start = skipFiller(tokens, start + 1)
  }
  let lead = readVerb(tokens, start, clauseFirst)
  // `rm login admin`, `rm attach x.png to #3`: a shell command is followed by what it works on,
  // not by a verb; the short word first is then a name (a site's), the verb the one after it.
  let leadName: string[] = []
  // (`mkdir archive`: what a new folder is called may be any word, a verb too.)
  if (lead && SHELL_OBJECTS[lead.word] !== undefined && start === 0 && !NAMES_NEW.has(lead.word)) {
    const after = readVerb(tokens, start + 1)
    if (after && SHELL_OBJECTS[after.word] === undefined && !isPlural(tokens[start + 1]!)) {
      leadName = [tokens[start]!, BOUNDARY]
      start += 1
      lead = after
    }
  }
  // `log in and ...`, `go to the tracker, then ...`: the work is the next verb.
  while (lead && (lead.verbClass === 'auth' || NAVIGATION.has(lead.word))) {
    const joint = tokens.findIndex(
      (t, i) => i >= start + lead!.length && (t === 'and' || t === 'then'),
    )
    if (joint < 0) break
    const nextStart = skipFiller(tokens, joint + 1 + (tokens[joint + 1] === 'then' ? 1 : 0))
    const next = readVerb(tokens, nextStart)
    if (!next) break
    // (`log in as pat and enter the one-time code`: a step of the sign-in, not other work.)
    if (lead.verbClass === 'auth' && SIGN_IN_STEP.test(tokens.slice(nextStart).join(' '))) break
    start = nextStart
    lead = next
  }
  st.start = start
  return { lead, leadName }
}

/**
 * Sets `verb`, `guessed`, `action` and `rest` from the leading verb; without one, from a verb
 * after a joint, a table verb that is no participle, a leading `new`, or an unknown first word
 * before its object (a guessed `write`). `rest` is what follows the verb (what stood before it
 * kept as a phrase of its own), or the tokens from `start` when no verb is found.
 */
function takeVerb(st: IntentReading, lead: LeadVerb | null, leadName: string[]): void {
  const { tokens, start } = st
  if (lead) {
    st.verb = withAlternatives(lead)
    st.guessed = lead.guessed === true
    st.action = lead.action
    st.rest = [...leadName, ...tokens.slice(start + lead.length)]
    return
  }
  // No verb leads (`go to the tracker and file a bug`, `the wiki: create a page`): a verb
  // right after `and`/`then`/`to`, else a table verb that is not a participle.
  let at = -1
  let found: LeadVerb | null = null
  for (let i = start + 1; i < tokens.length && !found; i++)
    // A verb after `to` is a base form (`to [changes]` is a noun).
    if (JOINTS.has(tokens[i - 1]!) && verbLemma(tokens[i]!) === tokens[i]) {
      found = readVerb(tokens, i)
      if (found) at = i
    }
  if (!found) {
    // Not a participle (`orders placed`, `pages starting with`), a plural (`blog posts`), a
    // noun after its determiner (`the post`) or an adjective after a copula (`still open`).
    at = tokens.findIndex(
      (t, i) =>
        i >= start &&
        !t.endsWith('ed') &&
        !t.endsWith('ing') &&
        !PREDICATE_LEADS.has(tokens[i - 1] ?? '') &&
        !isPlural(t) &&
        !DETERMINERS.has(tokens[i - 1] ?? '') &&
        !POSSESSIVES.has(tokens[i - 1] ?? '') &&
        // `pages under [archive]`: a noun after a preposition; `a blog [post]`: a compound
        // (`a text [search]` is still a search).
        OPENERS[tokens[i - 1] ?? ''] === undefined &&
        !(
          i > start &&
          isWord(tokens[i - 1]!, 'noun') &&
          isWord(t, 'noun') &&
          !isMark(tokens[i - 1]) &&
          !READ_CLASSES.includes(verbClassOf(stem(t))!)
        ) &&
        (verbClassOf(stem(t)) !== null || (verbLemma(t) === t && actClassOf(t) !== null)),
    )
    if (at >= 0) found = readVerb(tokens, at)
  }
  // `new page Picnic Plan`, `DokuWiki new page`: a leading `new` asks to create one.
  if (!found) {
    const at2 = tokens.indexOf('new', start)
    if (at2 >= 0 && at2 <= start + 1) {
      found = { word: 'new', verbClass: 'create', action: 'create', length: 1 }
      at = at2
    }
  }
  // `unpublish the package`: a word no dictionary has, first and before its object, is a verb
  // nobody taught the router: an act of unknown kind, which no read serves.
  const first = tokens[start]
  const next = tokens[start + 1]
  if (
    !found &&
    first !== undefined &&
    /^[a-z]{3,}$/.test(first) &&
    (DETERMINERS.has(next ?? '') || isMark(next) || undoes(first)) &&
    !isWord(first, 'noun') &&
    !isWord(first, 'verb') &&
    !isModifier(first)
  ) {
    found = { word: first, verbClass: 'write', action: first, length: 1, guessed: true }
    at = start
  }
  if (found) {
    st.verb = withAlternatives(found)
    st.guessed = found.guessed === true
    st.action = found.action
    // What stood before the verb is a phrase of its own (`in the tracker, can you [write] a
    // reply`): its opener does not reach past the verb.
    st.rest = [...tokens.slice(start, at), BOUNDARY, ...tokens.slice(at + found.length)]
  } else st.rest = tokens.slice(start)
}

/**
 * `give X a new name`, `change the name of X`: to rename X (the name is no object). Reads
 * `verb`, `action`, `rest`; sets the verb to an update, `action` to `rename`, and takes the
 * name (and its `new`) out of `rest`.
 */
function readRenaming(st: IntentReading): void {
  const { verb, action, rest } = st
  const naming = rest.findIndex((t) => t === 'name' || t === 'title')
  const renames =
    naming >= 0 &&
    ((verb?.word === 'give' && rest[naming - 1] === 'new') ||
      (verb?.verbClass === 'update' &&
        action !== null &&
        GENERIC_VERBS.has(action) &&
        // (`change the [file] name of X`: the name of a record of some kind.)
        rest
          .slice(0, naming)
          .every(
            (t) => STOP_WORDS.has(t) || NAMED_RECORDS.has(stem(t)) || FILE_NOUNS.has(stem(t)),
          )))
  if (renames) {
    st.verb = { word: verb!.word, verbClass: 'update' }
    st.action = 'rename'
    st.rest = rest.filter((t, i) => i !== naming && !(i === naming - 1 && t === 'new'))
  }
}

/**
 * A new thing asked for is made; a record given a new value is set to it. Reads `verb`, `rest`,
 * `extracted`; sets `verb`, `action` and `guessed` (to a create of `new`, a `set` update, or a
 * create of a verb that makes what it names when it is new).
 */
function readMaking(st: IntentReading): void {
  const { rest, extracted } = st
  let { verb } = st
  // `set up a new folder`, `open a new ticket`: an object that does not exist yet is made,
  // whatever the verb says elsewhere (`open the page`, `start the flow`).
  // A read asks to make one only with an article (`open a new ticket`; `show new posts` reads).
  // Some verbs make what they name when it is not named yet (`file a bug`, `open a ticket`).
  const made =
    (rest[0] === 'new' && verb?.verbClass !== 'read') ||
    (rest[1] === 'new' && (rest[0] === 'a' || rest[0] === 'an')) ||
    (verb !== null && makesWhenNew(verb.word, rest))
  // `I need a new page called X`: with no verb, a new thing asked for is to be made.
  const madeNew =
    NEW_WORDS.has(rest[0] ?? '') ||
    ((rest[0] === 'a' || rest[0] === 'an') && NEW_WORDS.has(rest[1] ?? ''))
  if (!verb && madeNew) {
    st.verb = verb = { word: 'new', verbClass: 'create' }
    st.action = 'create'
  }
  // `#11 to Rejected`, `#3 → In Progress`: a record given a new value is set to it.
  // (`redmine #3 -> in progress`: a word no dictionary has before it is no verb then.)
  // (`move ticket 6 to Feedback`, `move issue #2 in the tracker to 'In Progress'`: moved to a
  // value, not into a place.)
  const moves = verb?.word === 'move' && !/\b(?:trash|bin|recycle)\b/.test(extracted.text)
  if ((!verb || st.guessed || moves) && setsTo(extracted, moves ? 4 : 0)) {
    st.verb = verb = { word: 'set', verbClass: 'update' }
    st.action = 'set'
    st.guessed = false
  }
  if (
    verb &&
    made &&
    (['read', 'run', 'write'].includes(verb.verbClass) ||
      makesWhenNew(verb.word, rest) ||
      // `put a new ticket into the tracker`, `send a new message`: placed, so made.
      PLACING.has(verbLemma(verb.word)))
  ) {
    st.verb = { word: verb.word, verbClass: 'create' }
    st.action = 'create'
    st.guessed = false
  }
}

/**
 * A file put somewhere is uploaded there; a thing put in the trash is deleted. Reads `verb`,
 * `rest`, `extracted`; sets `verb`, `action`, `guessed` and takes the trash out of `rest`.
 */
function readPlacing(st: IntentReading): void {
  const { extracted } = st
  let { verb, rest } = st
  // `put the file x.pdf onto the server`, `drop a picture into the media library`: a file put
  // somewhere is uploaded there.
  // (`push logo.svg to the media manager`; `copy x.xlsx from my laptop into the files`.)
  const fromOwnMachine =
    /\bfrom (?:my|our|the) (?:laptop|computer|machine|desktop|pc|device|disk|drive|phone)\b/i
  const lemma = verbLemma(verb?.word ?? '')
  const placing =
    PLACING.has(lemma) ||
    lemma === 'push' ||
    (lemma === 'copy' && fromOwnMachine.test(extracted.text)) ||
    (['copy', 'move'].includes(lemma) && rest.includes('up'))
  if (verb && placing && placesFile(rest, extracted.values)) {
    verb = { word: verb.word, verbClass: 'create' }
    st.action = 'upload'
    st.guessed = false
  }
  // `move the post to the trash`, `throw it in the bin`: to delete it.
  const bin = rest.findIndex((t) => t === 'trash' || t === 'bin' || t === 'recycle')
  if (bin > 0 && verb && ['move', 'put', 'send', 'throw', 'drag', 'drop'].includes(verb.word)) {
    verb = { word: verb.word, verbClass: 'delete' }
    st.action = 'delete'
    // The trash is no place, but what follows it may be (`to the trash [on our blog]`).
    const before = rest.slice(0, bin).filter((t) => !['to', 'in', 'into', 'the'].includes(t))
    rest = [...before, ...rest.slice(bin + 1)]
  } else if (bin > 0 && verb?.verbClass === 'delete')
    // `get rid of the post, put it in the bin`: where a deleted thing goes is no place.
    rest = rest.filter((t, i) => i !== bin && !(PLACING.has(t) && i < bin && i >= bin - 4))
  st.verb = verb
  st.rest = rest
}

/** A token that marks a file value. */
function isFileMark(st: IntentReading, token: string | undefined): boolean {
  return isMark(token) && st.extracted.values[markIndex(token!)]?.kind === 'file'
}

/**
 * Shell commands take their arguments as values and imply their object (`mkdir projects`):
 * sets `shell`, `shellArgs` and `rest`. Returns the kinds of the values that stand first in the
 * object (`rename [budget.xlsx]`).
 */
function readShell(st: IntentReading): ValueKind[] {
  const { verb, tokens, start, extracted } = st
  // What stands before the command stays (`tw rm 'Test'`: the site it is typed to).
  const shell = verb ? SHELL_OBJECTS[verb.word] : undefined
  const shellAt = shell ? tokens.indexOf(verb!.word, start) : -1
  if (shell) st.rest = [...tokens.slice(start, shellAt), BOUNDARY, shell]
  st.shell = shell
  st.shellArgs = shell ? tokens.slice(shellAt + 1) : []
  // `rename [budget.xlsx]`, `delete the file [old.txt]`: values before any other word of the
  // object, after its determiners and generic nouns.
  const objectKinds: ValueKind[] = []
  const { rest } = st
  if (verb)
    for (const [i, token] of rest.entries()) {
      if (isMark(token)) {
        const kind = extracted.values[markIndex(token)]?.kind
        if (kind) objectKinds.push(kind)
      } else if (
        !DETERMINERS.has(token) &&
        !GENERIC_STEMS.has(stem(token)) &&
        // (`delete the [image] plot.png`: what the file is, said before it.)
        !isFileMark(st, rest[i + 1])
      )
        break
    }
  return objectKinds
}

/**
 * Without a verb, a question or a named sign-in says the act: `is there anything about X`,
 * `any posts about X`, `where's X` (a search), `blog login` (a sign-in), `which pages mention X`
 * (a search, when `asksIn` has text). Reads `tokens`, `start`; sets `verb`.
 */
function readQuestionVerb(st: IntentReading, asksIn: Set<'name' | 'text'>): void {
  const { tokens, start } = st
  // `is there anything in the tracker about X?`, `are there any packages with Y`: to find them.
  const there = tokens.findIndex(
    (t, i) => (t === 'is' || t === 'are') && tokens[i + 1] === 'there' && i <= start + 1,
  )
  // (`is there [already] a ticket about X`, `is there a node with X in its name`.)
  const thereAt = ['already', 'still', 'ever', 'even'].includes(tokens[there + 2] ?? '')
    ? there + 3
    : there + 2
  if (
    !st.verb &&
    there >= 0 &&
    ['any', 'anything', 'some', 'something', 'a', 'an'].includes(tokens[thereAt] ?? '')
  )
    st.verb = { word: 'find', verbClass: 'search' }
  // `Any posts on the blog about compost?`, `anything about X?`: the same question, shorter.
  if (!st.verb && ['any', 'anything'].includes(tokens[0] ?? '') && tokens.includes('about'))
    st.verb = { word: 'find', verbClass: 'search' }
  // `Redmine 2FA sign-in`, `blog login`: a sign-in named is a sign-in asked.
  if (!st.verb && tokens.some((t, i) => SIGN_IN_NOUN.test(`${t} ${tokens[i + 1] ?? ''}`)))
    st.verb = { word: 'log', verbClass: 'auth' }
  // `where's the 'parse csv' node?`: to find it.
  if (!st.verb && tokens[start] === 'where') st.verb = { word: 'find', verbClass: 'search' }
  const q = tokens.findIndex((t) => QUESTION_WORDS.has(t))
  const many = (t: string) => t !== 'does' && t !== 'is' && isPlural(t) && isWord(t, 'noun')
  if (!st.verb && asksIn.has('text') && q >= 0 && tokens.slice(q + 1, q + 4).some(many))
    st.verb = { word: 'search', verbClass: 'search' }
}

/** Where the walk over `rest` is: the part words go to, and what opened it. */
interface TokenWalk {
  part: Part
  /** The opener of the current part (`with` for `using` and `via`). */
  opened: string | undefined
  /** The opener of each value mark met in a values part, by the value's index. */
  openedOf: Map<number, string>
  /** After `a photo of`: what a file shows, no word of any tool. */
  describing: boolean
  /** Tokens still to skip (a verb said again, a name taken whole). */
  skip: number
  /** The index in `rest` of the noun a question asks about, or -1. */
  asked: number
}

/**
 * Walks `rest` and places each word in the parse's parts (core, qualifiers, values, places,
 * sites), as its opener says; marks on the words what the stages below find. Reads the reading;
 * fills `parsed`'s parts. Returns the opener of each value by its index in `extracted.values`.
 */
function walkTokens(st: IntentReading, parsed: ParsedIntent): Map<number, string> {
  const { tokens, rest } = st
  // `which [packages] does the registry hold?`: the noun a question asks about is its head.
  // The noun is the first plural of the words after `which` (`which feature [issues] are`),
  // else the last of them (`which [package] has`).
  const question = tokens.findIndex((t) => QUESTION_WORDS.has(t))
  const run: string[] = []
  for (const t of question >= 0 ? tokens.slice(question + 1) : []) {
    if (isMark(t)) continue
    if (FILLER.has(t) || AUXILIARIES.has(t) || OPENERS[t] || run.length === 3) break
    run.push(t)
  }
  const walk: TokenWalk = {
    part: 'core',
    opened: undefined,
    openedOf: new Map(),
    describing: false,
    skip: 0,
    asked: rest.indexOf(run.find(isPlural) ?? run.at(-1) ?? ''),
  }
  for (const [i, token] of rest.entries()) {
    if (walk.skip > 0) {
      walk.skip--
      continue
    }
    if (readsStructure(st, parsed, walk, i, token)) continue
    if (skipsWord(st, parsed, walk, i, token)) continue
    placeWord(st, parsed, walk, i, contentWord(st, parsed, walk, i, token))
  }
  return walk.openedOf
}

/**
 * The tokens that shape the walk and are no word: a verb said again, a phrase boundary, an
 * opener (sets `part`, `opened`), a value mark (its opener kept), `of` (marks the word before it
 * `ofHead` or `partitive`, or starts `describing`). True when `token` was one (or is skipped
 * while describing).
 */
function readsStructure(
  st: IntentReading,
  parsed: ParsedIntent,
  walk: TokenWalk,
  i: number,
  token: string,
): boolean {
  const { verb, action, rest } = st
  // `grey out and [switch off] the tab`: a second verb of the same act says it again.
  if (verb && rest[i - 1] === 'and' && walk.part === 'core') {
    const again = readVerb(rest, i)
    if (again && again.verbClass === verb.verbClass && sameAct(again.action ?? '', action ?? '')) {
      walk.skip = again.length - 1
      return true
    }
  }
  if (token === BOUNDARY) {
    walk.describing = false
    walk.part = 'core'
    walk.opened = undefined
    return true
  }
  const opener = OPENERS[token]
  if (opener) {
    walk.describing = false
    walk.part = opener
    // `posts on courgettes`: what a search's records are on is their topic, when it is a plain
    // plural (`on the blog`, `on DokuWiki`, `on the wiki` stay the site).
    if (token === 'on' && verb?.verbClass === 'search' && topicAfter(rest[i + 1]))
      walk.part = 'values'
    walk.opened = token === 'using' || token === 'via' ? 'with' : token
    return true
  }
  // A value stood here: it is among the values already (`extracted`); what opened it is
  // kept (`including [the team-only] ones`).
  if (isMark(token)) {
    if (walk.part === 'values' && walk.opened) walk.openedOf.set(markIndex(token), walk.opened)
    return true
  }
  // `the [priority] of issue #2`: the noun before `of` is what is asked of the one after it.
  if (token === 'of') {
    const before = parsed[walk.part].at(-1)
    // `a photo [of the marrows]`: what a file shows is no word of any tool. (`the files of
    // [folder] X` are what a place holds.)
    const next = rest.slice(i + 1).find((t) => !ARTICLES.has(t) && !POSSESSIVES.has(t))
    const ofPlace = next !== undefined && HOLDERS.has(stem(next))
    if (before && rest[i - 1] === before.word && FILE_NOUNS.has(before.stem) && !ofPlace) {
      walk.describing = true
      return true
    }
    // (`change [the type] of the tiddler`: a partitive is what is asked of a thing when a
    // change sets it; `make [a backup] of the wiki` makes the copy, not the wiki.)
    const asked =
      before !== undefined &&
      ((verb?.verbClass === 'update' &&
        (rest[i - 2] === 'the' || rest[i - 3] === 'the') &&
        ATTRIBUTES.has(before.stem)) ||
        (verb?.verbClass === 'create' && COPIES.has(before.stem)))
    if (before && rest[i - 1] === before.word && (asked || !PARTITIVES.has(before.stem)))
      before.ofHead = true
    // (`a [rundown] of all the pages`: how much of them, no name of them.)
    else if (before && rest[i - 1] === before.word) before.partitive = true
    return true
  }
  return walk.describing && walk.part === 'core' && !isMark(token)
}

/**
 * The words that say nothing a tool must say: a question's verb, stop words, pronouns, how an
 * id is said, manner adverbs, `back to`, a clause's predicate outside the object. A relation
 * asked outside the object (`[depend] on X`) goes to the core as a `relation`. True when
 * `token` was one of them.
 */
function skipsWord(
  st: IntentReading,
  parsed: ParsedIntent,
  walk: TokenWalk,
  i: number,
  token: string,
): boolean {
  const { rest, extracted } = st
  const { part, asked } = walk
  // `what packages do we [host]`: the verb of a question about what there is, no object.
  if (
    part === 'core' &&
    ['we', 'you', 'they', 'i'].includes(rest[i - 1] ?? '') &&
    ['do', 'does', 'did'].includes(rest[i - 2] ?? '') &&
    isWord(verbLemma(token), 'verb')
  )
    return true
  if (STOP_WORDS.has(token) || CLITICS.has(token) || AUXILIARIES.has(token)) return true
  if (PRONOUNS.has(token)) return true
  // `issue [number] 15`, `ticket [no.] 6`: part of how the id is said.
  if ((token === 'number' || token === 'no' || token === 'num') && isMark(rest[i + 1])) {
    const kind = extracted.values[markIndex(rest[i + 1]!)]?.kind
    if (kind === 'number') return true
  }
  // Manner adverbs (`manually`, `quickly`) say how, not what: no tool needs to say them.
  if (/..ly$/.test(token) && !isWord(token, 'noun') && !isWord(token, 'verb')) return true
  // (`flip bug #14 [back] to New`: to a state it had, no thing.)
  if (token === 'back' && rest[i + 1] === 'to') return true
  // `posts that [talk] about X` outside the object (`on the blog [talk] about X`): the verb
  // of a clause about what is sought says only that it is about X.
  if (part !== 'core' && predicate(rest, token)) return true
  // (`which packages in our registry [depend] on X`: a relation asked, outside the object.)
  // (`which pages on the wiki [link] to X`: after a plural asked, a base form is its verb, a
  // noun too or not.)
  if (
    part !== 'core' &&
    asked >= 0 &&
    relationAt(rest, i) &&
    (!isWord(token, 'noun') || isPlural(rest[asked] ?? ''))
  ) {
    parsed.core.push({
      word: token,
      stem: stem(token),
      generic: false,
      literal: false,
      relation: true,
    })
    return true
  }
  return false
}

/**
 * The word `rest[i]` as the part it stands in reads it: generic, implied by a shell command,
 * literal, asked, a relation, a modifier, numbered or named as a place, owned, a file's kind or
 * where a thing is kept. Reads the reading, the walk and the core so far; returns a new word.
 */
function contentWord(
  st: IntentReading,
  parsed: ParsedIntent,
  walk: TokenWalk,
  i: number,
  token: string,
): IntentWord {
  const { rest, shell } = st
  const { part, asked } = walk
  const s = stem(token)
  const word: IntentWord = {
    word: token,
    stem: s,
    generic: GENERIC_STEMS.has(s) || token === shell,
    ...(token === shell && part === 'core' ? { implied: true } : {}),
    literal: /\d/.test(token),
    ...(i === asked && part === 'core' ? { asked: true } : {}),
    // (`which pages [link] to X`: how the things asked stand to another, no field they show.)
    ...(i === asked + 1 && part === 'core' && relationAt(rest, i) ? { relation: true } : {}),
    ...(part === 'core' &&
    (isModifier(token) ||
      predicate(rest, token) ||
      participleAfterNoun(rest, i, parsed.core) ||
      (parsed.core.length > 0 && isMostlyVerb(token)))
      ? { modifier: true }
      : {}),
  }
  // `on our [private] registry`: how the site is, not what is asked.
  if ((part === 'sites' || part === 'places') && isModifier(token)) word.generic = true
  // `from [issue] #5`: a place named by its number is one record of some site.
  if (part === 'places' && isNumberMark(rest[i + 1])) word.numbered = true
  else if (part === 'places' && isMark(rest[i + 1]) && rest[i + 1]!.endsWith('x'))
    word.named = true
  // `by [clicking] its inject button`: a gerund taking an object after `by` says how it is
  // done, not by what (`by pricing` sorts by a thing).
  if (
    part === 'qualifiers' &&
    rest[i - 1] === 'by' &&
    token.endsWith('ing') &&
    verbLemma(token) !== token &&
    isWord(verbLemma(token), 'verb') &&
    GERUND_OBJECTS.has(rest[i + 1] ?? '')
  )
    word.generic = true
  // `the [scan] contract.pdf`, `the [mockup] home-v3.pdf`, `the [log] file error.log`: what a
  // file is, said before it.
  if (
    part === 'core' &&
    (isFileMark(st, rest[i + 1]) ||
      (FILE_NOUNS.has(stem(rest[i + 1] ?? '')) && isFileMark(st, rest[i + 2])))
  )
    word.generic = true
  // `add the page to [my watchlist]`: a place of one's own that something goes to, named by
  // one word, is a thing of the account, not a value some slot takes (where it comes from
  // may be anything: `from my machine`).
  // (`to my [MediaWiki] watchlist`: a site's name may stand between.)
  const own = isMark(rest[i - 1]) ? i - 1 : i
  if (
    part === 'places' &&
    ['my', 'our', 'your'].includes(rest[own - 1] ?? '') &&
    ['to', 'into', 'onto'].includes(rest[own - 2] ?? '') &&
    (rest[i + 1] === undefined || OPENERS[rest[i + 1]!] !== undefined) &&
    !isWord(token, 'verb')
  )
    word.owned = true
  // `posts [filed] under X`: where the object is kept, not what it is.
  if (part === 'core' && participleAfterNoun(rest, i, parsed.core)) word.generic = true
  return word
}

/**
 * Places `word` (from `rest[i]`) in the parse: not at all when it says where a search looks or
 * how a name is matched; as a record's name (a value, skipping its other words); else in the
 * current part (a literal among the values), marked `shownOn` after a thing a page shows and
 * with the opener of a value.
 */
function placeWord(
  st: IntentReading,
  parsed: ParsedIntent,
  walk: TokenWalk,
  i: number,
  word: IntentWord,
): void {
  const { verb, rest } = st
  const { part } = walk
  const token = word.word
  const s = word.stem
  // `search the [text] of the pages`: where a search looks (`looksIn`), no object.
  if (verb?.verbClass === 'search' && LOOKS_IN[token] === 'text' && part === 'core') return
  // (`title search, prefix 'Garden'`: how a name is matched, no object either.)
  if (token === 'prefix' || token === 'prefixes') return
  // `the namespace [archive]`, `the tiddler [weekend plans] to say X`: up to three words
  // right after a record's noun, ending the phrase, are its name, a value (as said aloud,
  // without capitals or quotes).
  const prevWord = parsed.core.at(-1)
  const named =
    // (Many records have no one name, `packages incl private`, unless they are searched for
    // by it: `find tiddlers holiday`.)
    part === 'core' &&
    prevWord !== undefined &&
    rest[i - 1] === prevWord.word &&
    (!isPlural(prevWord.word) || verb?.verbClass === 'search')
      ? nameAfterRecord(rest, i, prevWord.stem)
      : 0
  if (named > 0) {
    const name = rest.slice(i, i + named).join(' ')
    parsed.values.push({ ...word, word: name, stem: stem(name), literal: true, value: 'name' })
    walk.skip = named - 1
    return
  }
  // `the package [page]`: where a thing is shown, right after the thing, qualifies the thing,
  // which is the object (a wiki's page is its own: `the wiki page`).
  const before = parsed.core.at(-1)
  if (
    part === 'core' &&
    SHOWN_ON.has(s) &&
    before !== undefined &&
    rest[i - 1] === before.word &&
    !before.generic &&
    !PARTITIVES.has(before.stem) &&
    !isSiteKind(before.stem) &&
    // (`the doku page`: a name English does not have is a site's, and the page its own.)
    isWord(before.word, 'noun')
  ) {
    word.modifier = true
    // (`the package [page]` is mostly the package: a word a tool need hardly say.)
    word.shownOn = true
  }
  if (part === 'values' && walk.opened) word.after = walk.opened
  // A literal (an id, a date, a count) is a value wherever it stands.
  parsed[word.literal ? 'values' : part].push(word)
}

/**
 * After the walk: a search's first `for` word, a plural noun a clause about it follows, is what
 * it finds when it has no object of its own (moved from the values to the core); a change made
 * to a search (`refine the search`) may be a search (sets `verb` and `parsed.verb`).
 */
function readSought(st: IntentReading, parsed: ParsedIntent): void {
  const { rest } = st
  const verb = st.verb
  // `look for [tickets] about X`, `search for [pages] that mention X`: with no object of its own, a
  // search's first `for` word, a plural noun that a clause about it follows, is what it finds
  // (`search DokuWiki for [invoices]` looks for the word).
  const sought = parsed.values[0]
  const after = sought ? rest[rest.indexOf(sought.word) + 1] : undefined
  if (
    after !== undefined &&
    CLAUSE_AFTER_OBJECT.has(after) &&
    verb?.verbClass === 'search' &&
    sought &&
    !sought.literal &&
    !sought.generic &&
    isPlural(sought.word) &&
    isWord(sought.word, 'noun') &&
    parsed.core.every((w) => w.generic || w.literal)
  ) {
    parsed.values.shift()
    parsed.core.push(sought)
  }
  // `refine the search to X`, `narrow my search down`: a change made to a search is a search.
  // (`a job listing` is no list: only the nouns that name a search.)
  const searchNoun = parsed.core.some((w) => SEARCH_NOUNS.has(w.word))
  if (verb && searchNoun && !READ_CLASSES.includes(verb.verbClass) && verb.verbClass !== 'auth')
    if (!verb.alternatives?.includes('search'))
      parsed.verb = st.verb = { ...verb, alternatives: [...(verb.alternatives ?? []), 'search'] }
}

/**
 * For a sign-in or out: places and the object are the site; whose login (`as editor`, `user
 * manager`) and what every sign-in takes are no tool's words; how or where on the site is
 * generic; `with` a site (not a credential) is the site. Reads `tokens`; moves words of `parsed`.
 */
function readSignInSites(st: IntentReading, parsed: ParsedIntent): void {
  const { tokens } = st
  parsed.sites.push(...parsed.places.splice(0), ...parsed.core.splice(0))
  // `as editor`: who signs in, a stored login's name, no word of any tool.
  parsed.values = parsed.values.filter((w) => w.literal || w.after !== 'as')
  // (`sign on to redmine, user manager`, `with the team account`: whose login, as `as`.)
  const whose = new Set<string>()
  for (const [i, t] of tokens.entries()) {
    if (ACCOUNT_WORDS.has(t) && tokens[i + 1] && !STOP_WORDS.has(tokens[i + 1]!))
      whose.add(tokens[i + 1]!)
    if (t === 'account' && i > 0 && !STOP_WORDS.has(tokens[i - 1]!)) whose.add(tokens[i - 1]!)
  }
  const notWhose = (w: IntentWord) => w.literal || !whose.has(w.word)
  parsed.sites = parsed.sites.filter(notWhose)
  parsed.values = parsed.values.filter(notWhose)
  for (const w of parsed.sites) if (ACCOUNT_WORDS.has(w.word) && whose.size) w.generic = true
  // `with my username and password`: what every sign-in takes, naming none.
  for (const w of parsed.values) if (SIGN_IN_MEANS.has(w.stem)) w.generic = true
  // `the private registry's web UI`, `the back end of the blog`: how or where on the site.
  // (`log in with two-factor authentication`, `login 2fa code`: how one signs in, no place;
  // the second factor itself is weighed apart.)
  for (const w of parsed.sites)
    if (
      isModifier(w.word) ||
      SIGN_IN_PLACES.has(w.stem) ||
      SIGN_IN_MEANS.has(w.stem) ||
      // (`the editor is [asking] me to sign in`: what the site does, no place.)
      (/..ing$/.test(w.word) && isWord(verbLemma(w.word), 'verb'))
    )
      w.generic = true
  // `authenticate with [the npm registry]`: where one signs in, unless it is the credential
  // (`with my password`, `using the code from my authenticator`).
  // (`with the account ops`: a credential's name, no site.)
  // (`with the team wiki using my account`: a place before the credential is still one.)
  let credential = false
  const where = parsed.values.filter((w) => {
    if (w.after !== 'with') return false
    if (SIGN_IN_MEANS.has(w.stem)) credential = true
    // (`with the [stored] password`: how the credential is, no place.)
    const thing =
      isSiteKind(w.stem) ||
      (isWord(w.word, 'noun') && !/..ed$/.test(w.word) && !isModifier(w.word))
    return !credential && !w.literal && thing
  })
  parsed.values = parsed.values.filter((w) => !where.includes(w))
  parsed.sites.push(...where)
}

/**
 * `add Sam [as a watcher]`: what a thing is added as is part of the object (moved from the
 * values to the core), unless the act tags or sets (`tag X as [baking]`: a value). Reads
 * `action`.
 */
function readRoles(st: IntentReading, parsed: ParsedIntent): void {
  const { action } = st
  // `add Sam [as a watcher]`, `mockup.pdf onto #2 [as an attachment]`: what it is added as.
  // (`tag the tiddler X as [baking]`: what it is tagged or set as is a value.)
  const labels = action !== null && (sameAct(action, 'tag') || sameAct(action, 'set'))
  const roles = parsed.values.filter(
    (w) =>
      !labels &&
      !w.literal &&
      !w.generic &&
      w.after === 'as' &&
      isWord(w.word, 'noun') &&
      !isModifier(w.word) &&
      !/ed$/.test(w.word),
  )
  parsed.values = parsed.values.filter((w) => !roles.includes(w))
  parsed.core.push(...roles)
}

/**
 * Adds the values that stood apart: a name after a colon (one value), the other words after a
 * colon and a shell command's arguments; reads `contents of <path>` as a folder; then every
 * extracted value with the opener it stood after (`openedOf`). Fills `parsed.values`.
 */
function addTrailingValues(
  st: IntentReading,
  parsed: ParsedIntent,
  openedOf: ReadonlyMap<number, string>,
): void {
  const { rest, extracted, shellArgs } = st
  let { afterColon } = st
  if (st.afterColonNamed) {
    const name = afterColon.join(' ')
    parsed.values.push({
      word: name,
      stem: stem(name),
      generic: false,
      literal: true,
      value: 'name',
    })
    afterColon = []
  }
  for (const token of [...afterColon, ...shellArgs])
    if (!STOP_WORDS.has(token) && !CLITICS.has(token) && !isMark(token))
      parsed.values.push({
        word: token,
        stem: stem(token),
        generic: GENERIC_STEMS.has(stem(token)),
        literal: /\d/.test(token),
      })
  // `list the contents of data/raw`: what a path holds, a folder's, is the object.
  const contents = parsed.core.findIndex((w) => CONTENTS.has(w.word))
  const ofAt = rest.indexOf(parsed.core[contents]?.word ?? '')
  if (
    contents >= 0 &&
    rest[ofAt + 1] === 'of' &&
    isMark(rest[ofAt + 2]) &&
    extracted.values[markIndex(rest[ofAt + 2]!)]?.kind === 'path'
  )
    parsed.core[contents] = {
      word: 'folder',
      stem: stem('folder'),
      generic: true,
      literal: false,
      implied: true,
    }
  for (const [k, v] of extracted.values.entries()) {
    const joined = words(v.text).join('')
    const after = openedOf.get(k)
    parsed.values.push({
      word: v.text.toLowerCase(),
      stem: joined,
      generic: false,
      literal: true,
      value: v.kind,
      ...(after ? { after } : {}),
    })
  }
}

/**
 * True when `rest[i]` is a verb of how things stand to another, before its particle and a value
 * (`link [to] X`, `depend [on] X`): a base form WordNet has as a verb.
 */
function relationAt(rest: string[], i: number): boolean {
  const token = rest[i]!
  return (
    RELATION_PARTICLES.has(rest[i + 1] ?? '') &&
    isMark(rest[i + 2]) &&
    isWord(token, 'verb') &&
    verbLemma(token) === token
  )
}

/** True when `token`, right after `on`, is a topic: a plural noun or a gerund, no kind of site. */
function topicAfter(token: string | undefined): boolean {
  return (
    token !== undefined &&
    // (`posts on beekeeping`: a gerund names a topic too.)
    (isPlural(token) || /..ing$/.test(token)) &&
    isWord(token, 'noun') &&
    !isSiteKind(stem(token)) &&
    !GENERIC_STEMS.has(stem(token))
  )
}

/** The intent's verb from a lead verb, with the other classes its meaning allows. */
function withAlternatives(lead: LeadVerb): NonNullable<ParsedIntent['verb']> {
  const alternatives = lead.alternatives?.filter((c) => c !== lead.verbClass) ?? []
  return {
    word: lead.word,
    verbClass: lead.verbClass,
    ...(alternatives.length ? { alternatives } : {}),
  }
}

/**
 * True when `token` is the verb of a relative clause or question about the object (`which
 * tiddlers [talk] about Budget`, `pages that [read] like X`): a verb, no plural, right before
 * `about` or `like` (not `titled`, `with`: `a post titled X` is a post).
 */
function predicate(rest: string[], token: string): boolean {
  const at = rest.indexOf(token)
  const next = rest[at + 1]
  // (`every page [that talks] about X`: after a relative pronoun, its agreeing form too.)
  const relative = ['that', 'which', 'who'].includes(rest[at - 1] ?? '')
  return (
    next !== undefined &&
    (next === 'about' || next === 'like') &&
    (relative
      ? isWord(verbLemma(token), 'verb')
      : !isPlural(token) && isWord(token, 'verb') && verbLemma(token) === token)
  )
}

/**
 * True when `rest[i]` is a participle that says where the object before it is kept (`posts
 * [filed] under Recipes`, `pages [listed] in the index`): after an object word, before a phrase.
 */
function participleAfterNoun(rest: string[], i: number, core: IntentWord[]): boolean {
  const token = rest[i]!
  const next = rest[i + 1]
  return (
    core.length > 0 &&
    /..ed$/.test(token) &&
    next !== undefined &&
    OPENERS[next] !== undefined &&
    isWord(verbLemma(token), 'verb')
  )
}

/**
 * True when `verb` makes its object here (`MAKES_WHEN_NEW`): the object is not named yet (`file
 * [a] bug`); `open` makes only what trackers open (`open a ticket`; `open an older version`
 * reads one).
 */
function makesWhenNew(verb: string, rest: string[]): boolean {
  const lemma = verbLemma(verb)
  if (!MAKES_WHEN_NEW.has(lemma) || !INDEFINITE.has(rest[0] ?? '')) return false
  // `save a draft` makes one; `save a flow to the library` stores one that exists.
  if (lemma === 'save') return !rest.some((t) => t === 'to' || t === 'into' || t === 'in')
  if (lemma !== 'open') return true
  // The noun phrase's last word names what is opened (`a GitHub pull [request]`).
  const end = rest.findIndex((t, i) => i > 0 && (OPENERS[t] !== undefined || PLACE_WORDS.has(t)))
  const noun = rest
    .slice(1, end < 0 ? undefined : end)
    .filter((t) => !INDEFINITE.has(t) && !isMark(t))
    .at(-1)
  return rest[1] === 'new' || (noun !== undefined && OPENED.has(stem(noun)))
}

/** Nouns that say how much or which part of what follows `of` (`a [copy] of the flow`). */
const PARTITIVES = new Set(
  ['copy', 'list', 'set', 'number', 'kind', 'type', 'content', 'contents', 'rest', 'part', 'lot']
    .concat(['page', 'screen', 'view', 'backup'])
    .concat(['bunch', 'couple', 'group', 'detail', 'details', 'overview', 'summary', 'all'])
    .concat(['rundown', 'breakdown', 'listing'])
    .map(stem),
)

/** Partitives that are a thing's attribute when set (`change the [type] of the tiddler`). */
const ATTRIBUTES = new Set(['type', 'kind'].map(stem))
/** Partitives that are a new thing when made (`make a [backup] of the wiki`). */
const COPIES = new Set(['copy', 'backup'].map(stem))

/** Nouns of where a thing is shown (`the package [page]`). */
const SHOWN_ON = new Set(['page', 'screen', 'view', 'tab'].map(stem))

/** True when people name a record of this kind by words around its noun (`NAMED_RECORDS`). */
export function isNamedRecord(wordStem: string): boolean {
  return NAMED_RECORDS.has(wordStem)
}

/** Records people name right after their noun (`the folder invoices`, `the tag urgent`). */
const NAMED_RECORDS = new Set(
  ['folder', 'directory', 'namespace', 'flow', 'tab', 'project', 'tiddler', 'category', 'tag']
    .concat(['package', 'node', 'inject', 'label', 'tracker', 'page', 'note', 'post', 'article'])
    .map(stem),
)

/**
 * How many words from `rest[at]` name the record whose noun (`recordStem`) stands right before
 * them (`the folder [invoices]`, `my tiddler [weekend plans] to say`): one to three plain words
 * that end the phrase; 0 when they are not a name (`the package [page]`, `the page [names]`,
 * `the post [on] the blog`).
 */
function nameAfterRecord(rest: string[], at: number, recordStem: string): number {
  if (!NAMED_RECORDS.has(recordStem)) return 0
  for (let n = 1; n <= 3; n++) {
    const token = rest[at + n - 1]
    if (token === undefined || !isNamePart(token)) return 0
    const next = rest[at + n]
    if (next === undefined || OPENERS[next] !== undefined || next === BOUNDARY) return n
  }
  return 0
}

/** A word that may be part of a record's name (no mark, stop word, or word of what it is). */
function isNamePart(token: string): boolean {
  const s = stem(token)
  return (
    !isMark(token) &&
    /^[a-z][a-z'-]*$/.test(token) &&
    !STOP_WORDS.has(token) &&
    // (`the package [search]`, `the package [page]` are things, not names)
    !SEARCH_NOUNS.has(token) &&
    !SHOWN_ON.has(s) &&
    // (`page [names] matching X`: where a search looks.)
    LOOKS_IN[token] === undefined &&
    !PARTITIVES.has(s) &&
    !isSiteKind(s) &&
    !GENERIC_STEMS.has(s)
  )
}

/** A sign-in named as a thing (`sign in`, `login`, `log-in`), by a token and the next one. */
const SIGN_IN_NOUN = /^(?:(?:sign|log) (?:in|on)|login|signin|logon)\b/

/**
 * True when `extracted` gives a numbered record a new value by an arrow or `to` (`#11 to
 * Rejected`, `#3 → Resolved`): a number mark, up to `between` words, then `→`, `->`, `=>` or
 * `to`, then more (a value, when words may stand between: `move #4 to another project` moves it).
 */
function setsTo(
  extracted: { text: string; values: Array<{ kind: ValueKind; text: string }> },
  between = 0,
): boolean {
  const arrow = new RegExp(
    `${VALUE_MARK}(\\d+)[xn](?:\\s+[a-z]+){0,${between}}\\s*(?:→|->|=>|\\bto\\b)\\s*${between ? VALUE_MARK : '\\S'}`,
  ).exec(extracted.text)
  const value = arrow ? extracted.values[Number(arrow[1])] : undefined
  if (value?.kind !== 'number') return false
  // A record's number (`#2`, `ticket 6`), not one inside a name (`page Events 2025 to ...`).
  const before = extracted.text.slice(0, arrow!.index)
  return value.text.startsWith('#') || /(?:^|\s)[a-z]+\s*$/.test(before) || before.trim() === ''
}

/** What a thing not made yet is (`I'd like a [fresh] page`, `an [empty] folder`). */
const NEW_WORDS = new Set(['new', 'fresh', 'empty', 'blank'])

/** Pronouns that stand for what was named before (`show me all of [them]`): no object word. */
const PRONOUNS = new Set(['it', 'them', 'they', 'those', 'these', 'ones', 'its', 'their'])

/** What one signs in with that is no site (`with my [password]`). */
const CREDENTIALS = new Set(
  [
    ...['password', 'passphrase', 'account', 'credential', 'username', 'user', 'login', 'code'],
    ...['authenticator', 'app', 'phone', 'token', 'key', 'otp', 'totp', 'factor', 'two', 'admin'],
  ].map(stem),
)

/** Words of how one signs in that name no site (`with two-factor [authentication]`). */
const SIGN_IN_MEANS = new Set(
  [...CREDENTIALS, ...['authentication', 'verification', 'factor', 'two', 'step', 'code']]
    .concat(['sign', 'log', 'login', 'signin', 'logon', 'supply', 'supplying', 'enter'])
    .map(stem),
)

/** Parts of a site one signs in to that name no site (`the web UI`, `the admin area`). */
const SIGN_IN_PLACES = new Set(
  ['ui', 'interface', 'back', 'end', 'backend', 'admin', 'area', 'dashboard', 'portal', 'console']
    .concat(['website', 'site', 'page', 'web', 'account', 'session'])
    .map(stem),
)

/** Verbs that put a thing somewhere (`put`, `drop`): with a file and a place, an upload. */
const PLACING = new Set(['put', 'place', 'drop', 'stick', 'load', 'pop', 'store', 'save', 'send'])

/** What holds files and records (`the files of [folder] X`, `the attachments of [issue] #5`). */
const HOLDERS = new Set(
  ['folder', 'directory', 'namespace', 'issue', 'ticket', 'page', 'post', 'project'].map(stem),
)

/** Nouns of files people put on sites (`put the [photo] into the library`). */
const FILE_NOUNS = new Set(
  ['file', 'document', 'pdf', 'picture', 'image', 'photo', 'attachment', 'screenshot'].map(stem),
)

/**
 * True when `rest` (the words after the verb) puts a file (a file name among the values, or a
 * file noun before the place) into a place (`on`, `onto`, `into`, `in`, `to`).
 */
function placesFile(rest: string[], values: Array<{ kind: ValueKind }>): boolean {
  const place = rest.findIndex((t) => ['on', 'onto', 'into', 'in', 'to', 'up'].includes(t))
  if (place < 0) return false
  const before = rest.slice(0, place)
  return (
    before.some((t) => FILE_NOUNS.has(stem(t))) ||
    before.some((t) => isMark(t) && values[markIndex(t)]?.kind === 'file')
  )
}

/** Words of a second factor of a sign-in (RFC 6238's one-time codes, authenticator apps). */
export const SECOND_FACTOR =
  /\b(2fa|mfa|otp|totp|authenticator|two[- ]?factor|two[- ]?step|one[- ]?time|second factor|verification code|(?:6|six)[- ]digits?|security app|app on my phone|phone'?s? (?:security |auth )?app|code from my phone)\b/i

/** Words that say a search looks at records' names or at their text. */
const LOOKS_IN: Record<string, 'name' | 'text'> = {
  name: 'name',
  names: 'name',
  named: 'name',
  title: 'name',
  titles: 'name',
  titled: 'name',
  prefix: 'name',
  id: 'name',
  text: 'text',
  content: 'text',
  contents: 'text',
  mention: 'text',
  mentions: 'text',
  mentioning: 'text',
  talk: 'text',
  talks: 'text',
  discuss: 'text',
  discusses: 'text',
  say: 'text',
  says: 'text',
  contain: 'text',
  contains: 'text',
  anywhere: 'text',
  fulltext: 'text',
  body: 'text',
  wording: 'text',
}

/** Where an intent's tokens say a search looks (`LOOKS_IN`; `starting with` is a name's). */
export function looksIn(tokens: string[]): Set<'name' | 'text'> {
  const out = new Set<'name' | 'text'>()
  const denied = new Set<'name' | 'text'>()
  for (const [i, t] of tokens.entries()) {
    const field = LOOKS_IN[t]
    // `whose names contain X`: what contains it is the name, not the text.
    const ofName = field === 'text' && LOOKS_IN[tokens[i - 1] ?? ''] === 'name'
    // `not just in the title`, `not the text`: where it is not to look.
    const not = tokens.slice(Math.max(0, i - 4), i).includes('not')
    if (field && !ofName && not) denied.add(field)
    else if (field && !ofName) out.add(field)
    if (/^(start|begin)/.test(t) && tokens[i + 1] === 'with') out.add('name')
    if (t === 'full' && tokens[i + 1] === 'text') out.add('text')
  }
  // (Said both ways, what was denied goes: `in its writing, not just in the title`.)
  for (const field of denied) if (out.size > 1) out.delete(field)
  return out
}

/** Words a login's name follows in a sign-in (`user manager`, `account ada`). */
const ACCOUNT_WORDS = new Set(['user', 'username', 'account'])

/** What trackers and help desks open when they make one (`open a ticket`). */
const OPENED = new Set(['ticket', 'issue', 'bug', 'case', 'request', 'incident'].map(stem))

/** The first token from `from` on that is no filler (nor `first` before a verb: `first push X`). */
function skipFiller(tokens: string[], from: number): number {
  let i = from
  for (; i < tokens.length; i++) {
    const t = tokens[i]!
    const next = tokens[i + 1] ?? ''
    const firstStep =
      (t === 'first' || t === 'firstly') &&
      (verbClassOf(stem(next)) !== null || (isWord(next, 'verb') && !isMostlyNoun(next)))
    if (!FILLER.has(t) && !firstStep) break
  }
  return i
}

interface LeadVerb {
  word: string
  verbClass: VerbClass
  action: string
  /**
   * Its class was found by meaning (WordNet: `copy` → `write`, `export` → `move`), not in the
   * router's tables: the class is likely, the act itself is not known to be any tool's.
   */
  guessed?: boolean
  /** Other classes its meaning allows (`verbClassByMeaning`). */
  alternatives?: VerbClass[]
  /** Tokens the verb takes (2 for `log in`, `kick off`). */
  length: number
}

/**
 * The verb at `at`, if the token there is one: a table verb (with its particle: `log in`, `sign
 * up`, `look up`), else a phrasal verb WordNet knows (`kick off`, `get rid of`), else a word
 * WordNet knows as a verb whose meaning leads to a table verb. A word that WordNet knows only as
 * a noun is not a verb (`invoices`).
 */
function readVerb(tokens: string[], at: number, clause = false): LeadVerb | null {
  const lead = tokens[at]
  if (lead === undefined) return null
  const next = tokens[at + 1]
  const lemma = verbLemma(lead)
  // After a question word a noun is what is asked about (`which [posts] are`, `what does
  // [issue] #7 say`), not a request to post or to issue.
  const asked = [tokens[at - 1], tokens[at - 2]].some(
    (t) => t !== undefined && QUESTION_WORDS.has(t),
  )
  if (asked && (isWord(lead, 'noun') || isPlural(lead))) return null
  // `what does the [file] say`: a noun after its article is no verb.
  // (`wordpress new [draft] X`: nor after `new`.)
  if ((ARTICLES.has(tokens[at - 1] ?? '') || tokens[at - 1] === 'new') && isWord(lead, 'noun'))
    return null
  // `Redmine [issue] #4`, `[ticket] 12`: a word that is more often a noun names the record its
  // number follows (`show #4`, `post #4` are acts: more often verbs; `tag #4`, `view #4` ask
  // an act whatever their senses say).
  const leadClass = verbClassOf(stem(lead))
  if (isNumberMark(next) && isMostlyNoun(lead) && (leadClass === null || leadClass === 'create'))
    return null
  // `who [edited] the page`: a question about the past asks no act.
  const questioned = [tokens[at - 1], tokens[at - 2]].some(
    (t) => t !== undefined && (QUESTION_WORDS.has(t) || t === 'who' || t === 'when'),
  )
  if (questioned && lemma !== lead) return null
  // `posts in category X`, `issues about login`: a plural followed by where or what it is
  // about names things; an imperative is a base form (a described act, `renames a file`, takes
  // its object first).
  if (lemma !== lead && isPlural(lead) && isWord(lead, 'noun') && PLACE_WORDS.has(next ?? ''))
    return null
  // A phrasal verb WordNet knows means more than its first word (`get rid of` is no `get`).
  const table = verbClassOf(stem(lead))
  const tableParticle =
    (lead === 'log' || lead === 'sign' || lead === 'look') &&
    ['in', 'on', 'into', 'out', 'up'].includes(next ?? '')
  // Imperatives are base forms: `what's [written] in X` asks to read X, not to write in it.
  if (!tableParticle && (lemma === lead || table)) {
    const phrasal = readPhrasal(tokens, at, lemma)
    if (phrasal) return phrasal
  }
  if (table) {
    let verbClass: VerbClass = table
    let length = 1
    if ((lead === 'log' || lead === 'sign') && (next === 'in' || next === 'on' || next === 'into'))
      length = 2
    else if ((lead === 'log' || lead === 'sign') && next === 'out') {
      verbClass = 'logout'
      length = 2
    } else if (lead === 'sign' && next === 'up') {
      verbClass = 'create'
      length = 2
    } else if (lead === 'look' && next === 'up') length = 2
    // `log time`, `sign the form`: no sign-in without its particle.
    else if ((lead === 'log' || lead === 'sign') && verbClass === 'auth')
      return { word: lead, verbClass: 'write', action: lemma, length: 1, guessed: true }
    return { word: lead, verbClass, action: ACTION_ALIASES[lemma] ?? lemma, length }
  }
  // An act of web apps by one of its verbs (`fire`, `deactivate`, `bin`): its class, not
  // WordNet's; the tool must do that very act (`guessed`: `export` is no change of any kind).
  // As terse as a table verb (`tag tiddler X`, `transition issue 14`).
  const act = lemma === lead ? actClassOf(lemma) : null
  if (act && !asked) return { word: lead, verbClass: act, action: lemma, length: 1, guessed: true }
  // Imperatives are base forms (`issues assigned to me` is not `issue`), and a word that is a noun
  // too is a verb only before an object's determiner (`trash the draft`) or alone.
  if (lemma !== lead || !isWord(lead, 'verb')) return null
  // (`zip up the folder`: a particle may stand between.)
  const after = next !== undefined && ADVERB_PARTICLES.has(next) ? tokens[at + 2] : next
  const objectNext = after === undefined || DETERMINERS.has(after) || isMark(after)
  if (!clause && isWord(lead, 'noun') && !objectNext) return null
  const meaning = verbClassByMeaning(lemma, verbClassOf)
  // A verb WordNet cannot class (`tag`, `star`, `pin`): an act of some kind on the site, a write
  // whose own action the tool must share (`score.ts` agreesInAction).
  if (meaning)
    return {
      word: lead,
      verbClass: meaning.verbClass,
      action: actionOf(lemma, meaning),
      length: 1,
      guessed: true,
      alternatives: meaning.alternatives,
    }
  // After a colon a lone word is more often a value (`search: weather`), unless an object
  // follows it (`TiddlyWiki: tag [Garden Plan] with Spring`).
  return clause && (next === undefined || !objectNext)
    ? null
    : { word: lead, verbClass: 'write', action: lemma, length: 1, guessed: true }
}

/**
 * The action of a verb classed by meaning: the table verb it was found through when that verb is
 * its synonym and only says its class (`trash` is `discard`), else the verb itself.
 */
function actionOf(verb: string, meaning: { via: string; depth: number }): string {
  // Only a synonym stands for the verb (`trash` → `discard`); a verb classed through a hypernym
  // keeps its own action (`undo` is a kind of `change`, not any change).
  return meaning.depth === 0 && GENERIC_VERBS.has(meaning.via) ? meaning.via : verb
}

/** A phrasal verb of two or three words at `at` (`kick off`, `get rid of`), by WordNet. */
function readPhrasal(tokens: string[], at: number, lemma: string): LeadVerb | null {
  for (const size of [3, 2]) {
    const phrase = [lemma, ...tokens.slice(at + 1, at + size)]
    if (phrase.length < size || (size === 2 && !PARTICLES.has(phrase[1]!))) continue
    const joined = phrase.join('_')
    const known = PHRASAL[joined]
    if (known) return { word: tokens[at]!, verbClass: known, action: joined, length: size }
    const act = isActPhrase(joined) ? actClassOf(joined) : null
    if (act)
      return { word: tokens[at]!, verbClass: act, action: joined, length: size, guessed: true }
    if (!isPhrasalVerb(phrase)) continue
    const meaning = verbClassByMeaning(joined, verbClassOf)
    const verbClass = meaning?.verbClass ?? verbClassOf(stem(lemma))
    const action = meaning ? actionOf(joined, meaning) : joined
    if (verbClass)
      return {
        word: tokens[at]!,
        verbClass,
        action,
        length: size,
        guessed: true,
        ...(meaning ? { alternatives: meaning.alternatives } : {}),
      }
  }
  return null
}

/**
 * True when `word` is a verb English makes by undoing another (`unpublish`, `unwatch`,
 * `unarchive`): `un` before a word WordNet knows as a verb, whatever follows it.
 */
function undoes(word: string): boolean {
  return word.startsWith('un') && word.length > 5 && isWord(word.slice(2), 'verb')
}
