/**
 * The main action of an intent, as the compiler needs it to pick a target (issue 9): whether the
 * person asked to read something or to change something, and which kind of change. Pure.
 */

/** What an intent asks the site to do. */
export type VerbClass =
  'search' | 'read' | 'create' | 'update' | 'delete' | 'trigger' | 'upload' | 'auth'

/** Every write class: the target must change the site's state. */
export const WRITE_CLASSES: ReadonlySet<VerbClass> = new Set([
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
      'pin',
      'lock',
      'unlock',
      'approve',
      'reject',
      'fix',
      'correct',
      'adjust',
      'append',
      'retitle',
      'turn on',
      'turn off',
      'switch',
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

function clauseClass(clause: string): VerbClass | null {
  const words = clause.split(/[^a-z']+/).filter(Boolean)
  let i = 0
  while (i < words.length - 1 && FILLER.test(words[i]!)) i++
  const rest = words.slice(i)
  for (const [cls, verbs] of VERBS)
    for (const verb of verbs) {
      const parts = verb.split(' ')
      if (parts.every((p, k) => rest[k] === p || (k === 0 && stem(rest[k]) === stem(p)))) return cls
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
