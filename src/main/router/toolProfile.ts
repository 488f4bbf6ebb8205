import type { ToolSpec } from '../../shared/toolSpec'
import { METHOD_WORDS, READ_CLASSES, siteKinds, verbClassOf, type VerbClass } from './lexicon'
import { verbLemma } from './meaning/lemma'
import { looksIn, parseIntent, SECOND_FACTOR } from './parseIntent'
import { isWord } from './meaning/related'
import { GENERIC_STEMS, HOST_NOISE, isPlural, STOP_WORDS, stem, words } from './text'
import { extractValues, type ValueKind } from '../intent/values'

/** Where a tool word came from; each field is evidence of a different strength. */
export type TermField =
  | 'intent'
  | 'name'
  | 'site'
  | 'path'
  | 'slot'
  | 'output'
  | 'title'
  | 'value'
  /** The kind of value its slots take (`file` for a slot recorded with `budget.xlsx`). */
  | 'kind'
  /** An option of one of its slots (`repositories` of `type` ∈ repositories, code, issues). */
  | 'option'
  /** A word of a quoted name in its intent that a slot takes (`"run nightly import"`). */
  | 'named'

/**
 * How much a word found in each field says that the tool is about that word (1 = the tool's own
 * intent says it). Slot names and URL path words are the site's vocabulary, a little weaker;
 * output field names weaker still (a tool that returns `jobs` is probably about jobs); words of
 * the page titles the person passed through and one-word slot values (`type: tab`) weaker again
 * (they also name the data seen).
 */
export const FIELD_STRENGTH: Record<TermField, number> = {
  intent: 1,
  name: 1,
  site: 1,
  path: 0.9,
  slot: 0.9,
  output: 0.8,
  title: 0.75,
  value: 0.7,
  kind: 0.95,
  option: 0.95,
  named: 0.8,
}

interface ToolTerm {
  stem: string
  /** A surface form of the word (word vectors are keyed by words, not stems). */
  word: string
  field: TermField
  strength: number
}

/** A tool as the router sees it: its words by stem, its verb, its slots, its head noun. */
export interface ToolProfile {
  tool: ToolSpec
  terms: Map<string, ToolTerm>
  /**
   * Names of the site, lower case, without separators: its host labels (`hireboard` of
   * `jobs.hireboard.example`) and the names it gives itself (`dokuwiki`, `nodered`).
   */
  siteLabels: string[]
  /** Stems that only name the site (`redmine`, `wiki` of `Team Wiki`): never the intent's head. */
  siteStems: Set<string>
  verb: VerbClass
  /** The dictionary form of the tool's own verb (`rename`), or null when it has none. */
  action: string | null
  /** Stems the profile says its head by on this site (`article` of a wiki's `page`). */
  headAliases: Set<string>
  /** It signs in with a second factor (its intent says so, or the compiler saw the code sent). */
  secondFactor: boolean
  /** Its intent limits it to records' names (`pages that have X in their [name]`). */
  searchesNames: boolean
  /** Stems of its intent's places (`namespace` of `list the pages in the meetings namespace`). */
  placeStems: Set<string>
  /** Stems of the slot names, for `by <role>` qualifiers. */
  slotStems: Set<string>
  /** The tool takes free text (a string slot without fixed options): it can absorb values. */
  hasTextSlot: boolean
  /** The tool takes a number (an integer or number slot, or free text). */
  hasNumberSlot: boolean
  slotCount: number
  /** Kinds of value its slots were recorded with (`file` for `budget.xlsx`). */
  valueKinds: Set<ValueKind>
  /**
   * Shapes of the identifiers its slots were recorded with (`valueShape`: `:_` of
   * `projects:office_move`): a value of another shape was probably meant for another tool.
   */
  valueShapes: Set<string>
  /** What the tool works on: the last specific word of its intent's object, or null. */
  head: string | null
  /** The tool's intent names one item (`track an order`), not many (`list my orders`). */
  headSingular: boolean
  /** Stems of the content words of the tool's intent (ranking ties prefer the closest intent). */
  intentStems: Set<string>
  /** Stems of the specific words of its intent's object (`draft`, `post` of `a draft post`). */
  objectStems: Set<string>
  /**
   * Words that name where the tools of its site work (`blog` of `search the blog for posts`,
   * `project` of `in the Website project`, the site's names): shared by the profiles of one site
   * once the tool index has seen them, so `rename the blog post` may say `blog`.
   */
  siteVocabulary: Set<string>
  /** The objects of every tool of its site (shared like `siteVocabulary`): what the site is about. */
  siteObjects: Set<string>
  /** The actions of every tool of its site (shared like `siteVocabulary`): what the site does. */
  siteActions: Set<string>
  /**
   * A search of a place for a value (`search the Website project for "duplicate"`): it finds
   * whatever its site holds, so an intent's head among `siteObjects` is what it finds.
   */
  searchesSite: boolean
}

/**
 * Builds the router's view of a tool from its intent (its main action, not a sign-in before it),
 * name, site (host labels, the names the site gives itself, with those its other tools saw:
 * `siteNamesOfHost`, the titles of the pages recorded),
 * description (the URL path after " — "), slot names and output fields. The values the person
 * typed (a slot's default or example, `Meeting Notes` of "rename the page Meeting Notes") are not
 * the tool's words: they are taken out of the intent first. Pure; cache it by `id@updatedAt`.
 */
export function profileTool(tool: ToolSpec, siteNamesOfHost: readonly string[] = []): ToolProfile {
  const naming = namingOfTool(tool, siteNamesOfHost)
  const { nameWords, siteLabels } = naming
  const intent = withoutValues(tool)
  // Values the tool cannot vary (no slot has them: `the inject node "run nightly import"`) are
  // what it is about: they stay its words. The parse (head, verb) sees them as values.
  const bare = intent
  const slotNames = Object.keys(tool.inputs.properties ?? {})
  const { terms, slotWords, wikiPage, siteStems } = termsOfTool(tool, intent, naming)
  const parsed = parseIntent(intent)
  const { specific, headWord, searchedPlace, context } = objectOfIntent(parsed, siteStems)
  const signsIn = parsed.verb?.verbClass === 'auth' || parsed.verb?.verbClass === 'logout'
  const nameHead = nameWords.map(stem).filter((s) => !GENERIC_STEMS.has(s) && !verbClassOf(s))
  const nameVerb = nameWords.length && verbClassOf(stem(nameWords[0]!)) ? nameWords[0]! : null
  const properties = Object.values(tool.inputs.properties ?? {})
  const free = properties.filter((s) => s.type === 'string' && !Array.isArray(s.enum))
  const action = parsed.action ?? (nameVerb ? verbLemma(nameVerb) : null)
  return {
    tool,
    terms,
    siteLabels,
    siteStems,
    verb: toolVerb(tool, parsed.verb?.verbClass ?? asksForMany(parsed, intent), nameWords),
    action,
    headAliases: new Set(wikiPage ? [stem('article')] : []),
    // `whose name mentions X` looks at names the way others look at text: no limit.
    searchesNames:
      words(intent).some((w) => NAME_NOUNS.has(w)) && !looksIn(words(intent)).has('text'),
    secondFactor:
      SECOND_FACTOR.test(tool.intent) ||
      (tool.evidence?.signals ?? []).some((s) => s.name === 'sends_second_factor'),
    placeStems: new Set(parsed.places.filter((w) => !w.literal && !w.generic).map((w) => w.stem)),
    slotStems: new Set(slotWords.map(stem)),
    hasTextSlot: free.length > 0,
    hasNumberSlot:
      free.length > 0 || properties.some((s) => s.type === 'integer' || s.type === 'number'),
    slotCount: slotNames.length,
    valueKinds: new Set(valueKinds(tool)),
    valueShapes: new Set(recordedShapes(tool)),
    // Without an object in its intent, what its values are (`file`) before its name's words,
    // which are often a recorded value (`local__patch_budget`).
    // (A sign-in acts on no thing: `in` of `log_in` is no head.)
    head: signsIn
      ? null
      : (headWord?.stem ??
        valueKinds(tool)
          .flatMap((k) => KIND_WORDS[k] ?? [])
          .map(stem)[0] ??
        nameHead.at(-1) ??
        null),
    headSingular: headWord !== undefined && !isPlural(headWord.word),
    intentStems: new Set(
      words(bare)
        .filter((w) => !STOP_WORDS.has(w) && !siteStems.has(stem(w)))
        .map(stem),
    ),
    objectStems: new Set(specific.map((w) => w.stem)),
    siteObjects: new Set(specific.map((w) => w.stem)),
    siteActions: new Set(action ? [action] : []),
    searchesSite: searchedPlace,
    // A site is named by what it holds too (`the tracker` of one whose tools work on issues).
    siteVocabulary: new Set([
      ...context,
      ...siteStems,
      ...specific.flatMap((w) => siteKinds(w.stem)),
    ]),
  }
}

/** How a tool and its site are named: the words of its name, the site's names and labels. */
interface ToolNaming {
  /** The words of the tool's name after `site__`, without a leading HTTP method. */
  nameWords: string[]
  /** What the site calls itself on any page of any of its tools (`siteNamesOfHost`). */
  siteNames: string[]
  /** `ToolProfile.siteLabels`. */
  siteLabels: string[]
}

/**
 * Reads the tool's name (`site__object`), its host and the names its site gives itself (its own
 * and `siteNamesOfHost`); returns the name's words, the site's names and its labels (host labels,
 * the name's site part, joined names, a non-English first word, initials), lower case, without
 * host noise or numbers.
 */
function namingOfTool(tool: ToolSpec, siteNamesOfHost: readonly string[]): ToolNaming {
  const [sitePart = '', objectPart = ''] = tool.name.includes('__')
    ? tool.name.split('__', 2)
    : ['', tool.name]
  const nameWords = words(objectPart)
  if (nameWords.length > 1 && METHOD_WORDS.has(nameWords[0]!)) nameWords.shift()
  const hostname = tool.siteHost.replace(/:\d+$/, '')
  const siteNames = [...new Set([...(tool.site?.names ?? []), ...siteNamesOfHost])]
  // A name's first word, when it is no English word, is the name people use (`Jupyter` of
  // `Jupyter Notebook`, `Sitecall` of `Sitecall Wiki`).
  const aliases = siteNames
    .map((n) => words(n))
    .filter((w) => w.length > 1 && !isWord(w[0]!, 'noun') && !isWord(w[0]!, 'verb'))
    .map((w) => w[0]!)
  const siteLabels = [
    ...new Set(
      [
        ...hostname.split('.'),
        sitePart,
        ...siteNames.map((n) => words(n).join('')),
        ...aliases,
        // `tw` of TiddlyWiki, `wp` of WordPress: what people type for a two-word name.
        ...siteNames.map(initials).filter((i) => i.length >= 2),
      ]
        .map((l) => l.toLowerCase())
        .filter((l) => l && !HOST_NOISE.has(l) && !/^\d+$/.test(l)),
    ),
  ]
  return { nameWords, siteNames, siteLabels }
}

/**
 * Adds each word of `texts` (stop words aside) to `terms` under its stem with the strength of
 * `field`, unless the stem is already there at least as strong. Mutates `terms`.
 */
function addTerms(terms: Map<string, ToolTerm>, texts: string[], field: TermField): void {
  for (const w of texts) {
    if (STOP_WORDS.has(w)) continue
    const s = stem(w)
    const strength = FIELD_STRENGTH[field]
    const known = terms.get(s)
    if (!known || known.strength < strength) terms.set(s, { stem: s, word: w, field, strength })
  }
}

/** A tool's words by stem, and what the profile needs of how they were found. */
interface ToolTerms {
  terms: Map<string, ToolTerm>
  /** The words of its slot names, with the tails of compound names (`text` of `wikitext`). */
  slotWords: string[]
  /** Its `page` is a wiki's page, which people call an article too. */
  wikiPage: boolean
  /** `ToolProfile.siteStems`. */
  siteStems: Set<string>
}

/**
 * Collects the tool's words from each field in a fixed order (a stem keeps its strongest field,
 * the first one on a tie): its intent without values (`intent`), its name, its URL path, slot
 * names, output fields, site names, page titles, one-word slot defaults, quoted names a slot
 * took, slot options and the kinds of its recorded values; then adds `article` for a wiki's
 * `page`. Reads the tool, its value-free intent and its naming; sets nothing outside its result.
 */
function termsOfTool(tool: ToolSpec, intent: string, naming: ToolNaming): ToolTerms {
  const { nameWords, siteNames, siteLabels } = naming
  const terms = new Map<string, ToolTerm>()
  const add = (texts: string[], field: TermField) => addTerms(terms, texts, field)
  const path = pathWithoutValues(tool.description.split(' — ')[1] ?? '', tool)
  const slotNames = Object.keys(tool.inputs.properties ?? {})
  // `wikitext`, `pagename`: a slot name made of words says each of them.
  const slotWords = slotNames.flatMap(words).flatMap((w) => [w, ...compoundTail(w)])
  const siteWords = [...siteLabels, ...siteNames.flatMap(words)]
  add(words(intent), 'intent')
  // `change the page to say X`, `a page that says X`: what it sets or makes is the text.
  if (/\b(say|says|saying|reads|reading|wording)\b/i.test(intent)) add(['text'], 'intent')
  add(nameWords, 'name')
  add(
    words(path).filter((w) => !METHOD_WORDS.has(w) && !/^(api|v\d+|\d+)$/.test(w)),
    'path',
  )
  add(slotWords, 'slot')
  add(Object.keys(tool.output?.properties ?? {}).flatMap(words), 'output')
  add(siteWords, 'site')
  add((tool.site?.titles ?? []).flatMap(words), 'title')
  addSlotValueTerms(terms, tool)
  // A wiki's pages are its articles (`update the wiki article Garden Tips`); elsewhere a page
  // is a page (`read a tool page` is no article).
  const page = terms.get(stem('page'))
  const wikiPage = page !== undefined && siteLabels.some((l) => l.includes('wiki'))
  if (page && wikiPage && !terms.has(stem('article')))
    terms.set(stem('article'), {
      ...page,
      stem: stem('article'),
      word: 'article',
      strength: page.strength * NOUN_SYNONYM_STRENGTH,
    })
  const siteStems = new Set(
    siteWords
      .map(stem)
      .filter((s) => terms.get(s)?.field === 'site' || terms.get(s)?.field === 'title'),
  )
  return { terms, slotWords, wikiPage, siteStems }
}

/**
 * Adds the words the tool's slots carry (in this order): one-word defaults of a `type`/`kind`
 * slot (`kind`), of other slots (`value`), quoted names a slot took (`named`), one-word options
 * (`option`) and the words of the kinds of its recorded values (`kind`). Mutates `terms`.
 */
function addSlotValueTerms(terms: Map<string, ToolTerm>, tool: ToolSpec): void {
  const add = (texts: string[], field: TermField) => addTerms(terms, texts, field)
  // One-word defaults of slots are the site's vocabulary too (`type: tab`); the options of a
  // slot are what the tool can be asked about (`type` ∈ repositories, code, issues).
  const oneWord = (v: unknown): v is string => typeof v === 'string' && /^[a-z]{3,20}$/i.test(v)
  const slotSchemas = Object.values(tool.inputs.properties ?? {})
  // The default of a slot named `type` or `kind` says what the tool works on (`type: tab` of a
  // flow tab, `type: directory` of a folder listing): the kind of its object.
  const kindSlot = (name: string) => /^(type|kind)$/i.test(name)
  const slotEntries = Object.entries(tool.inputs.properties ?? {})
  add(
    slotEntries
      .filter(([name]) => kindSlot(name))
      .map(([, s]) => s.default)
      .filter(oneWord)
      .flatMap(words),
    'kind',
  )
  add(
    slotEntries
      .filter(([name]) => !kindSlot(name))
      .map(([, s]) => s.default)
      .filter(oneWord)
      .flatMap(words),
    'value',
  )
  // A quoted name in the tool's intent that a slot took (`the inject node "run nightly import"`)
  // is what people call the thing it works on: its words, as strong as an answer's field names.
  add(quotedNames(tool).flatMap(words), 'named')
  add(
    slotSchemas
      .flatMap((s) => (Array.isArray(s.enum) ? s.enum : []))
      .filter(oneWord)
      .flatMap(words),
    'option',
  )
  // A tool recorded with a file name, a URL, an e-mail... in a slot works on files, links, mail.
  add(
    valueKinds(tool).flatMap((k) => KIND_WORDS[k] ?? []),
    'kind',
  )
}

type IntentWord = ReturnType<typeof parseIntent>['core'][number]

/** What a tool's intent works on, and where. */
interface IntentObject {
  /** The specific words of its object (`ToolProfile.objectStems`). */
  specific: IntentWord[]
  /** The word that names its head, if any. */
  headWord: IntentWord | undefined
  /** A search of a place for a value (`ToolProfile.searchesSite`). */
  searchedPlace: boolean
  /** Stems of the words that name where it works. */
  context: string[]
}

/**
 * Reads the parse of a tool's intent and the stems that only name its site; returns the specific
 * words of its object (what a search finds, else its object, else its places and values), its
 * head word, whether it searches a place for a value, and the stems of where it works.
 */
function objectOfIntent(
  parsed: ReturnType<typeof parseIntent>,
  siteStems: ReadonlySet<string>,
): IntentObject {
  const specificOf = (list: typeof parsed.core) =>
    list.filter((w) => !w.generic && !w.literal && !siteStems.has(w.stem))
  // `search the blog for posts about X`: what is searched (`the blog`) is a place, the plural
  // after `for` is what the search finds (`posts`): the object.
  const first = parsed.values.find((w) => !w.literal)
  const found = first && !first.generic && isPlural(first.word) ? first : undefined
  const searched = parsed.verb?.verbClass === 'search' && parsed.core.length > 0 && found
  // `what's in the invoices folder`: no object after a verb, the place names what it is about.
  const specific = searched
    ? [found]
    : specificOf(parsed.core).length
      ? specificOf(parsed.core)
      : specificOf([...parsed.places, ...parsed.values])
  // `set the [status] of issue #1`: the noun before `of` is what it works on.
  const headWord = specific.find((w) => w.ofHead) ?? specific.at(-1)
  // Words that name where the tool works: what a search searches, its `in`/`on` places, the
  // site's names and page titles. Shared with the other tools of the site (`toolIndex.ts`).
  // `search the Website project for "duplicate"`: the project is where it searches, not what.
  const searchedPlace =
    parsed.verb?.verbClass === 'search' &&
    !searched &&
    specificOf(parsed.core).length > 0 &&
    parsed.values.length > 0
  const context = [
    ...(searched || searchedPlace ? parsed.core : []),
    ...parsed.places.filter((w) => !w.literal),
    ...parsed.sites.filter((w) => !w.literal),
  ].map((w) => w.stem)
  return { specific, headWord, searchedPlace, context }
}

/**
 * The tool's intent with the values the person gave taken out (each becomes `"…"`, a value):
 * the defaults and examples of its slots, longest first, matched whole-word and case-blind.
 */
function withoutValues(tool: ToolSpec): string {
  const values = Object.values(tool.inputs.properties ?? {})
    .flatMap((s) =>
      [s.default, ...(Array.isArray(s['examples']) ? s['examples'] : [])].map((v) => ({
        v,
        typed: /^what was typed/i.test(s.description ?? ''),
      })),
    )
    .filter(
      (x): x is { v: string | number; typed: boolean } =>
        typeof x.v === 'string' || typeof x.v === 'number',
    )
    .map((x) => ({ value: String(x.v).trim(), typed: x.typed }))
    // A title as a wiki writes it in its addresses (`Old_Draft`, `Old+Draft`) is the one said.
    .flatMap((x) => {
      const spaced = x.value.replace(/[_+]/g, ' ')
      return spaced === x.value ? [x] : [x, { ...x, value: spaced }]
    })
    .filter((x) => x.value.length >= 2 && x.value.length <= 200)
    .sort((a, b) => b.value.length - a.value.length)
  let intent = tool.intent
  for (const { value, typed } of values) {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const pattern = new RegExp(`(?<![\\w])${escaped}(?![\\w])`, 'g' + (typed ? 'i' : ''))
    // A lower-case word of the intent that the request also carries (`the meetings media
    // folder`, `do=media`) stays a word unless the person typed it: it is what the tool is about.
    const valueLike = typed || /[\s\d\W]/.test(value) || /^[A-Z]/.test(value)
    if (valueLike) intent = intent.replace(pattern, ' "…" ')
  }
  return intent
}

/**
 * The request line of a tool's description (`GET /tiddlers/Recipe%20Lentil%20Soup`) without the
 * path segments that are values its slots were recorded with: `lentil` is data, no word of the
 * tool (as `withoutValues` does for its intent).
 */
function pathWithoutValues(path: string, tool: ToolSpec): string {
  const values = new Set(
    Object.values(tool.inputs.properties ?? {})
      .map((s) => s.default)
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((v) => String(v).trim().toLowerCase()),
  )
  if (!values.size) return path
  return path
    .split('/')
    .filter((segment) => !values.has(decodeSegment(segment).trim().toLowerCase()))
    .join('/')
}

/** `segment` URL-decoded, or as it is when it is no valid escape. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return segment
  }
}

/**
 * Quoted values of the tool's intent (`"run nightly import"`) that one of its slots was recorded
 * with: taken out of its intent as values, they still name what the tool works on.
 */
function quotedNames(tool: ToolSpec): string[] {
  const defaults = new Set(
    Object.values(tool.inputs.properties ?? {})
      .map((p) => p.default)
      .filter((v): v is string => typeof v === 'string')
      .map((v) => v.trim().toLowerCase()),
  )
  return extractValues(tool.intent)
    .values.filter((v) => v.kind === 'quoted' && defaults.has(v.text.trim().toLowerCase()))
    .map((v) => v.text)
}

/**
 * The last word of a closed compound (`wikitext` → `text`, `pagename` → `name`): a WordNet noun
 * of 4 letters or more ending a word that WordNet does not know, after 3 letters or more.
 */
function compoundTail(word: string): string[] {
  if (word.length < 7 || isWord(word, 'noun') || isWord(word, 'verb')) return []
  for (let i = 3; i <= word.length - 4; i++) {
    const tail = word.slice(i)
    if (isWord(tail, 'noun')) return [tail]
  }
  return []
}

/**
 * The initials of a brand written as one word of two or three parts (`TiddlyWiki` → `tw`,
 * `Node-RED` → `nr`), else ''. A name of separate words (`Team Wiki`) is said whole: its
 * initials would claim another site's short name.
 */
function initials(name: string): string {
  if (/\s/.test(name.trim())) return ''
  const parts = words(name)
  return parts.length >= 2 && parts.length <= 3 && parts.every((p) => /^[a-z]/.test(p))
    ? parts.map((p) => p[0]).join('')
    : ''
}

/** Nouns by which an intent limits a search to records' names (`whose [title] starts with`). */
const NAME_NOUNS: ReadonlySet<string> = new Set(['name', 'names', 'title', 'titles', 'prefix'])

/** How much a word the profile adds as another's synonym counts (as `toolIndex.ts` NOUN_SYNONYM). */
const NOUN_SYNONYM_STRENGTH = 0.95

/** The words that name what a value of each kind is. */
const KIND_WORDS: Partial<Record<ValueKind, string[]>> = {
  file: ['file'],
  url: ['url', 'link', 'address'],
  email: ['email', 'address'],
  date: ['date'],
  path: ['path', 'folder'],
  version: ['version', 'release'],
}

/** True when `wordStem` names a kind of value (`file`, `date`, `link`...). */
export function isKindWord(wordStem: string): boolean {
  return KIND_STEMS.has(wordStem)
}

const KIND_STEMS = new Set(Object.values(KIND_WORDS).flat().map(stem))

/** Stems of the words that name what a value of `kind` is (`file` for `budget.xlsx`). */
export function kindStems(kind: ValueKind): string[] {
  return (KIND_WORDS[kind] ?? []).map(stem)
}

/**
 * Kinds of value (`values.ts`) the tool works on: those of its slots' recorded defaults
 * (`budget.xlsx`: `file`), and the kinds that name a thing (`KIND_WORDS`) among the values of its
 * own intent (`upload the picture Sunset.png`: a file, even when the compiler found no slot).
 */
function valueKinds(tool: ToolSpec): ValueKind[] {
  const ofSlots = Object.values(tool.inputs.properties ?? {}).flatMap((p) => {
    if (typeof p.default !== 'string') return []
    const found = extractValues(p.default).values
    return found.length === 1 && found[0]!.text === p.default.trim() ? [found[0]!.kind] : []
  })
  const ofIntent = extractValues(tool.intent)
    .values.map((v) => v.kind)
    .filter((k) => KIND_WORDS[k] !== undefined)
  return [...new Set([...ofSlots, ...ofIntent])]
}

/**
 * The shape of an identifier (`values.ts` kind `identifier`): the first separator it joins its
 * words with, which says what scheme it follows (`projects:office_move` and `team:status` → `:`,
 * a namespaced page; `acme-utils` → `-`); its later ones vary within a scheme.
 */
export function valueShape(text: string): string {
  return /[^A-Za-z0-9]/.exec(text)?.[0] ?? ''
}

/** Shapes of the identifiers among the recorded defaults and examples of the tool's slots. */
function recordedShapes(tool: ToolSpec): string[] {
  return Object.values(tool.inputs.properties ?? {})
    .flatMap((p) => [p.default, ...(Array.isArray(p['examples']) ? p['examples'] : [])])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => extractValues(v).values.filter((x) => x.kind === 'identifier'))
    .map((x) => valueShape(x.text))
}

/**
 * A verb-less question about many things (`which wiki pages have office in their name?`) is a
 * search, and one about what a place holds (`what's in the invoices folder`) a list: null for
 * any other intent.
 */
function asksForMany(parsed: ReturnType<typeof parseIntent>, intent: string): VerbClass | null {
  // `what's in the invoices folder`: what a place holds, a listing of it.
  if (/^\W*what(?:'s|’s| is| are)\s+(?:in|inside|under|within)\b/i.test(intent)) return 'list'
  const asked = parsed.core.find((w) => w.asked)
  return asked && isPlural(asked.word) ? 'search' : null
}

/**
 * The tool's verb class: its intent's verb, else its name's (`create_note`, `track_order`), kept
 * consistent with `mutating` (the compiler's verdict wins: a tool that writes is never a read, and
 * one that does not write is never a write).
 */
function toolVerb(tool: ToolSpec, fromIntent: VerbClass | null, nameWords: string[]): VerbClass {
  const fromName = nameWords.length ? verbClassOf(stem(nameWords[0]!)) : null
  const said = fromIntent ?? fromName
  // Signing in or out is what it is, whether the site's request writes or not.
  if (said === 'auth' || said === 'logout') return said
  const reads = (c: VerbClass | null) => c !== null && READ_CLASSES.includes(c)
  if (tool.mutating) return said && !reads(said) ? said : 'write'
  return reads(said) ? said! : 'read'
}
