/**
 * The rule engine: the router's hand-written English phrasing rules, kept as one
 * source of the ranker's features (`rules`, `ranker.ts`) while it earns its place there. Its score
 * is no longer the router's answer: the fitted ranker's calibrated probability is.
 * An intent in plain words, each tool a rule score. Pure: no network, no
 * clock; it reads the lexical data of three npm packages once per process (`meaning/`).
 *
 * Scoring (interface.md "B": "never falls back to keyword matching"). The intent is parsed, not bagged:
 * 0. Clauses (`clauses.ts`): of an intent said with its reasons (`The printer moved, so please
 *    rewrite the page`), the clauses that ask are the request; the others only name the site and
 *    what a request that points back (`delete it`) acts on. Idioms said without their verb up
 *    front (`X should be called Y`, `let me into`, `use the tracker to ...`: `idioms.ts`) read as
 *    the request they stand for.
 * 1. Values by their form (`values.ts`): quoted text, file names, URLs, e-mails, paths, dates,
 *    numbers, identifiers (`acme-utils`), capitalised names (`Meeting Notes`, `DokuWiki`) are
 *    taken out first: `rename budget.xlsx` asks to rename, with a value.
 * 2. Words (`text.ts`): camelCase/snake_case split, accents dropped, a light suffix stemmer.
 * 3. Parse (`parseIntent.ts`): the verb and its class (search, list, read; create, update,
 *    delete, run; auth, logout) from a table, else from the acts of web apps and the verbs people
 *    ask them by (`meaning/actions.ts`: `fire` triggers, `bin` trashes, `deactivate` disables;
 *    two verbs of one act are one action, two acts it knows apart are two), else from WordNet
 *    (phrasal verbs such as `kick off`,
 *    verbs such as `erase`, classed by their synonyms and hypernyms); a sign-in or navigation step
 *    before the work is skipped (`log in and rename the file`); then the object (`core`), `by`
 *    qualifiers, `for`/`about`/`named`/`as`/`says` values, `in`/`to` places, `on`/`at` sites, text
 *    after a colon. A word naming the site of some tool (`Redmine`) is a site wherever it stands.
 *    A value leaves a mark where it stood (`put [x.pdf] into`: `put` has an object, it is a
 *    verb); participles and adjectives after a copula are no verb (`pages starting with`, `are
 *    still open`); `a new X` asks to create; the noun after `which`/`what` is the head; words
 *    WordNet knows mostly as adjectives, adverbs or verbs (`now`, `quick`, `hold`) are modifiers,
 *    generic unless some tool says them (`verified`).
 *    The noun before `of` is what is asked of the rest (`the [priority] of issue #2`); where a
 *    search looks (`pages that mention X`: text; `named X`: names) is kept (`looksIn`); file,
 *    report, open (a ticket), save (a draft) a new thing make it; a file put into a place is
 *    uploaded; a light verb with the noun of a tool's act asks that act (`add a tag` = `tag`).
 * 4. Profile each tool (`toolProfile.ts`): the stems of its intent (the values the person typed,
 *    its slots' defaults, taken out), name, URL path, slot names, output fields, the site's names
 *    and page titles (`ToolSpec.site`), the options and kinds of its slots, each with a strength
 *    (`FIELD_STRENGTH`); its verb class, its own action (`rename`), its head noun; and words of
 *    its site shared by all its tools (`blog` of `search the blog for posts`), with the names the
 *    site gives itself on any of its tools' pages and what people call a site by what it holds
 *    (`tracker` of a site of issues: `lexicon.ts` SITE_KINDS).
 * 5. Expand each intent word by meaning (`toolIndex.ts`): its stem and lemmas (1), hand-kept noun
 *    synonyms (0.95), WordNet synonyms and derived forms (0.9), word-vector neighbours (at most
 *    0.7: a vector never carries the head to 0.9).
 * 6. Score (`score.ts`): every intent word must be accounted for: found through an expansion (its
 *    strength × the field's), absorbed as a value a slot can take, or a context word of the
 *    tool's site; each word not accounted for costs a penalty scaled by (1 − strength): the head
 *    noun 0.35, any other specific word 0.12, a generic word 0.02; the tool's own head unnamed 0.1;
 *    a specific action asked of another (`rename` of an `edit` tool) 0.15. `score = (1 − Σ) × verb
 *    agreement` (same class 1; two read classes 0.92 to 0.96; one item asked of a list or the
 *    reverse 0.85; run and create/update 0.88); a contradicting verb caps it at 0.6, an intent
 *    naming nothing at 0.8; a site the intent names that is not the tool's multiplies it by 0.75,
 *    and a word only other sites say of where they work (`the blog's media library` of a wiki's
 *    tool) costs 0.05. A search asked to look in records' text of a tool that looks at names, or
 *    of a list, costs 0.1 (names of a whole-text search, 0.02); a sign-in with a second factor
 *    of a plain one 0.1.
 *    Without a head, a sign-in, a typed value (`rename budget.xlsx`: a file) or a search of a
 *    named site stands for the object (0.03); a typed value as the object of a tool that takes
 *    no such value costs 0.12. A change of state asked by a table verb that no tool of the site
 *    does (`mark issue #1 as In Progress` of `set the status`) costs 0.05, not 0.15, unless the
 *    asked act is more general than the tool's (`move` of `set`). A verb classed by meaning keeps
 *    the other classes its synonyms have (`put` = `set` and `place`): a tool of one of them is
 *    served at ×0.97. A read of a container's members (`the files in the data folder`) is its
 *    listing; a read of many prefers a list. A search of a place for a value (`search the Website
 *    project for X`) finds the objects of its site's tools (0.9). Values by kind and shape: a
 *    release (`2.1.0`) asked of a tool recorded with other kinds only costs 0.05, an identifier of
 *    another scheme (`projects:x` of a tool given `Old Draft`) 0.03. Tie-breakers: a generic verb
 *    (`edit`) asked of a tool with a specific act (`rename`) 0.015,
 *    a place absorbed by a slot 0.01, a site context word 0.005, a word of the tool's object the
 *    intent leaves unnamed 0.01.
 *
 * Calibration (interface.md "Tool match": score at least 0.9). 0.9 sits on "this tool does what the
 * intent asks": reached only when the head is the tool's (strength 0.714 or more), every other
 * specific word is the tool's or its site's, every value can be taken by a slot and the verbs
 * agree; one missing specific word gives at most 0.88. The strengths are set by hand against the
 * dev half of `test/apps/paraphrases.json` (no script fits them) and are reported on its test half
 * (`npm run bench`); the table test in `test/unit/router/router.test.ts` holds the claims over the
 * compiler corpus's tools. No scale over the top tool's features (score, margin to the next tool,
 * words missing, verb factor, action agreement) is applied: between 0.75 and 0.9 the right tool and
 * a wrong one (or one for an intent that must match nothing) come in nearly equal numbers with the
 * same features, so no scale lifts the one without the other; at 0.9 or more the dev half's top
 * tool is right 96% of the time. The router's fitted model is the ranker's (`rankerParams.json`,
 * `test/bench/routerFit.ts`), which takes these scores as features.
 *
 * Speed: `route` scores only the tools the inverted index says can reach 0.9 (`toolIndex.ts`;
 * an expansion too weak to be a head visits no postings), picks the ones it answers from those at
 * 0.9 or more in one pass (no sort: thousands may reach 0.9 in a large workspace) and builds a
 * `ToolMatch` only for them; `rank` scores and sorts every tool. Ranking: score, then the
 * intent's head being the tool's own head noun, then closeness (the share of the tool's own
 * intent words the intent used), then the fewest of them unused, verified before candidate, the
 * newest, then id. Signing in takes its `as` value from the login's stored secrets, never from a
 * slot (`log in to Verdaccio as ada`).
 */
import type { ToolSpec } from '../../shared/toolSpec'
import { splitClauses } from './clauses'
import { withoutCourtesy } from './courtesy'
import { namedApps, type AppVocabulary } from './otherApps'
import { fieldsAsSentence, filtersAsSentence, labelledTextQuoted } from './fields'
import { isNumberWord } from './spoken'
import { GENERIC_STEMS, isPlural, stem } from './text'
import { isKindWord } from './toolProfile'
import { isSiteKind } from './lexicon'
import { isWord } from './meaning/related'
import { correctSpelling, type SpellingVocabulary } from './spelling'
import { appVocabulary, spellingVocabulary } from './vocabularies'
import { isNamedRecord, parseIntent, type IntentWord, type ParsedIntent } from './parseIntent'
import { scoreTool, type MatchEvidence } from './score'
import { ToolIndex, type Expanded, type IndexEntry } from './toolIndex'

/** Texts whose parse one rule scorer keeps; all are dropped when the cap is reached. */
const PARSES_KEPT = 2_000

/** `site` as `stem` keeps it (`our private package [site]`). */
const SITE_STEM = stem('site')
/** One tool's rule score, the rules' evidence, and whether the rules' index found the tool. */
export interface RuleScore {
  score: number
  evidence: MatchEvidence
  found: boolean
  /** The intent's head is the tool's own head noun (`change [status] of #6`): breaks ties. */
  ownHead: boolean
}

/** The rule engine's answer for one intent: rule scores of the tools it looked at. */
export interface RuleScorer {
  /**
   * Rule scores of the tools the rules' index finds for `intent` (those that may reach 0.9;
   * `found` true) and of the tools whose ids are in `also`, by tool id, with the rules' evidence.
   */
  scores(
    intent: string,
    tools: readonly ToolSpec[],
    also?: ReadonlySet<string>,
  ): Map<string, RuleScore>
  /** The rules' reading of `intent` among `tools` (diagnostics; the ablation compares them). */
  read?(intent: string, tools: readonly ToolSpec[]): ParsedIntent
  /** Profiles `tools` into the rules' index one tool per step (`ToolIndex.building`). */
  building?(tools: readonly ToolSpec[]): Generator<void>
}

/**
 * The rule engine's groups of phrasing rules, each switched off on its own for the ablation
 * (`test/bench/routerAblation.ts`: leave-one-app-out with and without each group).
 */
export const RULE_GROUPS = [
  'spelling',
  'courtesy',
  'fields',
  'clauses',
  'siteLabel',
  'otherApps',
  'related',
  'compared',
  'formats',
  'shellSite',
  'siteAsVerb',
  'searchTerms',
  'siteKindWords',
  'namesBesideSite',
  'recordNames',
  'modifiers',
  'numberedPlaces',
  'pageShows',
  'saidOf',
  'nonNounGeneric',
  'screenPlaces',
  'saidBySites',
  'context',
  'signInScreens',
  'signInWho',
  'abbreviations',
  'hyphenSites',
  'namedMoved',
] as const
export type RuleGroup = (typeof RULE_GROUPS)[number]

export interface RuleScorerOptions {
  /** Groups switched off (ablation only; the router uses every group). */
  without?: ReadonlySet<RuleGroup>
}

/** Where on a screen something is (`on the left`, `at the top`): no site, no thing. */
const SCREEN_PLACES: ReadonlySet<string> = new Set([
  'left',
  'right',
  'top',
  'bottom',
  'side',
  'corner',
  'edge',
  'middle',
  'sidebar',
  'header',
  'footer',
])

/** The stem of `page`, where a thing is shown. */
const PAGE_STEM = stem('page')
/** What a page itself has (`the page contents`): no thing it shows. */
const PAGE_PARTS = new Set(['text', 'content', 'contents', 'body', 'title', 'name'].map(stem))

/** File formats a thing may be asked as (`as a PDF`, `as CSV`). */
const FORMATS = new Set([
  ...['pdf', 'csv', 'docx', 'doc', 'xlsx', 'xls', 'odt', 'rtf', 'epub', 'html', 'xml', 'zip'],
  ...['markdown', 'md', 'txt', 'json', 'yaml', 'png', 'jpg', 'jpeg', 'svg', 'tar', 'gz'],
])

/** What a person passes on the way to signing in (`the admin page`, `the editor`). */
const SIGN_IN_SCREENS = new Set(
  ['page', 'admin', 'editor', 'dashboard', 'console', 'form', 'prompt', 'area', 'backend'].map(
    stem,
  ),
)

/** Words that open a noun phrase (`the`, `my`, `every`), as a regular expression's source. */
const DETERMINER_WORDS = String.raw`(?:the|my|our|your|a|an|all|every|each|this|that|these|those|its|their)\b`

/**
 * A numbered record set in relation to another of its kind (`issue #4 as blocked by issue #6`,
 * `#2 as a duplicate of #7`, `relate issue 3 to issue 9`; not `issue #5 to 80%`): group 3
 * ends with the second record's number.
 */
const RELATED_RECORD =
  /\b([a-z]+)\s+(#?\d+)\b.*?\b(?:by|of|to|with|from|on)\s+(?:the\s+)?(\1\s+#?\d+|#\d+)\b/i

/**
 * Two things compared (`diff X 1.1.0 against 1.2.0`, `between X 1.1.0 and 1.2.0`); group 1 is
 * the second one.
 */
const COMPARED =
  /\b(?:(?:diff|compare|comparing|contrast)\b.*?\s(?:against|vs\.?|versus|with|and|to)|between\s+\S+(?:\s+\S+)?\s+and)\s+(?:the\s+|version\s+)?(\S+?)[.,;!?]*(?:\s|$)/i

/**
 * What one rule scorer keeps between searches: the phrasing-rule groups switched on (`on`), the
 * rules' tool index with the vocabularies read from it, and the parse of each text searched while
 * the index holds the same tools (`parses`, by `ToolIndex.version`).
 */
interface RuleState {
  on: (group: RuleGroup) => boolean
  index: ToolIndex
  spelling: SpellingVocabulary
  appWords: AppVocabulary
  parses: { version: number; byText: Map<string, ParsedIntent> }
}

/** A fresh {@link RuleState}: every group on but those in `without`, nothing indexed. */
function ruleState({ without = new Set() }: RuleScorerOptions = {}): RuleState {
  const index = new ToolIndex()
  return {
    on: (group) => !without.has(group),
    index,
    spelling: spellingVocabulary(index),
    appWords: appVocabulary(index),
    parses: { version: -1, byText: new Map() },
  }
}

/**
 * Creates a router. It keeps one profile per tool (replaced when the tool changes) and an inverted
 * index over them (`toolIndex.ts`): `route` scores only the tools that share a word with the
 * intent by meaning (the others cannot reach 0.9: their head word is missing, `score.ts`);
 * `rank` scores every tool.
 */
export function createRuleScorer(options: RuleScorerOptions = {}): RuleScorer {
  const state = ruleState(options)
  return {
    building: (tools) => state.index.building(tools),
    read(intent, tools) {
      state.index.sync(tools)
      return parseRequest(state, intent)
    },
    scores: (intent, tools, also = new Set()) => ruleScoresOf(state, intent, tools, also),
  }
}

/**
 * The rule score of each of `entries` by tool id (`found`: those the rules' index found), made
 * in one pass: no intermediate records per tool. Expansions of the intent's words through
 * `index` are made once per call.
 */
function scoreEntries(
  index: ToolIndex,
  parsed: ParsedIntent,
  entries: Iterable<IndexEntry>,
  found: ReadonlySet<IndexEntry>,
): Map<string, RuleScore> {
  const memo = new Map<IntentWord, Expanded>()
  const verbs = new Map<string, Expanded>()
  const expand = (w: IntentWord, pos: 'noun' | 'verb' = 'noun') => {
    if (pos === 'verb') {
      let v = verbs.get(w.word)
      if (!v) verbs.set(w.word, (v = index.expand(w, pos)))
      return v
    }
    let e = memo.get(w)
    if (!e) memo.set(w, (e = index.expand(w)))
    return e
  }
  const out = new Map<string, RuleScore>()
  for (const e of entries) {
    const { score, evidence } = scoreTool(parsed, e.profile, expand)
    out.set(e.tool.id, {
      score,
      evidence,
      found: found.has(e),
      ownHead:
        evidence.head !== null &&
        evidence.toolHead !== null &&
        stem(evidence.head) === evidence.toolHead,
    })
  }
  return out
}

/**
 * `dokuwiki: page ids containing hr`: a site's name (one `index` knows) as a label says where;
 * what follows is the request (not what to look for, as after `search:`), rewritten as
 * `<request> on <site>`. Any other text is returned as it is.
 */
function siteLabelLast(index: ToolIndex, request: string): string {
  const m = /^\s*([A-Za-z][\w-]*)\s*:\s+(.+)$/s.exec(request)
  if (!m) return request
  // (`Node-RED:` is the site labelled `nodered`.)
  const label = m[1]!.toLowerCase()
  const forms = [label, label.replace(/-/g, ''), label.replace(/-/g, '_')]
  if (!forms.some((l) => index.isSiteName(l))) return request
  const rest = m[2]!.replace(/[.!?]+\s*$/, '')
  // (`what's under meetings:?`: a namespace ends it; the site after it would read as one.)
  return rest.endsWith(':') ? request : `${rest} on ${m[1]}`
}

/** `Node-RED`, `node red`: a site's name (one `index` knows) as said, without case, spaces and dashes. */
function isSiteSaid(index: ToolIndex, said: string): boolean {
  return index.isSiteName(said.toLowerCase().replace(/[\s-]/g, ''))
}

/**
 * The rules' reading of `intent` (`parseIntent.ts`) after the phrasing rules switched on in
 * `state` (`RULE_GROUPS`) rewrote it and marked its words against what `state.index` holds.
 * A word that names the site of some tool (`Redmine`, `dokuwiki`) names a site wherever it
 * stands: the tool must be on that site, it is no value a slot may take.
 * The stages run in this order, each on the parse the one before left (some mark its words in
 * place, some return a new parse).
 */
function parseRequest(state: RuleState, intent: string): ParsedIntent {
  const clauses = rewriteRequest(state, intent)
  const { request } = clauses
  let parsed = parseIntent(state.on('siteLabel') ? siteLabelLast(state.index, request) : request)
  parsed = markOtherApps(state, parsed, request)
  markRelatedValues(state, parsed, request)
  parsed = readShellSite(state, parsed, request)
  readSearchTerms(state, parsed, request)
  readNamesBesideSite(state, parsed)
  markGenericWords(state, parsed)
  parsed = readContext(state, parsed, clauses)
  readSignIn(state, parsed)
  return readSiteNames(state, parsed)
}

/**
 * Rewrites the text before it is parsed (each by its group): typing slips (`spelling`),
 * courtesy (`courtesy`), fields and filters as a sentence (`fields`); then splits the request
 * from its reasons (`clauses`; `context` null when off or none).
 */
function rewriteRequest(
  state: RuleState,
  intent: string,
): { request: string; context: string | null } {
  const { on, spelling } = state
  // `The printer moved, so please rewrite the page`: the request is what is scored; the
  // reasons only say where (`clauses.ts`).
  // `Action: rename file. Site: Jupyter. Target: a.txt`: a record of fields, as a sentence.
  // `renmae the file on the dokuwki`: typing slips read as the words meant (`spelling.ts`).
  // `Sorry to bother you, but would you mind deleting X? Thanks!`: the request (`courtesy.ts`).
  const spelled = on('spelling') ? correctSpelling(intent, spelling) : intent
  const plain = on('courtesy') ? withoutCourtesy(spelled) : spelled
  // `filter issues status=open tracker=Bug`: filters as a sentence says them (`fields.ts`).
  // `new tiddler X text Call the plumber`: the text after its label is the value (`fields.ts`).
  const fielded = on('fields')
    ? labelledTextQuoted(filtersAsSentence(fieldsAsSentence(plain)))
    : plain
  return on('clauses') ? splitClauses(fielded) : { request: fielded, context: null }
}

/**
 * `otherApps`: the apps `request` names that no tool is on leave the core, values and places
 * and join the sites as `otherApp`. Returns a new parse when there are any.
 */
function markOtherApps(state: RuleState, parsed: ParsedIntent, request: string): ParsedIntent {
  // `upload x.pdf to my Dropbox`: an app no tool is on is a site, never a value (`otherApps.ts`).
  const apps = state.on('otherApps') ? namedApps(request, state.appWords) : []
  if (!apps.length) return parsed
  const other = (w: IntentWord) => apps.some((a) => w.word === a || w.word.split(' ').includes(a))
  const keep = (list: IntentWord[]) => list.filter((w) => !other(w))
  return {
    ...parsed,
    core: keep(parsed.core),
    values: keep(parsed.values),
    places: keep(parsed.places),
    sites: [
      ...keep(parsed.sites),
      ...apps.map((a) => ({
        word: a,
        stem: stem(a),
        generic: false,
        literal: false,
        otherApp: true,
      })),
    ],
  }
}

/**
 * Marks values that are no tool's value, in place: a related record of an update (`related`)
 * and the second thing compared (`compared`) set `related`; a format asked (`formats`) moves
 * from the values to the qualifiers.
 */
function markRelatedValues(state: RuleState, parsed: ParsedIntent, request: string): void {
  const { on } = state
  // `mark issue #4 as blocked by issue #6`: the second record is related to the first.
  const relation = RELATED_RECORD.exec(request)
  if (on('related') && relation && parsed.verb?.verbClass === 'update')
    for (const w of parsed.values) if (relation[3]!.toLowerCase().endsWith(w.word)) w.related = true
  // `diff lunar-phase 1.1.0 against 1.2.0`: the second thing compared is no value of a tool
  // that takes one.
  const compared = COMPARED.exec(request)
  if (on('compared') && compared)
    for (const w of parsed.values) if (w.word === compared[1]!.toLowerCase()) w.related = true
  // `download the page X as a PDF`: a format asked is what the tool must give, no value.
  const formats = parsed.values.filter((w) => w.after === 'as' && !w.literal && FORMATS.has(w.word))
  if (on('formats') && formats.length) {
    parsed.values = parsed.values.filter((w) => !formats.includes(w))
    parsed.qualifiers.push(...formats)
  }
}

/**
 * A site named first: a shell command abbreviating a site before a numbered record
 * (`shellSite`) parses the rest of `request` on that site; a site's name read as an unknown
 * verb (`siteAsVerb`) becomes a site with no verb. Returns the parse to go on with.
 */
function readShellSite(state: RuleState, parsed: ParsedIntent, request: string): ParsedIntent {
  const { on, index } = state
  // `rm #12`, `rm #8 status resolved`: a shell command abbreviating a site's name, before a
  // numbered record (no file it removes), names that site; what follows is the request.
  const shortSite = parsed.verb ? index.abbreviated(parsed.verb.word) : null
  const numberFirst = /^\s*\S+\s+#\d+\b/.test(request)
  const shellCommand = parsed.core.length > 0 && parsed.core.every((w) => w.implied)
  // (`redmine #8 → Resolved`: so does the site's own name, which no verb stands for.)
  const firstWord = /^\s*([A-Za-z][\w-]*)/.exec(request)?.[1] ?? ''
  const siteFirst = isSiteSaid(index, firstWord)
  if (on('shellSite') && numberFirst && ((shortSite && shellCommand) || siteFirst)) {
    const rest = request.replace(/^\s*\S+\s+/, '')
    parsed = parseIntent(`${rest} on ${shortSite && shellCommand ? shortSite : firstWord}`)
  }
  // `redmine #42`: a site's name typed first is no verb nobody taught the router.
  if (
    on('siteAsVerb') &&
    parsed.verb?.verbClass === 'write' &&
    parsed.actionGuessed &&
    index.isSiteName(parsed.verb.word)
  ) {
    const site = parsed.verb.word
    parsed = { ...parsed, verb: null, action: null, actionGuessed: false }
    parsed.sites.push({
      word: site,
      stem: stem(site),
      generic: false,
      literal: true,
      siteName: true,
    })
  }
  return parsed
}

/**
 * In place: after a search, object words no tool says move to the values (`searchTerms`); words
 * that say how a site is, before what names it, become generic (`siteKindWords`).
 */
function readSearchTerms(state: RuleState, parsed: ParsedIntent, request: string): void {
  const { on, index, appWords } = state
  // `wp search [potatoes]`: after a search, a word no tool says is what to look for; so are
  // words no site holds a thing by (`tiddlywiki search [invoice]`), when all are.
  if (on('searchTerms') && parsed.verb?.verbClass === 'search') {
    // (Terms right after the verb, with no article: `search the media manager` names a thing.)
    const verbWord = parsed.verb.word.replace(/[^\w\s-]/g, '')
    const bare = new RegExp(`\\b${verbWord}\\s+(?!${DETERMINER_WORDS})\\w`, 'i')
    const terms = bare.test(request)
    const unknown = parsed.core.filter(
      (w) =>
        !w.generic &&
        !w.literal &&
        (!index.knows(index.expand(w)) || (terms && !appWords.isThing(w.word))) &&
        !isSiteKind(w.stem) &&
        !index.isSiteName(w.word),
    )
    // (A site's name typed first, `tiddlywiki search garden`, is no word of the object.)
    const object = parsed.core.filter((w) => !w.generic && !index.isSiteName(w.word))
    if (unknown.length && unknown.length === object.length) {
      parsed.core = parsed.core.filter((w) => !unknown.includes(w))
      parsed.values.push(...unknown)
    }
  }
  // `search [the private] npm registry`: how the site is, before what names it, asks nothing.
  // (`the private npm registry`, `our private package site`: a word may stand between.)
  const kindOfSite = (w: IntentWord | undefined) =>
    w !== undefined && (isSiteKind(w.stem) || w.stem === SITE_STEM)
  // (`on our [allotment gardening] blog`: so is a word no tool says, which tells what the
  // site is about.)
  if (on('siteKindWords'))
    for (const list of [parsed.core, parsed.places, parsed.sites])
      for (const [i, w] of list.entries()) {
        const next = list[i + 1]
        const site = kindOfSite(next) || (next && index.isSiteName(next.word))
        // (`the [cache] of the wiki page`: what is asked of the thing, no word of the site.)
        if (!(site || kindOfSite(list[i + 2])) || w.ofHead) continue
        if (w.modifier || (!w.literal && !index.knows(index.expand(w)))) w.generic = true
      }
}

/**
 * In place: where a site is named, two or more site words no tool says are a thing's name, a
 * value (`namesBesideSite`); words no tool says before a record's noun are its name, a value
 * (`recordNames`).
 */
function readNamesBesideSite(state: RuleState, parsed: ParsedIntent): void {
  const { on, index } = state
  // `the inject button on [refresh cache] in node-red`: where a site is named, words no tool
  // says where a site stands name a thing there, a value.
  const namesSite = [...parsed.sites, ...parsed.values, ...parsed.core, ...parsed.places].some(
    (w) => isSiteSaid(index, w.word),
  )
  if (on('namesBesideSite') && namesSite) {
    const unnamed = parsed.sites.filter(
      (w) =>
        !w.generic &&
        !w.literal &&
        !w.otherApp &&
        !isSiteSaid(index, w.word) &&
        !isSiteKind(w.stem) &&
        !index.knowsAsWord(index.expand(w)),
    )
    // (A name of two words or more: one word alone is likelier a slip of the request, `add`.)
    if (unnamed.length >= 2) {
      parsed.sites = parsed.sites.filter((w) => !unnamed.includes(w))
      parsed.values.push(...unnamed.map((w) => ({ ...w, literal: true, value: 'name' as const })))
    }
  }
  // `the [backup] flow`, `the [hourly sync] flow`: words no tool says right before a record's
  // noun are its name, a value; not when the name is said after (`the [talk] page for X`).
  const namedAfter = parsed.values.some((v) =>
    ['for', 'named', 'called', 'titled'].includes(v.after ?? ''),
  )
  const names = parsed.core.filter(
    (w, i) =>
      !namedAfter &&
      !w.literal &&
      !w.generic &&
      !w.modifier &&
      // (`the [revisions] of the page X`: what is asked of the record, no name of it; nor is
      // `a [rundown] of the pages`.)
      !w.ofHead &&
      !w.partitive &&
      !isNumberWord(w.word) &&
      !index.knowsAsWord(index.expand(w)) &&
      !index.isSiteName(w.word) &&
      // (`the [orphan] tiddlers`: before a plural, a kind of them, no one's name.)
      [parsed.core[i + 1], parsed.core[i + 2]].some(
        (n) => n !== undefined && isNamedRecord(n.stem) && !n.literal && !isPlural(n.word),
      ),
  )
  if (on('recordNames') && names.length) {
    parsed.core = parsed.core.filter((w) => !names.includes(w))
    parsed.values.push(...names.map((w) => ({ ...w, literal: true, value: 'name' as const })))
  }
}

/**
 * In place, by group: unknown modifiers become generic (`modifiers`); numbered places get the
 * sites holding them (`numberedPlaces`); a page of a site holding no pages shows the thing
 * (`pageShows`); modifiers get the objects of the tools saying them (`saidOf`); unknown non-nouns
 * beside a known word become generic (`nonNounGeneric`), as do screen places (`screenPlaces`);
 * words only some sites say get those sites (`saidBySites`).
 */
function markGenericWords(state: RuleState, parsed: ParsedIntent): void {
  const { on, index } = state
  // A modifier no tool says (`now`, `quick`, `still`) cannot tell tools apart: generic; nor can
  // how much of a thing is asked (`a [rundown] of the pages`).
  if (on('modifiers'))
    for (const w of parsed.core)
      if ((w.modifier || w.partitive) && !w.generic && !index.knowsAsWord(index.expand(w)))
        w.generic = true
  // `from issue #5`: the sites whose tools work on the record a numbered place names.
  if (on('numberedPlaces'))
    for (const w of parsed.places)
      if (w.numbered && !w.literal) {
        const holding = index.sitesHolding(w.stem)
        if (holding.length) w.heldBySites = holding
      }
  markPageShows(state, parsed)
  // What the tools that say a modifier work on (`verified` of AI tools, `old` of pages and
  // posts): it tells apart only tools of sites that hold such things (`score.ts`).
  if (on('saidOf'))
    for (const w of parsed.core)
      if (w.modifier && !w.generic) w.saidOf = index.objectsOfToolsSaying(index.expand(w))
  // So is any word of the object that is no noun and no tool says (`an [older] release`),
  // beside one a tool says: it cannot tell the tools apart, and it names no other object
  // (a relation does: `which packages [depend] on X`).
  const specific = parsed.core.filter((w) => !w.generic && !w.literal)
  const known = specific.filter((w) => index.knows(index.expand(w)))
  if (on('nonNounGeneric') && known.length)
    for (const w of specific)
      if (!known.includes(w) && !isWord(w.word, 'noun') && !w.relation) w.generic = true
  // `the button on the [left]`, `at the [top] of Node-RED`: where on a screen says no site.
  if (on('screenPlaces'))
    for (const w of parsed.sites) if (SCREEN_PLACES.has(w.word)) w.generic = true
  // `the blog's media library`, `on the wiki`: a word only some sites say of where they work.
  // (A word for any site, `web`, `online`, is no one site's.)
  if (on('saidBySites'))
    for (const w of [...parsed.core, ...parsed.places, ...parsed.sites])
      if (!w.literal && !w.generic && !GENERIC_STEMS.has(w.stem)) {
        const sites = index.sitesSaying(w.stem)
        if (sites.length) w.saidBySites = sites
      }
}

/**
 * `pageShows`, in place: `the Verdaccio page for package X` — a `page` of a site that holds no
 * pages becomes a modifier `shownOn`, and the thing it shows joins the core.
 */
function markPageShows(state: RuleState, parsed: ParsedIntent): void {
  const { index } = state
  // `the Verdaccio page for package X`, `the registry page for the logger package`: a page
  // of a site that holds no pages shows the thing (`the package page`, `parseIntent.ts`).
  const page = parsed.core.find((w) => w.word === 'page' && !w.shownOn)
  const pageHolders = page ? index.sitesHolding(PAGE_STEM) : []
  const shown =
    page &&
    [...parsed.core, ...parsed.values].find((w) => {
      if (w === page || w.literal || w.generic || PAGE_PARTS.has(w.stem)) return false
      // (After a search's `for` is what to look for: `search page contents for invoice`.)
      const after = w.after === 'of' || (w.after === 'for' && parsed.verb?.verbClass !== 'search')
      if (!parsed.core.includes(w) && !after) return false
      const holding = index.sitesHolding(w.stem)
      return holding.length > 0 && !holding.some((h) => pageHolders.includes(h))
    })
  if (state.on('pageShows') && page && shown) {
    Object.assign(page, { modifier: true, shownOn: true })
    if (!parsed.core.includes(shown)) {
      parsed.values = parsed.values.filter((w) => w !== shown)
      parsed.places = parsed.places.filter((w) => w !== shown)
      parsed.core.push(shown)
    }
  }
}

/** A literal word in the possessive (`Sitecall Wiki's`). */
function possessive(w: IntentWord): boolean {
  return w.literal && /['’]s$/.test(w.word)
}

/** `w` as a site's name (`siteName`), without a possessive's `'s`. */
function asSite(w: IntentWord): IntentWord {
  return possessive(w)
    ? {
        ...w,
        word: w.word.replace(/['’]s$/, ''),
        stem: w.stem.replace(/s$/, ''),
        siteName: true,
      }
    : { ...w, siteName: true }
}

/**
 * A name (`Redmine`, `node-red`) or a word English does not have (`redmine`) of a site `index`
 * holds; an English word that is also a host label (`jobs` of jobs.example) stays a word.
 * (`the Sitecall Wiki's files`: a site's name in the possessive names it too.)
 */
function namesSiteOf(index: ToolIndex, w: IntentWord): boolean {
  return w.literal
    ? index.isSiteName(w.stem) || (possessive(w) && index.isSiteName(w.stem.replace(/s$/, '')))
    : index.isSiteName(w.word) && !isWord(w.word, 'noun') && !isWord(w.word, 'verb')
}

/**
 * `context`: from the reasons (`clauses.context`), only what names a site, a second factor, and
 * for a request that only refers (`delete it`), the things and literal values the reasons name.
 * Returns the parse (a new one when a second factor is said), with sites and words added.
 */
function readContext(
  state: RuleState,
  parsed: ParsedIntent,
  clauses: { request: string; context: string | null },
): ParsedIntent {
  const { index } = state
  // From the reasons, only what names a site: a site's name, what people call it, or a word
  // only some sites say of where they work (`I can't edit anything on [the team wiki]`).
  if (!state.on('context') || !clauses.context) return parsed
  const c = parseIntent(clauses.context)
  // `log me in; it will want my 2FA code`: a sign-in that asks a code, wherever it is said.
  if (c.secondFactor) parsed = { ...parsed, secondFactor: true }
  // `'Untitled 2' is an empty tiddler, delete it please`: a request that names nothing
  // acts on what the reasons name.
  const refers = /\b(it|them|that|this|one)\b/i.test(clauses.request)
  if (refers && !parsed.core.some((w) => !w.generic && !w.literal)) {
    const known = (w: IntentWord) =>
      !w.generic && !w.literal && !w.modifier && index.knows(index.expand(w))
    // Said in passing, they may name what the tool works on, never cost as its object.
    // What the reasons are about (`[the post] X is out of date`), not what kind of value
    // they mention (`date`).
    const things = c.core.filter((w) => known(w) && !isKindWord(w.stem))
    parsed.core.push(...things.map((w) => ({ ...w, generic: true })))
    parsed.values.push(...c.values.filter((w) => w.literal))
  }
  const said = new Set(parsed.sites.map((w) => w.stem))
  // `where we run our notebooks`: a place described by what it holds is the site holding it.
  for (const clause of clauses.context.split(/\.\s+/))
    if (/^where\b/i.test(clause)) {
      const d = parseIntent(clause)
      for (const w of [...d.core, ...d.places, ...d.sites])
        if (!w.literal && !w.generic && !said.has(w.stem) && isWord(w.word, 'noun')) {
          const holding = index.sitesHolding(w.stem)
          if (!holding.length) continue
          said.add(w.stem)
          parsed.sites.push({ ...w, saidBySites: holding })
        }
    }
  // (A word of a site's name names it where the reasons say where, not who: `so [the team]
  // knows` is no `Team Wiki`.)
  const where = new Set([...c.places, ...c.sites])
  for (const w of [...c.core, ...c.places, ...c.sites, ...c.values]) {
    if (said.has(w.stem)) continue
    said.add(w.stem)
    if (namesSiteOf(index, w)) parsed.sites.push(asSite(w))
    else if (
      !w.literal &&
      !w.generic &&
      (isSiteKind(w.stem) ||
        index.isSiteName(w.word) ||
        (where.has(w) && isWord(w.word, 'noun') && index.namesASite(w.stem)))
    ) {
      const sites = index.sitesSaying(w.stem)
      parsed.sites.push(sites.length ? { ...w, saidBySites: sites } : w)
    } else if (
      // `I need to manage some posts, so sign me in`: the site signed in to holds them.
      parsed.verb?.verbClass === 'auth' &&
      !w.literal &&
      !w.generic &&
      isWord(w.word, 'noun')
    ) {
      const holding = index.sitesHolding(w.stem)
      if (holding.length) parsed.sites.push({ ...w, saidBySites: holding })
    }
  }
  return parsed
}

/**
 * In place, for a sign-in: the screens on the way become generic (`signInScreens`); beside a
 * named site, a site word no dictionary, site or tool has is who signs in, a value (`signInWho`).
 */
function readSignIn(state: RuleState, parsed: ParsedIntent): void {
  const { on, index } = state
  // `log in to the node-red [admin] UI`, `the notebook [page] asks for a password`: to sign in,
  // the screens on the way say nothing of where.
  if (on('signInScreens') && parsed.verb?.verbClass === 'auth')
    for (const w of [...parsed.core, ...parsed.sites, ...parsed.places])
      if (SIGN_IN_SCREENS.has(w.stem)) {
        w.generic = true
        delete w.saidBySites
      }
  // `redmine login jdoe`: beside the site's name, a word of a sign-in that no dictionary, site
  // or tool has is who signs in, a value (`log in to hulu` names a site nobody has).
  const siteNamed = [...parsed.sites, ...parsed.values, ...parsed.core].some(
    (w) => index.isSiteName(w.word) || index.isSiteName(w.stem) || isSiteKind(w.stem),
  )
  if (on('signInWho') && parsed.verb?.verbClass === 'auth' && siteNamed) {
    const who = parsed.sites.filter(
      (w) =>
        !w.literal &&
        !w.generic &&
        !isWord(w.word, 'noun') &&
        !isWord(w.word, 'verb') &&
        !index.isSiteName(w.word) &&
        !index.knows(index.expand(w)),
    )
    parsed.sites = parsed.sites.filter((w) => !who.includes(w))
    parsed.values.push(...who.map((w) => ({ ...w, literal: true })))
  }
}

/**
 * Site names last: a short unknown word abbreviating one site's name becomes that name
 * (`abbreviations`, in place); a site's short name inside a value joins the sites
 * (`hyphenSites`); words that name a site move to the sites (`namedMoved`, a new parse).
 */
function readSiteNames(state: RuleState, parsed: ParsedIntent): ParsedIntent {
  const { on, index } = state
  const named = (w: IntentWord) => namesSiteOf(index, w)
  // `rm open bugs`: a short word no dictionary, site or tool has, which abbreviates one
  // site's name, is that name.
  if (on('abbreviations'))
    for (const w of [...parsed.core, ...parsed.values, ...parsed.sites])
      if (
        !w.literal &&
        !w.value &&
        !named(w) &&
        !isWord(w.word, 'noun') &&
        !isWord(w.word, 'verb')
      ) {
        const site = index.knows(index.expand(w)) ? null : index.abbreviated(w.word)
        if (site) Object.assign(w, { word: site, stem: stem(site), generic: false })
      }
  // `sign in to wp-admin`, `the doku-wiki page`: a site's short name as part of a value.
  if (on('hyphenSites'))
    for (const w of parsed.values)
      for (const part of w.literal || w.value ? w.word.split('-') : [])
        if (part !== w.word && part.length >= 2 && named({ ...w, word: part, literal: false }))
          parsed.sites.push({
            word: part,
            stem: stem(part),
            generic: false,
            literal: false,
            siteName: true,
          })
  const moved = on('namedMoved')
    ? [parsed.core, parsed.values, parsed.places].flat().filter(named)
    : []
  if (!moved.length) return parsed
  const keep = (list: IntentWord[]) => list.filter((w) => !moved.includes(w))
  return {
    ...parsed,
    core: keep(parsed.core),
    values: keep(parsed.values),
    places: keep(parsed.places),
    sites: [...parsed.sites, ...moved.map(asSite)],
  }
}

/**
 * {@link parseRequest} of `intent`, kept in `state.parses` while what the index holds stays the
 * same (a parse asks the index which words tools say and which sites there are): a text searched
 * again is not parsed again (speed). Shared between searches, so nothing after the
 * parse may change it. At most {@link PARSES_KEPT} are kept.
 */
function parseKept(state: RuleState, intent: string): ParsedIntent {
  const { index } = state
  if (state.parses.version !== index.version)
    state.parses = { version: index.version, byText: new Map() }
  let parsed = state.parses.byText.get(intent)
  if (!parsed) {
    if (state.parses.byText.size >= PARSES_KEPT) state.parses.byText.clear()
    parsed = parseRequest(state, intent)
    state.parses.byText.set(intent, parsed)
  }
  return parsed
}

/**
 * The tools the rules' index finds for `intent` among `tools` (those that may reach 0.9), with
 * the intent's kept parse. Syncs `state.index` with `tools`.
 */
function candidatesOf(
  state: RuleState,
  intent: string,
  tools: readonly ToolSpec[],
): { parsed: ParsedIntent; entries: IndexEntry[] } {
  const { index } = state
  index.sync(tools)
  const parsed = parseKept(state, intent)
  // The head decides (score.ts): with specific object words, the head is one of them and a tool
  // must show it at MIN_HEAD_STRENGTH or more to reach 0.9; without, it may be a generic object
  // word, a value or a place, or be implicit (the site named, a sign-in, a typed value).
  const specific = parsed.core.filter((w) => !w.generic && !w.literal)
  // A place may name the tool's head when the intent asks for what it holds (`the files in
  // the data folder`: `asksMembers` in score.ts), so places are always looked up.
  const places = parsed.places.filter((w) => !w.literal)
  const heads = specific.length
    ? [...specific, ...places]
    : [...parsed.core, ...parsed.values, ...places].filter((w) => !w.literal)
  const verb = parsed.verb?.verbClass
  const keys = [
    ...(verb === 'auth' || verb === 'logout' ? [`verb:${verb}`] : []),
    ...parsed.values.flatMap((v) => (v.value ? [`kind:${v.value}`] : [])),
  ]
  const siteWords = specific.length ? [] : [...parsed.sites, ...parsed.core]
  const entries = index.candidates(
    heads.map((w) => index.expand(w)),
    siteWords.map((w) => (w.literal ? w.stem : w.word)),
    keys,
    siteWords.map((w) => index.expand(w)),
    parsed.core.filter((w) => w.ofHead && !w.literal).map((w) => index.expand(w)),
  )
  // `search [the tracker] for X`: what people call a site stands for it (`score.ts` isSiteWord).
  const kinds = [...parsed.core, ...parsed.sites, ...parsed.places].filter(
    (w) => !w.literal && isSiteKind(w.stem),
  )
  if (kinds.length) {
    const found = new Set(entries)
    for (const w of kinds) for (const e of index.toolsOfSitesSaying(w.stem)) found.add(e)
    return { parsed, entries: index.current([...found]) }
  }
  return { parsed, entries }
}

/**
 * {@link RuleScorer.scores}: rule scores of the tools the rules' index finds for `intent` and of
 * those whose ids are in `also` (in the order of `tools`), by tool id.
 */
function ruleScoresOf(
  state: RuleState,
  intent: string,
  tools: readonly ToolSpec[],
  also: ReadonlySet<string>,
): Map<string, RuleScore> {
  const { index } = state
  const { parsed, entries } = candidatesOf(state, intent, tools)
  const found = new Set(entries)
  const wanted = new Set(entries)
  // The tools of `also`, in the order of `tools`: looked up by id, not by a pass over every
  // tool.
  const more: IndexEntry[] = []
  for (const id of also) {
    const e = index.currentEntry(id)
    if (e && !wanted.has(e)) more.push(e)
  }
  more.sort((a, b) => a.position - b.position)
  for (const e of more) wanted.add(e)
  return scoreEntries(index, parsed, wanted, found)
}
