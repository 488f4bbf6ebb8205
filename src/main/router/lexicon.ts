import { stem } from './text'

/**
 * What an intent or a tool does, by its verb. The read classes agree with one another (a list
 * filtered by a query is a search); write classes agree only with themselves; a read never agrees
 * with a write. `write` is a tool that writes but whose verb is not known.
 */
export type VerbClass =
  'search' | 'list' | 'read' | 'create' | 'update' | 'delete' | 'run' | 'auth' | 'logout' | 'write'

export const READ_CLASSES: readonly VerbClass[] = ['search', 'list', 'read']

/** Common verbs by class (their stems are what is compared). */
const VERBS: Record<Exclude<VerbClass, 'write'>, string[]> = {
  search: [
    'search',
    'find',
    'lookup',
    'look',
    'query',
    'seek',
    'explore',
    'discover',
    'hunt',
    'locate',
  ],
  // `ls`, `cat`, `mkdir`, `rm`, `mv`: what people who use a shell type for the same acts.
  // (`filter the posts to the Recipes category`: a list narrowed, not a search for words.)
  list: ['list', 'enumerate', 'ls', 'filter', 'browse'],
  read: [
    'get',
    'read',
    'view',
    'open',
    'fetch',
    'retrieve',
    'see',
    'display',
    'show',
    'check',
    'track',
    'download',
    'load',
    'inspect',
    'give',
    'tell',
    'cat',
    // WordNet's first sense of `print` is to publish; asked of a tool, it is to show.
    'print',
  ],
  create: [
    'create',
    'add',
    'make',
    'post',
    'submit',
    'send',
    'place',
    'register',
    'subscribe',
    'book',
    'reserve',
    'insert',
    'publish',
    'upload',
    'write',
    'compose',
    'buy',
    'purchase',
    'leave',
    'comment',
    'join',
    'invite',
    'schedule',
    'apply',
    'signup',
    'mkdir',
  ],
  update: [
    'update',
    'edit',
    'change',
    'modify',
    'rename',
    'patch',
    'set',
    'save',
    'replace',
    'move',
    'mark',
    'toggle',
    'assign',
    'adjust',
    'correct',
    'retitle',
    'mv',
    'rewrite',
    'overwrite',
    'revise',
    'amend',
  ],
  delete: [
    'delete',
    'remove',
    'cancel',
    'unsubscribe',
    'erase',
    'destroy',
    'clear',
    'drop',
    'archive',
    'discard',
    'revoke',
    'rm',
  ],
  // Starting something that then works on its own (a job, a kernel, a flow): a write that is
  // neither a create, an update nor a delete.
  run: ['run', 'start', 'execute', 'trigger', 'launch', 'deploy', 'restart', 'inject', 'rerun'],
  auth: ['login', 'log', 'authenticate', 'sign'],
  logout: ['logout', 'signout'],
}

const VERB_BY_STEM = new Map<string, VerbClass>()
for (const [verbClass, list] of Object.entries(VERBS))
  for (const verb of list) VERB_BY_STEM.set(stem(verb), verbClass as VerbClass)

/** The class of a verb's stem, or null when it is not a verb the router knows. */
export function verbClassOf(wordStem: string): VerbClass | null {
  return VERB_BY_STEM.get(wordStem) ?? null
}

/** HTTP method words in tool names (`post_search`): a method is not the tool's verb. */
export const METHOD_WORDS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head'])

/** Agreement between two different read classes: a filtered list is nearly a search. */
const READ_AGREEMENT: Partial<Record<VerbClass, Partial<Record<VerbClass, number>>>> = {
  search: { list: 0.96, read: 0.94 },
  list: { search: 0.96, read: 0.92 },
  read: { search: 0.94, list: 0.92 },
}

/**
 * How well a tool's verb class serves an intent's, from 0 (contradiction) to 1, and why.
 * interface.md "B": a score of 0.9 or more must mean the tool does what the intent asks, so a write
 * never serves a read, nor a read a write, nor one kind of write another.
 */
export function verbAgreement(
  intent: VerbClass | null,
  tool: VerbClass,
): { factor: number; contradicts: boolean } {
  const toolReads = READ_CLASSES.includes(tool)
  if (intent === null)
    // No verb: a read is assumed; a write is never chosen without a verb that asks for it.
    return toolReads ? { factor: 0.97, contradicts: false } : { factor: 0, contradicts: true }
  if (intent === tool) return { factor: 1, contradicts: false }
  const intentReads = READ_CLASSES.includes(intent)
  if (intentReads && toolReads)
    return { factor: READ_AGREEMENT[intent]![tool]!, contradicts: false }
  if (!intentReads && tool === 'write' && intent !== 'auth' && intent !== 'logout')
    return { factor: 0.93, contradicts: false }
  // An act of unknown kind asked of a tool that writes: as sure as a write of unknown kind.
  if (intent === 'write' && !toolReads && tool !== 'auth' && tool !== 'logout')
    return { factor: 0.93, contradicts: false }
  // Running something and saving or making it are sometimes one act in an app (`deploy` a
  // flow saves it), but never a delete.
  // Below 0.9 on its own: running is never proven to be that save or that make.
  if (runsAsSave(intent, tool) || runsAsSave(tool, intent))
    return { factor: 0.88, contradicts: false }
  return { factor: 0, contradicts: true }
}

/** `a` runs something and `b` saves or makes it (a module function: no closure per call). */
function runsAsSave(a: VerbClass, b: VerbClass): boolean {
  return a === 'run' && (b === 'create' || b === 'update')
}

/**
 * Verbs that say only their class (`change`, `make`, `show`): any tool of the class does what
 * they ask. Other verbs are specific (`rename`, `upload`, `publish`): a tool whose own verb is a
 * different specific action does something else, even in the same class.
 */
export const GENERIC_VERBS = new Set([
  ...['update', 'change', 'modify', 'edit', 'set', 'alter', 'adjust', 'fix', 'correct'],
  ...['replace', 'rewrite', 'overwrite', 'revise', 'amend'],
  ...['create', 'add', 'make', 'new', 'write', 'put', 'insert', 'submit', 'save'],
  ...['delete', 'remove', 'erase', 'destroy', 'discard', 'trash', 'drop', 'clear'],
  ...['get', 'read', 'view', 'open', 'fetch', 'retrieve', 'see', 'display', 'show', 'check'],
  ...['load', 'inspect', 'give', 'tell', 'list', 'enumerate', 'browse', 'look', 'find'],
  ...['search', 'lookup', 'query', 'seek', 'filter', 'explore', 'discover', 'hunt', 'locate'],
  ...['run', 'start', 'execute', 'trigger', 'launch', 'do', 'perform'],
])

/**
 * Nouns that name the same thing (by stem): an intent's word found in a tool only as one of its
 * synonyms counts a little less than the word itself.
 */
const NOUN_GROUPS: string[][] = [
  ['product', 'item', 'good', 'merchandise'],
  ['job', 'position', 'vacancy', 'opening', 'role'],
  ['flat', 'apartment', 'listing', 'rental'],
  ['stay', 'accommodation', 'lodging', 'room'],
  ['note', 'document', 'doc'],
  // TiddlyWiki's own word for a note.
  ['tiddler', 'note'],
  ['text', 'content', 'body', 'wording'],
  ['repo', 'repository'],
  ['film', 'movie'],
  ['message', 'contact', 'inquiry', 'enquiry'],
  ['todo', 'task', 'chore'],
  ['package', 'module', 'library', 'dependency'],
  ['recipe', 'dish', 'meal'],
  ['order', 'purchase'],
  ['invoice', 'bill'],
  ['user', 'account', 'member', 'profile'],
  ['book', 'novel'],
  ['flight', 'fare'],
  ['dataset', 'table'],
  ['tool', 'app', 'software'],
  ['directory', 'catalog', 'catalogue'],
  // A file system's directory (word vectors cannot tell: folder/directory 0.51, folder/file 0.54).
  ['directory', 'folder'],
  ['directory', 'dir'],
  ['namespace', 'ns'],
  ['gear', 'equipment'],
  // What issue trackers call one item: WordNet has no tracker sense of `ticket` (cosine 0.39).
  ['issue', 'ticket', 'bug', 'case', 'problem', 'request'],
  // One piece of a blog, as its readers and writers call it (a wiki's: `toolProfile.ts`).
  ['post', 'article', 'entry', 'blogpost'],
  ['picture', 'image', 'photo', 'graphic'],
  ['tag', 'label'],
  // Who may see a thing (a registry's `private` packages are its `internal`, `scoped` ones).
  ['private', 'internal', 'restricted', 'scoped'],
  ['status', 'state'],
  ['flow', 'workflow'],
  // What people who do not know Node-RED's words call its nodes.
  ['node', 'box'],
  ['title', 'heading', 'headline'],
  ['attachment', 'file'],
  // What people call the file they upload by what it holds.
  ['file', 'pdf', 'spreadsheet', 'document', 'photo', 'screenshot'],
]

/**
 * What people call a site by what it holds (`the tracker` of a site of issues, `the registry` of
 * one of packages), by the stem of the thing held: a site whose tools work on issues is a
 * tracker, whatever it calls itself.
 */
const SITE_KINDS: Record<string, string[]> = {
  issue: ['tracker', 'bugtracker', 'helpdesk', 'desk'],
  ticket: ['tracker', 'helpdesk', 'desk'],
  bug: ['tracker', 'bugtracker'],
  page: ['wiki', 'knowledge', 'base', 'docs', 'documentation'],
  article: ['wiki', 'knowledge', 'base'],
  post: ['blog', 'cms', 'journal', 'diary', 'weblog'],
  package: ['registry', 'repository', 'repo', 'feed', 'server'],
  notebook: ['server', 'lab', 'workspace'],
  file: ['server', 'drive', 'storage', 'workspace'],
  folder: ['server', 'drive', 'storage', 'workspace'],
  flow: ['editor', 'automation'],
  node: ['editor', 'automation'],
  tiddler: ['wiki', 'notebook'],
}

const SITE_KIND_STEMS = new Map(
  Object.entries(SITE_KINDS).map(([thing, kinds]) => [stem(thing), kinds.map(stem)]),
)

const KIND_STEMS: ReadonlySet<string> = new Set([...SITE_KIND_STEMS.values()].flat())

/** True when `wordStem` is what people call a site by what it holds (`tracker`, `registry`). */
export function isSiteKind(wordStem: string): boolean {
  return KIND_STEMS.has(wordStem)
}

/** Stems of what people call a site that holds `thingStem` (`issu` → `tracker`...). */
export function siteKinds(thingStem: string): readonly string[] {
  return SITE_KIND_STEMS.get(thingStem) ?? []
}

/**
 * Words that name what an input slot takes (the `by ...` of an intent): an intent asking to search
 * "by keyword" is served by a slot named `q`, `query`, `term`...
 */
const ROLE_GROUPS: string[][] = [
  ['keyword', 'query', 'q', 'k', 's', 'term', 'search', 'text', 'phrase', 'word'],
  ['name', 'title', 'query', 'q', 'term', 'keyword'],
  ['city', 'location', 'place', 'where', 'destination', 'town', 'loc', 'region'],
  ['status', 'state'],
  ['date', 'day', 'when', 'since', 'until'],
  ['price', 'cost', 'amount', 'budget'],
  ['category', 'type', 'tag', 'topic', 'kind', 'genre'],
  ['id', 'number', 'ref', 'reference', 'code'],
  ['email', 'mail', 'address'],
  ['page', 'offset', 'cursor'],
  ['size', 'limit', 'count', 'first'],
]

const toGroups = (groups: string[][]) => {
  const map = new Map<string, Set<string>>()
  for (const group of groups) {
    const stems = group.map(stem)
    for (const s of stems) {
      const set = map.get(s) ?? new Set<string>()
      for (const other of stems) if (other !== s) set.add(other)
      map.set(s, set)
    }
  }
  return map
}

const NOUN_SYNONYMS = toGroups(NOUN_GROUPS)
const ROLE_SYNONYMS = toGroups(ROLE_GROUPS)

/** Stems that name the same thing as `wordStem` (not itself). */
export function nounSynonyms(wordStem: string): ReadonlySet<string> {
  return NOUN_SYNONYMS.get(wordStem) ?? EMPTY
}

/** Slot-name stems that take what `wordStem` names (not itself). */
export function roleSynonyms(wordStem: string): ReadonlySet<string> {
  return ROLE_SYNONYMS.get(wordStem) ?? EMPTY
}

const EMPTY: ReadonlySet<string> = new Set()

/**
 * Verbs the table knows whose action is another verb's: shell commands and words WordNet lacks
 * (`retitle` is not in WordNet 3.1).
 */
export const ACTION_ALIASES: Record<string, string> = {
  retitle: 'rename',
  // `mv old new`: what people mostly do with it is give a thing a new name.
  mv: 'rename',
  rm: 'delete',
  mkdir: 'create',
  ls: 'list',
  cat: 'read',
}
