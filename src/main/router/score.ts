import {
  GENERIC_VERBS,
  isSiteKind,
  READ_CLASSES,
  roleSynonyms,
  verbAgreement,
  type VerbClass,
} from './lexicon'
import { isActVerb, sameAct } from './meaning/actions'
import {
  isKindOf,
  isMostlyNoun,
  isWord,
  sameAction as sameActionByMeaning,
  sameSense as sameSenseByMeaning,
} from './meaning/related'
import type { IntentWord, ParsedIntent } from './parseIntent'
import {
  DATA_FIELDS,
  HEAD_IN_FIELDS,
  HEAD_PENALTY,
  MIN_HEAD_STRENGTH,
  WEAK_HEAD_FIELDS,
  type Expanded,
  type Expansion,
} from './expansion'
import { GENERIC_STEMS, isPlural, stem } from './text'
import {
  FIELD_STRENGTH,
  kindStems,
  valueShape,
  type TermField,
  type ToolProfile,
} from './toolProfile'

/**
 * The penalties of the calibration (see `router.ts`): what one unaccounted-for intent word costs
 * from a base of 1. Chosen so that a single missing specific word (0.12) already leaves a tool
 * below the 0.9 threshold, while a few missing generic words (0.02 each) do not.
 */
const PENALTY = {
  /** The intent's head noun (what it wants to act on) is not the tool's. */
  head: HEAD_PENALTY,
  /** Any other specific word of the object, a `by` qualifier or an `on`/`at` site. */
  word: 0.12,
  /** A generic word (`results`, `data`, `site`...). */
  generic: 0.02,
  /**
   * A word that names where the site's tools work (`blog`, `project`), said by another tool of
   * the site: as good as the tool's own word, a trace less (ties go to the tool that says it).
   */
  siteContext: 0.005,
  /**
   * A word of the tool's own object, not its head, that the intent does not name (`version` of
   * `show version 1.1.0 of the package`): the tool may do more than was asked; a tie-breaker.
   */
  unnamedObject: 0.01,
  /** The tool's own head noun appears nowhere in the intent: it may be about something else. */
  toolHead: 0.1,
  /**
   * The intent's verb is a specific action (`rename`, `upload`) and the tool's is another one of
   * the same class (`edit`) while another tool of its site does the very act asked: it does
   * something else.
   */
  action: 0.15,
  /**
   * As `action`, but the act is a change of state (an update) named by the router's tables and
   * no tool of the site does it (`mark issue #1 as In Progress` of `set the status of issue #1`,
   * `turn off a flow` of `disable the flow`): the site's own tool for it is probably this one,
   * named by another verb that WordNet does not relate; alone it leaves the tool at 0.95, with
   * any other doubt under 0.9.
   */
  otherAction: 0.05,
  /** The intent names no object but its site, with a verb that needs none (`sign in to X`). */
  implicit: 0.03,
  /**
   * The intent asks its act by a verb that only says the class (`edit the tiddler`) and the tool
   * does a specific act of that class (`rename`, `tag`): another tool of the class may be the
   * plain one; a tie-breaker.
   */
  toolAction: 0.015,
  /** A value of a distinct kind (`2.1.0`) asked of a tool recorded with other kinds only. */
  valueKind: 0.05,
  /** An identifier of a shape the tool's slots were never recorded with; a tie-breaker. */
  valueShape: 0.03,
  /** A sign-in with a second factor asked of one without. */
  secondFactor: 0.1,
  /** A plain sign-in asked of one that also sends a second factor; a tie-breaker. */
  noSecondFactor: 0.02,
  /**
   * Where the thing asked is shown (`the package [page]`), said of a tool that lacks it on a site
   * with no pages of its own (where it has some, the page is a thing asked: the full cost).
   */
  shownOn: 0.04,
  /**
   * A word before the head that the tool lacks, where the head is a thing of the tool's site and
   * the tool takes a name (`run the [backup] flow`, `the [alerts] tab`): said in lower case, a
   * name of the thing reads like any other word; likely the name, not sure of it.
   */
  nameOfHead: 0.05,
  /**
   * The head found only through a WordNet synonym, with no other word of the tool or of its
   * site said: the synonym may be of another sense (`parcel` of a software `package`).
   */
  otherSense: 0.07,
  /** A list asked of a search, with nothing to search for: a list was meant. */
  noQuery: 0.05,
  /** Asked to look in records' text of a tool that looks at their names only, or lists them. */
  looksElsewhere: 0.1,
  /** Asked to look at names of a search of the whole text (it finds them, and more); a tie-breaker. */
  looksWider: 0.02,
  /**
   * A word that the tools of other sites say of where they work (`blog` of a WordPress), asked
   * of a tool of a site that does not (a MediaWiki): the intent probably meant the other site.
   */
  otherSiteWord: 0.05,
} as const

/** Words that say a thing is made, not sent from elsewhere (`a [new] [empty] notebook`). */
const MADE_NEW: ReadonlySet<string> = new Set(['new', 'empty', 'blank', 'fresh'])

/** Words of a person in a tool's answer or slots (`author`, `user`): what `who ...?` asks. */
const PERSON_STEMS: ReadonlySet<string> = new Set(
  ['user', 'author', 'editor', 'owner', 'creator', 'assignee', 'member', 'person', 'login'].map(
    stem,
  ),
)

/** How surely a read does what is asked of a record by a field of its answer (`the text of X`). */
const ANSWERED_FIELD = 0.95

/** What a place word absorbed by a slot costs (`in [paris]`): ranks the tool saying it first. */
const ABSORBED_WORD = 0.01

/** What a record's name is called (`title`, `heading`): what a rename changes. */
const NAME_STEMS: ReadonlySet<string> = new Set(
  ['name', 'title', 'heading', 'headline', 'caption', 'label'].map(stem),
)

/** A head found in the tool's URL path this strongly (its own word there) names the tool's object. */
const PATH_HEAD = 0.85

/** What a record says (`text`, `body`): what an edit changes, never what a rename does. */
const CONTENT_STEMS: ReadonlySet<string> = new Set(
  ['text', 'content', 'contents', 'body', 'wording'].map(stem),
)

/** Kinds of value that say what a tool works on (`values.ts`): a release is no file name. */
const DISTINCT_KINDS: ReadonlySet<string> = new Set([
  'version',
  'file',
  'url',
  'email',
  'date',
  'path',
])

/** A site word found only as part of the site's name (`wiki` of `dokuwiki`) counts this much. */
const SITE_LABEL = 0.85

/**
 * What a search of its whole site (`ToolProfile.searchesSite`) shows of an object of some tool of
 * its site (`find [issues] that mention login` of `search the Website project for X`).
 */
const SITE_OBJECT = 0.9

/** Verb agreement at least this when many are read (`show all the packages`) of a list. */
const MANY_AS_LIST_FACTOR = 0.97

/** Verb agreement at most this when many are asked of a tool that reads one (`list orders` of `track an order`). */
const ONE_ITEM_FACTOR = 0.85

/** Score at most this when the verbs contradict: below the 0.9 threshold whatever else agrees. */
const CONTRADICTION_CAP = 0.6
/**
 * The score is multiplied by this when the intent names a site by the name of some tool's site
 * (`upload a file to MediaWiki`) and it is not this tool's: the intent asked for another site,
 * so whatever else agrees stays under the threshold (1 × 0.75), and the order among such tools
 * is kept for `rank`.
 */
const OTHER_SITE_FACTOR = 0.75

/**
 * Verb agreement at most this when the intent's verb serves the tool only through another class
 * its meaning allows (`put [a file] onto the server` of an upload: `put` is first `set`).
 */
const ALTERNATIVE_FACTOR = 0.97

/** Words after which a value is what a search looks for (`for X`, `named X`, `mentioning X`). */
const QUERY_OPENERS: ReadonlySet<string> = new Set(
  ['for', 'about', 'matching', 'named', 'called', 'titled', 'like', 'whose', 'with', 'where']
    .concat(['mention', 'mentions', 'mentioning', 'contain', 'contains', 'containing'])
    .concat(['say', 'says', 'saying']),
)

/** Words after which a value says how much of a list is asked (`including the private ones`). */
const SCOPE_OPENERS: ReadonlySet<string> = new Set(['including', 'incl', 'excluding', 'except'])

/** Words after which a value names a record (`the post [called] Spam`). */
const NAMING: ReadonlySet<string> = new Set(['called', 'named', 'titled', 'entitled'])

/** Kinds of value that name one item by themselves (`#42`, `date-utils@1.2.0`). */
const ONE_ITEM_KINDS: ReadonlySet<string> = new Set(['number', 'version', 'identifier'])

/** Nouns that name a list and ask for many (`the prefix [index] for Help`, `an inventory`). */
const MANY_NOUNS = ['list', 'index', 'inventory', 'catalog', 'catalogue']

/** Words that ask for many of what they quantify (`every page`). */
const QUANTIFIERS: ReadonlySet<string> = new Set(['all', 'every', 'each', 'any', ...MANY_NOUNS])

/** Nouns that name a list of things (`the prefix index`, `a listing`): what a list tool gives. */
const LIST_NOUNS: ReadonlySet<string> = new Set([...MANY_NOUNS, 'listing', 'directory'])

/** Score at most this when the intent names nothing to act on (`search`). */
const VAGUE_CAP = 0.8

/** How an intent word was accounted for. */
interface WordEvidence {
  word: string
  part: 'core' | 'qualifier' | 'value' | 'place' | 'site'
  /** `matched`: a tool word; `absorbed`: a value a text slot takes; `missing`: neither. */
  outcome: 'matched' | 'absorbed' | 'missing'
  /** Where it was found (`intent`, `name`, `slot`...) and through what (`synonym`...). */
  field?: TermField
  via?: Expansion['via'] | 'role' | 'site_label' | 'site_object'
  /** How strongly the tool shows it (0 to 1). */
  strength: number
  penalty: number
}

export interface MatchEvidence {
  verb: { intent: VerbClass | null; tool: VerbClass; factor: number; contradicts: boolean }
  /** The verbs' own actions (`rename`, `edit`): a specific action asked of another one. */
  action: { intent: string | null; tool: string | null; agrees: boolean }
  head: string | null
  toolHead: string | null
  words: WordEvidence[]
  /** Why the score was capped, when it was. */
  cap?: 'contradiction' | 'vague'
}

export interface ToolScore {
  score: number
  /** Share of the tool's intent words the intent used: breaks ties between equal scores. */
  closeness: number
  /** How many of the tool's intent words the intent did not use: fewer breaks closeness ties. */
  unused: number
  evidence: MatchEvidence
}

interface Found {
  strength: number
  field: TermField
  via: NonNullable<WordEvidence['via']>
}

/**
 * How strongly the tool shows `w`: the best of its expansions (its stem, lemmas, synonyms,
 * vectors: `toolIndex.ts`) found among the tool's words, times that word's field strength; a slot
 * that takes a `by` role (x0.95); or a part of its site's name ({@link SITE_LABEL}).
 */
function find(
  profile: ToolProfile,
  w: IntentWord,
  roles: boolean,
  expanded: Expanded,
): Found | null {
  // Plain loops, no closure: this runs for every intent word of every candidate tool.
  let best: Found | null = null
  for (const [s, e] of expanded) {
    const term = profile.terms.get(s)
    // Page titles and slot values are data as much as vocabulary: only the word itself counts.
    // (A site's name by its own word only: `text` is no synonym of the `word` of WordPress.)
    const byName = term?.field !== 'site' || e.via === 'word' || e.via === 'lemma'
    if (term && byName && (e.via !== 'vector' || !DATA_FIELDS.has(term.field))) {
      const strength = term.strength * e.strength
      if (!best || strength > best.strength) best = { strength, field: term.field, via: e.via }
    }
  }
  // A search of the whole site finds what its tools are about (things, not their modifiers);
  // the site's runner runs them (`run the nightly [flow]` of `trigger the inject node X`).
  // (The runner's own words come first: `import` of the node named "run nightly import".)
  if ((profile.searchesSite || (profile.verb === 'run' && !best)) && !w.literal && !w.modifier)
    for (const [s, e] of expanded)
      if (e.via !== 'vector' && profile.siteObjects.has(s)) {
        const strength = SITE_OBJECT * e.strength
        if (!best || strength > best.strength)
          best = { strength, field: 'intent', via: 'site_object' }
      }
  if (roles)
    for (const s of roleSynonyms(w.stem))
      if (profile.slotStems.has(s)) {
        const strength = FIELD_STRENGTH.slot * 0.95
        if (!best || strength > best.strength) best = { strength, field: 'slot', via: 'role' }
      }
  // `parcel` in `parcelpost`, `wiki` in `dokuwiki`: a site named by a part of its name.
  const bare = w.literal ? w.stem : w.word
  if (bare.length >= 4 && (!best || SITE_LABEL > best.strength))
    for (const l of profile.siteLabels)
      if (l !== bare && (l.startsWith(bare) || l.endsWith(bare))) {
        best = { strength: SITE_LABEL, field: 'site', via: 'site_label' }
        break
      }
  return best
}

/**
 * Scores one tool for one parsed intent, from 0 to 1 (see `router.ts` for the calibration):
 * `base = 1 − Σ penalties` of the intent words the tool cannot account for, times the verb
 * agreement, capped at 0.6 on a contradicting verb and at 0.8 when the intent names nothing.
 * `expand` gives each intent word's expansions by meaning (`ToolIndex.expand`).
 * The stages run in this order on one {@link ScoreContext} (a word's `find` is cached by the
 * first stage that asks, and penalties add up in order).
 */
export function scoreTool(
  parsed: ParsedIntent,
  profile: ToolProfile,
  expand: (w: IntentWord, pos?: 'noun' | 'verb') => Expanded,
): ToolScore {
  const { intent, alternative } = readForTool(parsed, profile, expand)
  // The per-tool state lives in one record handed to module functions: closures made here for
  // every candidate tool cost allocation and, under tsx (esbuild keepNames), a `__name` call each.
  const ctx: ScoreContext = {
    profile,
    expand,
    found: new Map(),
    evidence: [],
    intent,
    made: madeThing(intent),
    core: [],
    sites: [],
    head: null,
    listVerb: intent.verb === null || READ_CLASSES.includes(intent.verb.verbClass),
    penalty: 0,
  }
  splitSites(ctx)
  accountWords(ctx)
  const named = addHeadPenalties(ctx)
  const said = addToolHeadPenalty(ctx, named)
  addLookPenalties(ctx, said)
  const actionAgrees = addActionPenalties(ctx)
  addValuePenalties(ctx)
  const verb = verbFit(ctx, named, said, alternative)
  return finalScore(ctx, verb, said, actionAgrees)
}

/**
 * Reads the parsed intent and the tool; returns the intent as asked of this tool: a plain verb
 * with the noun of the tool's own act takes the tool's act (`namesToolAct`), and the verb takes
 * the class it has for this tool (`askedClass`; `alternative` when that differs).
 */
function readForTool(
  parsed: ParsedIntent,
  profile: ToolProfile,
  expand: (w: IntentWord, pos?: 'noun' | 'verb') => Expanded,
): { intent: ParsedIntent; alternative: boolean } {
  // `add a [tag] to the tiddler` asks to tag it: a plain verb with the noun of the tool's own
  // act (`tag`, `label`, `attachment` of `attach`) asks that act.
  if (namesToolAct(parsed, profile, expand))
    parsed = {
      ...parsed,
      verb: { word: parsed.verb!.word, verbClass: profile.verb },
      action: profile.action,
      actionGuessed: false,
    }
  // The intent read with the class its verb has for this tool (`askedClass`).
  const askedOfTool = askedClass(parsed.verb, profile.verb)
  const alternative = parsed.verb !== null && askedOfTool !== parsed.verb.verbClass
  const intent: ParsedIntent = alternative
    ? { ...parsed, verb: { word: parsed.verb!.word, verbClass: askedOfTool! } }
    : parsed
  return { intent, alternative }
}

/**
 * Reads the intent's sites and core; sets `ctx.sites` (its sites and the core words that name
 * this tool's site), `ctx.core` (the other core words) and `ctx.head` (`pickHead`).
 */
function splitSites(ctx: ScoreContext): void {
  const { intent } = ctx
  const core: IntentWord[] = []
  const sites: IntentWord[] = [...intent.sites]
  for (const w of intent.core) if (isSiteWord(ctx, w)) sites.push(w)
  for (const w of intent.core) if (!isSiteWord(ctx, w)) core.push(w)
  ctx.core = core
  ctx.sites = sites
  ctx.head = pickHead(core, intent, ctx)
}

/**
 * Accounts for every intent word in order (core, qualifiers, sites, values, places) with its
 * cost and whether a slot may absorb it; appends to `ctx.evidence` (`accountWord`).
 */
function accountWords(ctx: ScoreContext): void {
  const { intent, profile, core, sites, head } = ctx
  for (const w of core) accountWord(ctx, w, 'core', false, coreCost(ctx, w))
  for (const w of intent.qualifiers)
    accountWord(ctx, w, 'qualifier', false, w.generic ? PENALTY.generic : PENALTY.word)
  // A site the intent names by the name of some tool's site is never a value to absorb.
  // One signs in to a site by its name, never to whatever a value may be (`sign in to wp-admin`).
  const signingIn = intent.verb?.verbClass === 'auth'
  for (const w of sites)
    accountWord(
      ctx,
      w,
      'site',
      w.literal && !w.siteName && !signingIn,
      w.generic ? PENALTY.generic : PENALTY.word,
    )
  // Values and places are what to look for: a word the tool does not know is fine when a slot
  // can take it (`for [writing]`, `in [paris]`, `budget.xlsx`).
  for (const [list, part] of [
    [intent.values, 'value'],
    [intent.places, 'place'],
  ] as const)
    for (const w of list) {
      const cost = w === head ? PENALTY.head : w.generic ? PENALTY.generic : PENALTY.word
      // Without a head (`upload plot-9-map.png to the media library`), a place says what the
      // tool works on: it must be the tool's.
      // One signs in as someone with the login's stored secrets (`log in as ada`), not a slot.
      const signIn = intent.verb?.verbClass === 'auth' && profile.verb === 'auth'
      // (`from issue #5` of a file server: a record only other sites hold is none of its.)
      const elsewhere =
        w.heldBySites !== undefined && !w.heldBySites.includes(profile.tool.siteHost)
      const free =
        (absorbable(w, profile) || (signIn && part === 'value')) &&
        !w.owned &&
        !w.related &&
        !w.named &&
        !elsewhere &&
        w !== head &&
        (head !== null || part === 'value')
      accountWord(ctx, w, part, free, cost)
    }
}

/** What the head stage found of how the intent names the tool's object. */
interface HeadFit {
  /** With no head, the intent still names what the tool does (a sign-in, a typed value...). */
  implicit: boolean
  /** A value of the kind the tool was recorded with names the object. */
  typedValue: boolean
  /** The intent asks `everything` or `all`. */
  everything: boolean
}

/**
 * Sets `ctx.penalty` to the sum of the words' penalties, then adds (in order) those of a link by
 * another sense only, a `who` the tool cannot answer, a bulk act of a tool of one, and of no
 * head (less when the intent names the tool's act without one: `implicit`).
 */
function addHeadPenalties(ctx: ScoreContext): HeadFit {
  const { intent, profile, evidence, sites, head } = ctx
  ctx.penalty = evidence.reduce((sum, e) => sum + e.penalty, 0)
  // Signing in is done to a site, not to a thing; and `search Redmine for "timeout"` searches
  // what the named site holds: with the verbs agreeing, the site stands for the object.
  const asked = intent.verb?.verbClass ?? null
  // A generic word (`web` of "a personal web notebook") names no site.
  // So does what people call it by what it holds (`search [the tracker] for X`).
  const siteNamed =
    // (By a word of its names: `wp` of a slot `wpReason` names no site.)
    evidence.some(
      (e) =>
        e.part === 'site' &&
        e.outcome === 'matched' &&
        (e.field === 'site' || e.field === 'title' || e.field === 'intent') &&
        // (Nor by a vector's likeness: `on 12 March [returning] the 19th` names no site.)
        e.via !== 'vector' &&
        !GENERIC_STEMS.has(stem(e.word)),
    ) || sites.some((w) => !w.literal && isSiteKind(w.stem) && profile.siteVocabulary.has(w.stem))
  // `track my parcel` of a registry's `package`: a thesaurus's synonym as the only link, with
  // no other word of the tool or its site, may be another sense of the word (a parcel posted).
  const onlyBySense =
    head !== null &&
    !siteNamed &&
    evidence.every((e) => e.word === head.word || e.outcome !== 'matched') &&
    evidence.some((e) => e.word === head.word && e.via === 'thesaurus')
  if (onlyBySense) ctx.penalty += PENALTY.otherSense
  // `who last edited the page X?` of a tool whose answer names no person.
  if (intent.asksWho && ![...PERSON_STEMS].some((p) => profile.terms.has(p)))
    ctx.penalty += PENALTY.word
  // `delete every page in archive:` of a tool that deletes one.
  if (intent.bulk && !/\b(?:all|every|each|bulk|batch)\b/i.test(profile.tool.intent))
    ctx.penalty += PENALTY.word
  // `rename budget.xlsx`: a value of the kind the tool was recorded with names the object.
  // (A number names nothing by itself: `what's 17% of 240` is no issue.)
  // (A file names the object of a tool of files only: `save the flow as x.json` names a flow.)
  const typedValue = intent.values.some(
    (v) =>
      v.value &&
      v.value !== 'number' &&
      profile.valueKinds.has(v.value) &&
      (!FILE_KINDS.has(v.value) || profile.head === null || FILE_HEADS.has(profile.head)),
  )
  // `MediaWiki: retitle Planning to Planning 2026`: the site's one tool for that very act.
  const sameSpecificAction =
    intent.action !== null &&
    !GENERIC_VERBS.has(intent.action) &&
    profile.action !== null &&
    sameAction(intent.action, profile.action)
  // No verb asks for a read (`what does readme.txt say`).
  const sameVerb = asked === profile.verb || (asked === null && READ_CLASSES.includes(profile.verb))
  // `show everything under team:`: all a named thing holds is what a list of it shows.
  const everything = intent.core.some((w) => w.word === 'everything' || w.word === 'all')
  const listsNamed =
    profile.verb === 'list' && everything && intent.values.some((v) => v.literal && !v.siteName)
  const implicit =
    !head &&
    (sameVerb || (listsNamed && READ_CLASSES.includes(asked ?? 'read'))) &&
    (asked === 'auth' ||
      asked === 'logout' ||
      typedValue ||
      listsNamed ||
      (siteNamed && (asked === 'search' || asked === 'list')) ||
      // (The site's tool for that very act, unless what it is done to is none of the tool's:
      // `close project website` of a tool that sets an issue's status.)
      (siteNamed && sameSpecificAction && !ctx.core.some((w) => otherThingOfSite(ctx, w))) ||
      // `MediaWiki: delete Sandbox`: a thing named on a named site, by the site's tool's act.
      // (`redmine #42`: no verb asks to read it.)
      // (A version or a decimal names no record: `upgrade MediaWiki from 1.41 to 1.42`.)
      (siteNamed &&
        intent.core.every((w) => w.generic) &&
        intent.values.some(
          (v) =>
            v.literal &&
            !v.siteName &&
            v.value !== 'version' &&
            !(v.value === 'number' && /[.,]/.test(v.word)),
        )))
  if (!head) ctx.penalty += implicit ? PENALTY.implicit : PENALTY.head
  return { implicit, typedValue, everything }
}

/** The intent's words as the later stages read them. */
interface SaidWords {
  /** Every word: core, qualifiers, values, places, sites. */
  all: IntentWord[]
  allStems: Set<string>
  /** A list tool asked by the container it lists (`the namespace archive`). */
  listsPlace: boolean
}

/**
 * Adds the penalty of a tool whose head the intent does not name (by its words, its site's
 * objects, a named thing, a value's kind, a write's path, a listed place, a list noun).
 */
function addToolHeadPenalty(ctx: ScoreContext, named: HeadFit): SaidWords {
  const { intent, profile, expand, core, sites, head } = ctx
  const { implicit, typedValue } = named
  // (`concat`, not `flat`: this runs for every candidate tool.)
  const all = core.concat(intent.qualifiers, intent.values, intent.places, sites)
  const allStems = new Set(all.map((w) => w.stem))
  // The tool's head is named by the intent, or the intent's head is a word of the tool's own
  // object (`draft` of `a draft post`), not a word it only mentions (`in the Website project`).
  // A list of what a container holds, asked by the container (`the namespace archive`).
  const listsPlace =
    head !== null &&
    profile.verb === 'list' &&
    [...expand(head).entries()].some(([s, x]) => x.strength >= 0.9 && profile.placeStems.has(s))
  const toolHeadNamed =
    implicit ||
    typedValue ||
    profile.head === null ||
    all.some(
      (w) => !w.literal && (expand(w).has(profile.head!) || profile.headAliases.has(w.stem)),
    ) ||
    // A search or list over the site finds what the site holds (`which [tiddlers] ...` of
    // `search the wiki for Recipe`).
    (head !== null &&
      (profile.verb === 'search' || profile.verb === 'list') &&
      [...expand(head).keys()].some((s) => profile.siteObjects.has(s))) ||
    // `run the nightly [import]` of `trigger the inject node "run nightly import"`: the name of
    // the thing it works on names it.
    (head !== null && findCached(ctx, head, false)?.field === 'named') ||
    // `run the hourly sync [flow]` of a runner: what the site holds, the runner runs.
    (head !== null &&
      profile.verb === 'run' &&
      findCached(ctx, head, false)?.via === 'site_object') ||
    // `upload a [file]` of a tool recorded with `Sunset.png`: the kind of its value is its object.
    (head !== null && findCached(ctx, head, false)?.field === 'kind') ||
    // `create an [issue]` of `create a bug` posting to `/issues.json`: a write's path names the
    // collection it writes to (a read's often names its back end: `/indexes/...`).
    (head !== null &&
      !READ_CLASSES.includes(profile.verb) &&
      findCached(ctx, head, false)?.field === 'path' &&
      findCached(ctx, head, false)!.strength >= PATH_HEAD) ||
    (head !== null && [...expand(head).keys()].some((s) => profile.objectStems.has(s))) ||
    // `show the contents of the namespace archive` of `list the pages in the X namespace`.
    listsPlace ||
    // `the prefix [index] for Help`, `a [list] of X`: a list names what a list tool lists.
    (head !== null && profile.verb === 'list' && LIST_NOUNS.has(head.word))
  if (!toolHeadNamed) ctx.penalty += PENALTY.toolHead
  return { all, allStems, listsPlace }
}

/**
 * Adds (in order) the penalties of a second factor asked of a sign-in without one (or the
 * other way), of a read that looks in names when text is asked (or wider), and of each object
 * word of the tool the intent does not name.
 */
function addLookPenalties(ctx: ScoreContext, said: SaidWords): void {
  const { intent, profile, expand } = ctx
  const asked = intent.verb?.verbClass ?? null
  // `log in with two-factor` of a plain sign-in, `log in` of one that asks a code too.
  if (profile.verb === 'auth' && intent.verb?.verbClass === 'auth') {
    if (intent.secondFactor && !profile.secondFactor) ctx.penalty += PENALTY.secondFactor
    else if (!intent.secondFactor && profile.secondFactor) ctx.penalty += PENALTY.noSecondFactor
  }
  // `pages that mention X` of a tool that looks at names, `page names with X` of one that looks
  // at the whole text.
  if (READ_CLASSES.includes(profile.verb)) {
    const text = intent.looksIn.has('text') && !intent.looksIn.has('name')
    const name = intent.looksIn.has('name') && !intent.looksIn.has('text')
    // A list looks at no text either (`which pages mention X` of a namespace's listing), when
    // something is looked for (`the contents of the namespace X` asks what it holds).
    const lookedFor =
      asked === 'search' || intent.values.some((v) => QUERY_OPENERS.has(v.after ?? ''))
    if (text && (profile.searchesNames || (profile.verb === 'list' && lookedFor)))
      ctx.penalty += PENALTY.looksElsewhere
    // Nor does a list look at names it is not limited to (`pages that have X in their name`).
    else if (name && profile.verb === 'list' && !profile.searchesNames)
      ctx.penalty += PENALTY.looksElsewhere
    else if (name && !profile.searchesNames && profile.verb === 'search')
      ctx.penalty += PENALTY.looksWider
  }
  // `show version 1.1.0 of the package` is more than `what do we know about the package X` asks.
  for (const s of profile.objectStems)
    if (
      s !== profile.head &&
      !profile.siteVocabulary.has(s) &&
      !profile.siteLabels.some((l) => l.includes(s)) &&
      !said.all.some((w) => !w.literal && expand(w).has(s))
    )
      ctx.penalty += PENALTY.unnamedObject
}

/**
 * Adds (in order) the penalties of a role set as a rename, a file's text changed by a rename,
 * and of an action that does not agree with the tool's (less for a lenient change of state);
 * returns whether the actions agree (`agreesInAction`).
 */
function addActionPenalties(ctx: ScoreContext): boolean {
  const { intent, profile, expand, head } = ctx
  const actionAgrees = agreesInAction(intent, profile, expand)
  // `set x.png as the featured image of Y`, `make X a sticky post`: set as a role, said in
  // words, not renamed to a name (`set X as 'Y'`, `set X as the new name 'Y'`).
  if (
    profile.action === 'rename' &&
    intent.action !== null &&
    GENERIC_VERBS.has(intent.action) &&
    intent.values.some((v) => v.after === 'as' && !v.literal && !NAME_STEMS.has(v.stem)) &&
    !intent.values.some((v) => v.literal && v.after === 'to')
  )
    ctx.penalty += PENALTY.word
  // `change the text of notes.md to X` of a rename: what a file says is no name of it.
  if (
    profile.action === 'rename' &&
    intent.verb?.verbClass === 'update' &&
    head !== null &&
    head.ofHead &&
    CONTENT_STEMS.has(head.stem)
  )
    ctx.penalty += PENALTY.word
  // Only a change of state goes by many names (`mark`, `set`, `turn off`, `disable`); a new
  // thing's verb names what it makes (`subscribe`, `publish`, `schedule` are no `create` of a
  // draft).
  const lenient =
    intent.verb?.verbClass === 'update' &&
    !intent.actionGuessed &&
    // Two acts the table knows apart are two acts (`assign` is no `set`).
    !(profile.action !== null && isActVerb(intent.action!) && isActVerb(profile.action)) &&
    ![...profile.siteActions].some((a) => sameSense(intent.action!, a)) &&
    // A more general act than the tool's (`move` of `set`) may be any other of its kinds.
    !(profile.action !== null && isKindOf(profile.action, intent.action!))
  if (!actionAgrees) ctx.penalty += lenient ? PENALTY.otherAction : PENALTY.action
  else if (
    intent.action !== null &&
    GENERIC_VERBS.has(intent.action) &&
    profile.action !== null &&
    !GENERIC_VERBS.has(profile.action) &&
    intent.verb?.verbClass === profile.verb &&
    !sameAction(intent.action, profile.action)
  )
    ctx.penalty += PENALTY.toolAction
  return actionAgrees
}

/**
 * Adds (in order) the penalties of an object of a kind the tool takes no value of, a value of
 * a distinct kind the tool was never recorded with, and an identifier of another shape.
 */
function addValuePenalties(ctx: ScoreContext): void {
  const { intent, profile } = ctx
  // `copy [budget.xlsx] into the archive folder`: the object is a file, so a tool that takes no
  // file and is about something else (a folder) does not act on it.
  const objectKindMissed = intent.objectKinds.some(
    (k) =>
      kindStems(k).length > 0 &&
      !profile.valueKinds.has(k) &&
      !(profile.head && kindStems(k).includes(profile.head)),
  )
  if (objectKindMissed) ctx.penalty += PENALTY.word
  // `view lunar-cal [2.1.0]`: a value of a kind only some tools were recorded with (a release, a
  // file, a link) is asked of a tool that takes values of other kinds only.
  const kindMissed = intent.values.some(
    (v) =>
      v.value !== undefined &&
      DISTINCT_KINDS.has(v.value) &&
      profile.valueKinds.size > 0 &&
      !profile.valueKinds.has(v.value),
  )
  if (kindMissed) ctx.penalty += PENALTY.valueKind
  // `projects:launch_plan` is shaped like the page ids a DokuWiki tool was recorded with, not
  // like a MediaWiki title: an identifier of a shape the tool was never given was meant for
  // another (`lunar-cal` of a tool recorded with `lunar-cal` is a fit; of one given `lunar`, less).
  const shapeMissed = intent.values.some(
    (v) => v.value === 'identifier' && !profile.valueShapes.has(valueShape(v.word)),
  )
  if (shapeMissed) ctx.penalty += PENALTY.valueShape
}

type VerbFit = ReturnType<typeof verbAgreement>

/**
 * The verbs' agreement (`verbAgreement`) adjusted by how many things the intent asks for: the
 * members of a container, many of a one-item read, many as a list, one of a search or list, an
 * alternative reading. Adds the penalty of a list asked of a search with nothing to look for.
 */
function verbFit(
  ctx: ScoreContext,
  named: HeadFit,
  said: SaidWords,
  alternative: boolean,
): VerbFit {
  const { intent, profile, expand, core, head, listVerb } = ctx
  const { everything } = named
  const { listsPlace } = said
  const asked = intent.verb?.verbClass ?? null
  const verb = verbAgreement(intent.verb?.verbClass ?? null, profile.verb)
  // `show all the packages`, `what files do I have`: a read of many is a list.
  // `every page`, `all packages`: a quantifier asks for many whatever the noun's number.
  const quantified = intent.core.some((w) => QUANTIFIERS.has(w.word))
  // (`show everything under team:`: all of what a thing holds, with no noun, is many too.)
  const asksMany =
    listVerb &&
    ((head !== null && !head.generic && (isPlural(head.word) || quantified)) ||
      (head === null && everything))
  // What a container holds (`the files in the data folder`) is what reading it shows.
  // (`the contents of the namespace X`: what a place a list lists holds.)
  const membersAsked =
    head !== null &&
    (asksMembers(ctx, head) ||
      (listsPlace && intent.core.some((w) => w.word === 'contents' || w.word === 'content')))
  if (membersAsked && !verb.contradicts) verb.factor = 1
  else if (asksMany && profile.verb === 'read' && profile.headSingular && !verb.contradicts)
    verb.factor = Math.min(verb.factor, ONE_ITEM_FACTOR)
  // A read of many (`show all the packages`) is what a list does, more than a search.
  if (asksMany && profile.verb === 'list' && !verb.contradicts)
    verb.factor = Math.max(verb.factor, MANY_AS_LIST_FACTOR)
  // `enumerate every package, including the private ones`: a list asked gives a search nothing
  // to look for (no `for X`, `named X`, no value by its form).
  // (`show me every package`, `what packages do we host?`: many asked by a read or a question.)
  const readsMany =
    (asked === null || asked === 'read' || asked === 'list') &&
    (quantified || (head !== null && head.asked === true && isPlural(head.word)))
  const listAsked = asked === 'list' || readsMany
  if (
    listAsked &&
    profile.verb === 'search' &&
    // (`including the private ones` says how much of the list, not what to look for.)
    !intent.values.some(
      (v) =>
        !SCOPE_OPENERS.has(v.after ?? '') &&
        (v.literal || v.value !== undefined || QUERY_OPENERS.has(v.after ?? '')),
    )
  )
    ctx.penalty += PENALTY.noQuery
  // And the other way: the details of one item (`show the post X`, `what do we know about the
  // package X`) are not a search or a list.
  const asksOne =
    (intent.verb === null || intent.verb.verbClass === 'read') &&
    ((head !== null && !head.generic && !isPlural(head.word) && !quantified) ||
      // `redmine #42`, `verdaccio date-utils@1.2.0`: one item named by its id alone.
      (head === null &&
        intent.verb === null &&
        core.length === 0 &&
        intent.values.length === 1 &&
        ONE_ITEM_KINDS.has(intent.values[0]!.value ?? '')))
  // A list of what one thing holds (`what's in the invoices folder`) reads that one thing.
  const listsOne =
    listsPlace ||
    (profile.headSingular &&
      profile.head !== null &&
      head !== null &&
      expand(head).has(profile.head))
  if (
    asksOne &&
    !listsOne &&
    (profile.verb === 'search' || profile.verb === 'list') &&
    !verb.contradicts
  )
    verb.factor = Math.min(verb.factor, ONE_ITEM_FACTOR)
  if (alternative) verb.factor = Math.min(verb.factor, ALTERNATIVE_FACTOR)
  return verb
}

/**
 * Reads the summed penalty, the verb's fit and the words; returns the score (times the other
 * site factor, capped on a contradiction or a vague intent), its closeness and evidence.
 */
function finalScore(
  ctx: ScoreContext,
  verb: VerbFit,
  said: SaidWords,
  actionAgrees: boolean,
): ToolScore {
  const { intent, profile, expand, evidence, sites, head } = ctx
  const { all, allStems } = said
  let score = Math.max(0, 1 - ctx.penalty) * (verb.contradicts ? 1 : verb.factor)
  // (An app no tool is on is matched by no tool, whatever its word means: `Box`, `Notion`.)
  const otherSite = sites.some(
    (w) =>
      w.otherApp ||
      (w.siteName && !evidence.some((e) => e.word === w.word && e.outcome === 'matched')),
  )
  if (otherSite) score *= OTHER_SITE_FACTOR
  let cap: MatchEvidence['cap']
  if (verb.contradicts && score > CONTRADICTION_CAP) {
    score = CONTRADICTION_CAP
    cap = 'contradiction'
  }
  const vague = allStems.size === 0
  if (vague && score > VAGUE_CAP) {
    score = VAGUE_CAP
    cap = 'vague'
  }
  const verbStem = intent.verb ? stem(intent.verb.word) : null
  const used = [...profile.intentStems].filter(
    (s) => allStems.has(s) || s === verbStem || all.some((w) => expand(w).has(s)),
  )
  return {
    score: round(score),
    closeness: profile.intentStems.size ? used.length / profile.intentStems.size : 0,
    unused: profile.intentStems.size - used.length,
    evidence: {
      verb: { intent: intent.verb?.verbClass ?? null, tool: profile.verb, ...verb },
      action: { intent: intent.action, tool: profile.action, agrees: actionAgrees },
      head: head?.word ?? null,
      toolHead: profile.head,
      words: evidence,
      ...(cap ? { cap } : {}),
    },
  }
}

/** One tool's scoring state, shared by the stages and helpers of {@link scoreTool}. */
interface ScoreContext {
  profile: ToolProfile
  expand: (w: IntentWord, pos?: 'noun' | 'verb') => Expanded
  /** `find` per intent word, computed once (the first call's `roles` decides). */
  found: Map<IntentWord, Found | null>
  evidence: WordEvidence[]
  /** The intent read with the class its verb has for this tool. */
  intent: ParsedIntent
  /** The one thing the intent asks to make, if any (`madeThing`). */
  made: IntentWord | null
  core: IntentWord[]
  /** The intent's sites and the core words that name this tool's site (`splitSites`). */
  sites: IntentWord[]
  head: IntentWord | null
  /** The intent asks a read (or has no verb). */
  listVerb: boolean
  /** The penalties so far, added in stage order. */
  penalty: number
}

function findCached(ctx: ScoreContext, w: IntentWord, roles: boolean): Found | null {
  let f = ctx.found.get(w)
  if (f === undefined) {
    f = find(ctx.profile, w, roles, ctx.expand(w))
    ctx.found.set(w, f)
  }
  return f
}

/**
 * A core word the tool knows only as its site's name names the site (`search [DokuWiki]`), and
 * so does what people call its site by what it holds (`search [the tracker] for X`).
 */
function isSiteWord(ctx: ScoreContext, w: IntentWord): boolean {
  // (`the [tracker] of issue #1`: what is asked of a record, never where it is.)
  if (w.ofHead) return false
  if (ctx.made === w) return false
  const f = findCached(ctx, w, false)
  if (f === null) return !w.literal && isSiteKind(w.stem) && ctx.profile.siteVocabulary.has(w.stem)
  return f.field === 'site' && f.via !== 'vector'
}

/**
 * The one thing the intent asks to make (`create a new [notebook] named a.ipynb`), or null: no
 * site, whatever the site's name says (Jupyter Notebook).
 */
function madeThing(intent: ParsedIntent): IntentWord | null {
  if (intent.verb?.verbClass !== 'create') return null
  // (`sitecall wiki upload file x.png`: a file sent is no thing made there.)
  if (intent.action !== null && sameAct(intent.action, 'upload')) return null
  const object = intent.core.filter((c) => !c.generic && !c.literal && !c.modifier)
  return object.length === 1 ? object[0]! : null
}

/** Records how the tool accounts for intent word `w` (matched, absorbed by a slot, missing). */
function accountWord(
  ctx: ScoreContext,
  w: IntentWord,
  part: WordEvidence['part'],
  mayAbsorb: boolean,
  fullPenalty: number,
): void {
  const { profile, head, core } = ctx
  // A place a slot takes is a little less sure than a place the tool says (`in the [category]`
  // of `list the posts in the category Recipes` over a search's free text); values (`for X`,
  // after a colon, by their form) cost nothing.
  const absorbCost = part === 'place' && !w.literal ? ABSORBED_WORD : 0
  const found = findCached(ctx, w, part === 'qualifier')
  // (`which pages [link] to X` of a search whose results have a `link`: no relation.)
  const f = w.relation && found?.field === 'output' ? null : found
  // The head must be what the tool is about: a slot or output field of that name (a `page`
  // slot for paging) or the site's name is weak evidence of it.
  // (`change the [heading] of post X`: what a rename changes is the record's name, whatever
  // slot holds it.)
  const renamed = profile.action === 'rename' && NAME_STEMS.has(w.stem)
  // (`the [text] of the post X`: what is asked of a record, a field of what a read answers.)
  const answered = w.ofHead === true && f?.field === 'output' && READ_CLASSES.includes(profile.verb)
  // (Nor is the site's name, of a thing made: `create a new [notebook]` of Jupyter Notebook.)
  const weak =
    w === head &&
    f !== null &&
    (WEAK_HEAD_FIELDS.has(f.field) || (f.field === 'site' && ctx.made === w)) &&
    !renamed &&
    !answered
  const strength = answered
    ? Math.max(f.strength, ANSWERED_FIELD)
    : (f?.strength ?? 0) * (weak ? HEAD_IN_FIELDS : 1)
  // A word that names where the site's tools work (`blog` in `rename the blog post`, `on the
  // wiki`) is context: before the head or as a site, it costs no more than a generic word.
  // (Not a place a name follows: `in the category Recipes` asks a tool of categories.)
  const context =
    part === 'site' ||
    (part === 'place' && !w.named) ||
    (part === 'core' && head !== null && core.indexOf(w) < core.indexOf(head))
  // A site named by what it holds (`the package registry`, `the flow editor`) is its site too.
  // (`the Redmine [ticket] system`: by a synonym of what it holds too.)
  const known =
    profile.siteVocabulary.has(w.stem) ||
    (part === 'site' && (profile.siteObjects.has(w.stem) || (!w.literal && holdsBySynonym(ctx, w))))
  const siteWord =
    context && !w.literal && known
      ? Math.min(PENALTY.siteContext, fullPenalty * (1 - strength))
      : null
  // A word other sites say of where they work (`blog`), not this tool's site, and not a word
  // of this tool: another site was meant.
  const elsewhere =
    !known &&
    (f === null || f.strength < 0.9) &&
    w.saidBySites !== undefined &&
    !w.saidBySites.includes(profile.tool.siteHost)
      ? PENALTY.otherSiteWord
      : 0
  const penalty = round((siteWord ?? fullPenalty * (1 - strength)) + elsewhere)
  // A weak likeness (a vector neighbour) is never worse than a value a slot takes.
  if (mayAbsorb && (!f || penalty > absorbCost + elsewhere)) {
    ctx.evidence.push({
      word: w.word,
      part,
      outcome: 'absorbed',
      strength: 0,
      penalty: round(absorbCost + elsewhere),
    })
    return
  }
  ctx.evidence.push(
    f
      ? {
          word: w.word,
          part,
          outcome: 'matched',
          field: f.field,
          via: f.via,
          strength: round(strength),
          penalty,
        }
      : { word: w.word, part, outcome: 'missing', strength: round(strength), penalty },
  )
}

/**
 * `list the [files] in the data folder` of `what's in the invoices folder`: the members of a
 * container a list shows need no name of their own.
 */
function asksMembers(ctx: ScoreContext, w: IntentWord): boolean {
  const { profile, intent } = ctx
  if (
    w !== ctx.head ||
    !ctx.listVerb ||
    !READ_CLASSES.includes(profile.verb) ||
    profile.head === null ||
    !isPlural(w.word) ||
    (findCached(ctx, w, false)?.strength ?? 0) >= MIN_HEAD_STRENGTH
  )
    return false
  // The place must name the tool's head, not a word near it by vector (`registry` ~ `project`).
  for (const p of intent.places)
    if (!p.literal && (ctx.expand(p).get(profile.head)?.strength ?? 0) >= 0.9) return true
  return false
}

/** Verbs that only carry a noun naming the act (`add a tag`, `give it a label`, `make a copy`). */
const LIGHT_VERBS: ReadonlySet<string> = new Set([
  'add',
  'put',
  'give',
  'make',
  'set',
  'create',
  'apply',
  'stick',
  'slap',
  'pop',
])

/**
 * True when the intent asks the tool's own act by a light verb and the act's noun (`add a [tag]`
 * of a tool that tags, `put an [attachment]` of one that attaches): the noun is the act.
 */
function namesToolAct(
  parsed: ParsedIntent,
  profile: ToolProfile,
  expand: (w: IntentWord, pos?: 'noun' | 'verb') => Expanded,
): boolean {
  if (!parsed.verb || !parsed.action || !LIGHT_VERBS.has(parsed.action) || !profile.action)
    return false
  if (GENERIC_VERBS.has(profile.action) || parsed.verb.verbClass === profile.verb) return false
  // A sign-in's act word as a noun is a record (`add the [log] file`), never the act.
  if (profile.verb === 'auth' || profile.verb === 'logout') return false
  const act = stem(profile.action)
  return parsed.core.some((w) => {
    if (w.literal || w.generic) return false
    const x = w.stem === act ? { strength: 1 } : expand(w).get(act)
    return x !== undefined && x.strength >= 0.9
  })
}

/**
 * The class the intent's verb asks of a tool whose verb class is `tool`: the verb's own, or,
 * when that contradicts the tool's, the first other class its meaning allows that does not
 * (`ParsedIntent.verb.alternatives`); null without a verb.
 */
function askedClass(verb: ParsedIntent['verb'], tool: VerbClass): VerbClass | null {
  if (!verb) return null
  if (!verbAgreement(verb.verbClass, tool).contradicts) return verb.verbClass
  return verb.alternatives?.find((c) => !verbAgreement(c, tool).contradicts) ?? verb.verbClass
}

/** Kinds of values that are files or folders. */
const FILE_KINDS: ReadonlySet<string> = new Set(['file', 'path'])
/** Heads of tools whose object a file or folder is (`upload the file`, `list the folder`). */
const FILE_HEADS = new Set(
  [
    'file',
    'picture',
    'image',
    'photo',
    'media',
    'attachment',
    'document',
    'folder',
    'directory',
  ].map(stem),
)

/** What object word `w` costs the tool when it lacks it (before any likeness found). */
function coreCost(ctx: ScoreContext, w: IntentWord): number {
  const { profile, head } = ctx
  if (asksMembers(ctx, w)) return PENALTY.generic
  if (namesHead(ctx, w)) return PENALTY.nameOfHead
  // A modifier said only of things this site does not hold (`an [old] version`).
  if (w.modifier && w.saidOf !== undefined && !w.saidOf.some((o) => profile.siteObjects.has(o)))
    return PENALTY.generic
  // (Unless the site has pages of its own: then the page is a thing asked for.)
  if (w.shownOn && !profile.siteObjects.has(w.stem)) return PENALTY.shownOn
  if (w === head) return PENALTY.head
  return w.generic ? PENALTY.generic : PENALTY.word
}

/** True when `w` is a thing of the tool's site (`project`) that the tool does not say. */
function otherThingOfSite(ctx: ScoreContext, w: IntentWord): boolean {
  const { profile } = ctx
  const ofSite = profile.siteObjects.has(w.stem) || profile.siteVocabulary.has(w.stem)
  return ofSite && findCached(ctx, w, false) === null
}

/**
 * True when `w` stands before the head as a name may (`the [backup] flow`), or after it when the
 * head is what is asked of a thing (`the 1.2.0 version of [logger]`): a specific word,
 * not a value already, the head one thing (a plural is a kind: `AI tools`) of the tool's site,
 * and the tool with a slot that takes free text (a name).
 */
function namesHead(ctx: ScoreContext, w: IntentWord): boolean {
  const { head, core, profile } = ctx
  if (head === null || w === head || w.generic || w.literal || w.modifier) return false
  if (isPlural(head.word)) return false
  // A name is a thing's word or none English has (`backup`, `alerts`), seldom a verb's (`pull`
  // of `pull request`).
  if (isWord(w.word, 'verb') && !isMostlyNoun(w.word)) return false
  if (!profile.hasTextSlot) return false
  // (`the reports [directory]` of a tool of folders: the head by a synonym too.)
  let held = false
  for (const [s, x] of ctx.expand(head))
    if (x.strength >= 0.9 && (profile.objectStems.has(s) || profile.siteObjects.has(s))) held = true
  // (`change the [type] of the tiddler X`: what is asked of a thing is no name of it.)
  if (w.ofHead) return false
  // (`the 1.2.0 [version] of logger`: what follows what is asked of a thing names it; what
  // stands before it is a kind of it: `the [alt] text of x.png`.)
  const before = core.indexOf(w) < core.indexOf(head)
  return held && (head.ofHead ? !before : before)
}

/**
 * Whether a slot can take the value `w`: a number needs a number or free-text slot; a value
 * recognised by its form, or any literal, needs some slot; other words need free text.
 */
function absorbable(w: IntentWord, profile: ToolProfile): boolean {
  if (w.value === 'number' || (w.literal && /^#?\d+([.,]\d+)?$/.test(w.word)))
    return profile.hasNumberSlot || profile.slotCount > 0
  // (`the post called [spam]`: a record named is found by whatever slot names it.)
  if (w.literal || NAMING.has(w.after ?? '')) return profile.slotCount > 0
  return profile.hasTextSlot
}

/**
 * False when the intent asks a specific action (`rename`, `upload`: not in `GENERIC_VERBS`) and
 * the tool's own verb is a different one that WordNet does not relate (`sameAction`) and the tool
 * does not use the intent's verb anywhere else (its path, slots, answer).
 */
function agreesInAction(
  intent: ParsedIntent,
  profile: ToolProfile,
  expand: (w: IntentWord, pos?: 'noun' | 'verb') => Expanded,
): boolean {
  const asked = intent.action
  // `create a new empty notebook`: what is made from nothing is no file sent from elsewhere.
  if (
    profile.action &&
    sameAct(profile.action, 'upload') &&
    intent.verb?.verbClass === 'create' &&
    intent.core.some((w) => MADE_NEW.has(w.word))
  )
    return false
  if (!asked || GENERIC_VERBS.has(asked) || !profile.action) return true
  // Signing in, out, reading and searching have no kinds that matter here.
  const verb = intent.verb?.verbClass
  const acts = ['create', 'update', 'delete', 'run', 'write']
  if (!verb || !acts.includes(verb)) return true
  if (sameSense(asked, profile.action)) return true
  // `mark the tiddler X with the [tag] Y`: the act named by its noun, what the thing gets.
  const actStem = stem(profile.action)
  if (intent.values.some((w) => !w.literal && w.after === 'with' && w.stem === actStem)) return true
  // Two acts of web apps are one only by the acts' table (`enable` is no kind of `change` here,
  // whatever WordNet's hypernyms say).
  if (!(isActVerb(asked) && isActVerb(profile.action)) && isKindOf(asked, profile.action))
    return true
  const word: IntentWord = { word: asked, stem: stem(asked), generic: false, literal: false }
  // The site's own API words for the act (`/move`, `action=rename`), not names the intent used
  // (`import` of a flow called "Nightly import").
  // (The act's own word: a form derived from it names a thing, `watcher` of a new issue's form.)
  for (const [s, e] of expand(word, 'verb')) {
    const field = profile.terms.get(s)?.field
    const own = e.via === 'word' || e.via === 'lemma'
    if (own && e.strength >= 0.9 && (field === 'path' || field === 'slot' || field === 'value'))
      return true
  }
  return false
}

/**
 * The word the intent wants to act on: the last specific word of its object that the tool knows,
 * else the last specific word of its object; else the last generic object word the tool knows
 * (`search [the web] for cats`); else the first value, place or site word the tool knows
 * (`search for [hotels] in paris`); else none (the intent names nothing this tool is about).
 */
function pickHead(core: IntentWord[], intent: ParsedIntent, ctx: ScoreContext): IntentWord | null {
  // A modifier some tool says (`the [open] issues`) qualifies the head; it is not the head.
  const nouns = core.filter((w) => !w.generic && !w.literal && !w.modifier)
  const specific = nouns.length ? nouns : core.filter((w) => !w.generic && !w.literal)
  const asked = specific.find((w) => w.asked) ?? specific.find((w) => w.ofHead)
  if (asked) return asked
  if (specific.length)
    return specific.filter((w) => findCached(ctx, w, false) !== null).at(-1) ?? specific.at(-1)!
  // A modifier or predicate (`what do we [know] about X`) is never the head.
  // (Nor is one found only by a vector's likeness: `[everything] published to the registry`.)
  const generic = core.filter((w) => {
    const found = findCached(ctx, w, false)
    return (
      !w.modifier &&
      found !== null &&
      found.via !== 'vector' &&
      (!w.implied || found.strength >= MIN_HEAD_STRENGTH)
    )
  })
  if (generic.length) return generic.at(-1)!
  // A value or place is the head only when the tool says that very word (`search for [hotels]`).
  return (
    [...intent.values, ...intent.places].find(
      (w) => !w.generic && !w.literal && (findCached(ctx, w, false)?.strength ?? 0) >= 0.9,
    ) ?? null
  )
}

/**
 * One action by the acts of web apps (`actions.ts`) when both verbs name acts there (its word
 * is final: `assign` is no `set`, whatever WordNet's senses share), else by WordNet's senses and
 * hypernyms.
 */
function sameAction(a: string, b: string): boolean {
  if (isActVerb(a) && isActVerb(b)) return sameAct(a, b)
  return sameActionByMeaning(a, b)
}

/** One action by the acts of web apps, as `sameAction`, else by a synset the verbs share. */
function sameSense(a: string, b: string): boolean {
  if (isActVerb(a) && isActVerb(b)) return sameAct(a, b)
  return sameSenseByMeaning(a, b)
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000
}

/** True when the tool's site holds what a synonym of `w` names (`ticket` of a site of issues). */
function holdsBySynonym(ctx: ScoreContext, w: IntentWord): boolean {
  for (const [s, e] of ctx.expand(w))
    if (e.via === 'synonym' && e.strength >= 0.9 && ctx.profile.siteObjects.has(s)) return true
  return false
}
