/**
 * Stage 6: what a request asks to be done, its act. One closed set of acts shared by intents and
 * tools (a tool's act comes from its request: `router/toolFacts.ts`), and the verbs people and
 * web apps say them by. A table, not phrase rules: each verb says one act whatever surrounds it;
 * what a verb does not say (`make`, `do`) is left to the object and the tool's facts.
 */

/**
 * The acts. Reads: `search` (by a term), `list` (a collection), `read` (one thing). Writes:
 * `create`, `update`, `delete`, `rename`, `upload`, `run` (trigger, pause, start: a command), and
 * `write` (a write of no known kind, tools only). Sessions: `auth` (sign in), `logout`.
 */
export type Act =
  | 'search'
  | 'list'
  | 'read'
  | 'create'
  | 'update'
  | 'delete'
  | 'rename'
  | 'upload'
  | 'run'
  | 'write'
  | 'auth'
  | 'logout'

export const READ_ACTS: ReadonlySet<Act> = new Set(['search', 'list', 'read'])
const WRITE_ACTS: ReadonlySet<Act> = new Set([
  'create',
  'update',
  'delete',
  'rename',
  'upload',
  'run',
  'write',
])

/** Verbs by act (lemmas). Shell words (`ls`, `rm`, `mv`) are how some people ask the same acts. */
const VERBS: Record<Exclude<Act, 'write'>, string> = {
  search:
    'search find lookup query seek locate hunt grep match look explore discover scan ' +
    'filter-by',
  list: 'list enumerate ls browse filter index catalog catalogue',
  read:
    'get read view open fetch retrieve see display show check inspect tell give cat print ' +
    'download export load preview watch pull examine review',
  create:
    'create add make new post submit register insert publish compose write draft file ' +
    'raise open-new start-new mkdir touch attach comment save log-new report book schedule ' +
    'invite append',
  update:
    'update edit change modify set alter amend adjust replace tag label mark assign ' +
    'move reassign configure limit cap throttle enable disable toggle activate deactivate ' +
    'close reopen resolve lock unlock protect hide unhide pin unpin star archive restore ' +
    'approve reject accept fix correct revise rewrite tweak increase decrease raise-limit ' +
    'lower reset turn switch',
  delete: 'delete remove erase trash drop destroy purge discard wipe rm unlink uninstall bin',
  rename: 'rename retitle mv relabel',
  upload: 'upload import',
  run:
    'run trigger execute fire launch kick invoke start stop pause resume restart rescan ' +
    'refresh reload sync rebuild deploy drain ping test retry rerun recheck force kill inject',
  auth: 'login signin authenticate log-in sign-in logon',
  logout: 'logout signout log-out sign-out logoff',
}

/** Act by verb lemma; a verb in two rows keeps the first. */
const ACT_OF: ReadonlyMap<string, Act> = (() => {
  const map = new Map<string, Act>()
  for (const [act, list] of Object.entries(VERBS) as Array<[Act, string]>)
    for (const verb of list.split(/\s+/)) if (!map.has(verb)) map.set(verb, act)
  return map
})()

/**
 * Verbs with a particle that say another act than the verb alone (`log in`, `sign out`,
 * `kick off`, `look up`, `set up`, `turn off`, `shut down`), as `verb particle` lemmas.
 */
const PHRASAL: ReadonlyMap<string, Act> = new Map([
  ['log in', 'auth'],
  ['log on', 'auth'],
  ['sign in', 'auth'],
  ['log out', 'logout'],
  ['log off', 'logout'],
  ['sign out', 'logout'],
  ['kick off', 'run'],
  ['look up', 'search'],
  ['look for', 'search'],
  ['find out', 'read'],
  ['set up', 'create'],
  ['turn off', 'update'],
  ['turn on', 'update'],
  ['switch off', 'update'],
  ['switch on', 'update'],
  ['shut down', 'run'],
  ['pull up', 'read'],
  ['bring up', 'read'],
  ['take down', 'delete'],
  ['get rid', 'delete'],
  ['throw away', 'delete'],
  ['add to', 'update'],
])

/**
 * The act a verb lemma says, or null for a verb of no act (`make`, `do`, `want`). A verb written
 * with `re-` (`re-enable`, `re-send`, `re-index`) does its verb's act again: the same act.
 */
export function actOfVerb(lemma: string): Act | null {
  return ACT_OF.get(lemma) ?? (lemma.startsWith('re-') ? ACT_OF.get(lemma.slice(3)) : null) ?? null
}

/** The act a verb with its particle says (`log in` → auth), or null. */
export function actOfPhrasal(lemma: string, particle: string): Act | null {
  return PHRASAL.get(`${lemma} ${particle}`) ?? null
}

/** Nouns that name an act when a request has no verb (`login`, `search`, `upload`). */
export function actOfNoun(lemma: string): Act | null {
  const act = ACT_OF.get(lemma)
  return act && NOUN_ACTS.has(lemma) ? act : null
}

const NOUN_ACTS = new Set(['login', 'signin', 'logout', 'search', 'upload', 'list', 'export'])

/** The coarse class of an act: a read, a write, or a session change. */
export function actFamily(act: Act): 'read' | 'write' | 'session' {
  if (READ_ACTS.has(act)) return 'read'
  if (WRITE_ACTS.has(act)) return 'write'
  return 'session'
}
