/**
 * The main action of an intent, as the compiler needs it to pick a target: whether the
 * person asked to read something or to change something, and which kind of change. Pure.
 */

/** What an intent asks the site to do. */
export type VerbClass =
  'search' | 'read' | 'create' | 'update' | 'delete' | 'trigger' | 'upload' | 'auth'

/** Every write class: the target must change the site's state. */
const WRITE_CLASSES: ReadonlySet<VerbClass> = new Set([
  'create',
  'update',
  'delete',
  'trigger',
  'upload',
])

/**
 * Verbs by class. Multi-word entries are phrasal verbs ("kick off", "log in"), matched before
 * single words. The lists hold the verbs people use for web tasks in English; an intent whose
 * verb is not here gets no class, and the compiler then weighs other evidence only.
 */
const VERBS: Array<[VerbClass, string[]]> = [
  ['auth', ['log in', 'login', 'sign in', 'signin', 'log on', 'authenticate', 'log into']],
  [
    'search',
    [
      'search',
      'find',
      'look up',
      'lookup',
      'look for',
      'query',
      'filter',
      'locate',
      'seek',
      'browse for',
      'narrow down',
      'narrow',
      'refine',
    ],
  ],
  [
    'read',
    [
      'show',
      'view',
      'open',
      'read',
      'get',
      'see',
      'list',
      'display',
      'fetch',
      'check',
      "what's",
      'what',
      'which',
      'who',
      'how',
      'see',
      'inspect',
      'download',
      'export',
      'print',
      'preview',
      'count',
      'browse',
      'load',
    ],
  ],
  ['upload', ['upload', 'attach', 'import']],
  [
    'delete',
    [
      'delete',
      'remove',
      'rm',
      'trash',
      'erase',
      'discard',
      'destroy',
      'drop',
      'unpublish',
      'purge',
      'clear',
    ],
  ],
  [
    'create',
    [
      'create',
      'add',
      'new',
      'make',
      'post',
      'write',
      'publish',
      'submit',
      'register',
      'draft',
      'compose',
      'save',
      'book',
      'order',
      'send',
      'comment',
      'reply',
      'invite',
      'copy',
      'duplicate',
      'put',
      'bookmark',
    ],
  ],
  [
    'update',
    [
      'rename',
      'edit',
      'update',
      'change',
      'modify',
      'set',
      'move',
      'replace',
      'tag',
      'label',
      'assign',
      'close',
      'reopen',
      'resolve',
      'mark',
      'enable',
      'disable',
      'toggle',
      'archive',
      'star',
      'unstar',
      'flag',
      'unflag',
      'pin',
      'unpin',
      'lock',
      'unlock',
      'approve',
      'reject',
      'fix',
      'correct',
      'adjust',
      'append',
      'retitle',
      'rewrite',
      'reword',
      'turn on',
      'turn off',
      'switch',
      'pause',
      'unpause',
      'resume',
      'suspend',
      'activate',
      'deactivate',
      'mute',
      'unmute',
      'hide',
      'unhide',
      'prioritize',
      'prioritise',
      'reorder',
      'recolor',
      'recolour',
      'color',
      'colour',
      'limit',
      'throttle',
      'favorite',
      'favourite',
      'unfavorite',
      'watch',
      'unwatch',
      'monitor',
      'unmonitor',
      'block',
      'unblock',
      'ban',
      'unban',
      'rate',
      'retag',
    ],
  ],
  [
    'trigger',
    [
      'trigger',
      'run',
      'start',
      'kick off',
      'launch',
      'execute',
      'fire',
      'invoke',
      'deploy',
      'restart',
      'stop',
      'rebuild',
      'sync',
      'refresh',
      'retry',
      'schedule',
      'press',
      'click',
      'rescan',
      'scan',
      'reload',
      'reindex',
      'recheck',
      'kill',
      'kick',
      'flush',
      'snapshot',
      'back up',
      'backup',
      'test',
      'ping',
      'relay',
      'forward',
    ],
  ],
]

/** Words before the main verb that only set the scene: "please", "go ahead and", "I want to". */
const FILLER =
  /^(please|pls|kindly|now|then|just|quickly|i|we|want|wanna|would|like|need|to|can|could|you|help|me|us|go|ahead|and|let's|lets|let|try|first|also)$/

/**
 * The class of the intent's main verb, or null when none is known. A sign-in step before the real
 * work ("log in and rename the file X", "sign in, then delete …") is skipped: the tool is about
 * the work, and the login belongs to the saved login, not to the tool.
 */
export function intentVerbClass(intent: string): VerbClass | null {
  const clauses = intent
    .toLowerCase()
    .split(/\s*(?:,|;|\band then\b|\bthen\b|\band\b)\s*/)
    .filter(Boolean)
  const classes = clauses.map(clauseClass).filter((c): c is VerbClass => c !== null)
  const work = classes.find((c) => c !== 'auth')
  return work ?? classes[0] ?? null
}

/** Object pronouns a phrasal verb may hold between its parts ("sign me in", "kick it off"). */
const PRONOUN = /^(me|us|it|them|him|her|this|that)$/

/** How many leading words a terse intent may name before its verb ("blog search tomato"). */
const LEAD_WORDS = 2

/** Sign-in words anywhere in an intent without a verb ("wiki login", "redmine 2fa login rlee"). */
const SIGN_IN_NOUN = /\b(login|log-in|signin|sign-in|logon|2fa|two-factor)\b/

/** "give the file a new name", "give it another title": a rename said with a light verb. */
const NEW_NAME = /\b(give|assign)\b.*\b(new|another|different)\s+(name|title|label|heading)\b/

function clauseClass(clause: string): VerbClass | null {
  if (NEW_NAME.test(clause)) return 'update'
  const words = clause.split(/[^a-z0-9']+/).filter(Boolean)
  let i = 0
  while (i < words.length - 1 && FILLER.test(words[i]!)) i++
  // A terse intent may put the app's or the object's name first: the verb may come a word or two
  // later, but never after a word that is itself a verb of another reading.
  const first = verbAt(words.slice(i), true)
  if (first) return first
  for (let lead = 1; lead <= LEAD_WORDS && i + lead < words.length; lead++) {
    // After an article the word is a noun ("track an order"); later words match only as spelled
    // (`posts` in "Recipes posts" is no verb).
    if (DETERMINER.test(words[i + lead - 1]!)) break
    const cls = verbAt(words.slice(i + lead), false)
    if (cls) return cls
  }
  return SIGN_IN_NOUN.test(clause) ? 'auth' : null
}

/** Words after which a noun follows, not a verb. */
const DETERMINER = /^(a|an|the|my|our|your|this|that|these|those|some|any|each|every|one)$/

/**
 * The class of the verb the words start with, a pronoun allowed inside a phrasal verb; with
 * `inflected`, `renames`/`renamed` count as `rename`.
 */
function verbAt(rest: string[], inflected: boolean): VerbClass | null {
  // "sign me back in": the pronoun, then `back`, sit between the verb and its particle.
  const held = PRONOUN.test(rest[1] ?? '') ? (rest[2] === 'back' ? 2 : 1) : 0
  const withoutPronoun = held ? [rest[0]!, ...rest.slice(1 + held)] : null
  for (const [cls, verbs] of VERBS)
    for (const verb of verbs) {
      const parts = verb.split(' ')
      const matches = (w: string[]) =>
        parts.every((p, k) => w[k] === p || (inflected && k === 0 && stem(w[k]) === stem(p)))
      if (matches(rest) || (parts.length > 1 && withoutPronoun && matches(withoutPronoun)))
        return cls
    }
  return null
}

/** Folds `renames`, `renamed`, `renaming` to `rename` for the verb lookup. */
function stem(word: string | undefined): string {
  if (!word) return ''
  return word.replace(/(ing|ed|es|s|e)$/, '').replace(/([^aeiou])\1$/, '$1') || word
}

/** True when the class asks for a change of the site's state. */
export function isWriteClass(cls: VerbClass | null): boolean {
  return cls !== null && WRITE_CLASSES.has(cls)
}
