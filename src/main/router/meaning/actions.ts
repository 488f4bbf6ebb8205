/**
 * The acts people ask of web apps, each with the verbs they ask it by. WordNet relates verbs by
 * their general senses and misses the senses software gives them: it knows `fire` as dismissing
 * someone and `trigger` as setting off, `bin` not as a verb at all, `deactivate` and `disable`
 * in unrelated synsets, `export` as selling abroad. Here each act lists the verbs that, asked of
 * a web app's tool, name that very act; two verbs of one act are one action (`sameAct`), and a
 * verb the router's class table does not know takes its act's class (`actClassOf`).
 *
 * Written from how web apps label their controls and how people ask for them (the words of
 * buttons and menus such as "Move to Trash", "Export to library", "Deactivate", "File a bug"),
 * not from the test paraphrases. Phrasal verbs are joined with `_` (`kick_off`).
 */
import type { VerbClass } from '../lexicon'

interface Act {
  verbClass: VerbClass
  verbs: string[]
}

const ACTS: Record<string, Act> = {
  create: {
    verbClass: 'create',
    verbs: [
      ...[
        'create',
        'add',
        'make',
        'write',
        'compose',
        'draft',
        'author',
        'generate',
        'build',
        'mk',
      ],
      ...['set_up', 'put_together', 'jot_down', 'type_up', 'spin_up', 'establish', 'produce'],
      ...['write_up', 'whip_up', 'knock_together', 'note_down'],
    ],
  },
  edit: {
    verbClass: 'update',
    verbs: [
      ...['edit', 'change', 'modify', 'update', 'alter', 'revise', 'amend', 'rewrite', 'reword'],
      ...['tweak', 'adjust', 'correct', 'fix', 'redo', 'rework', 'touch_up', 'overwrite'],
    ],
  },
  rename: { verbClass: 'update', verbs: ['rename', 'retitle', 'relabel', 'rechristen'] },
  tag: { verbClass: 'update', verbs: ['tag', 'label', 'categorize', 'categorise', 'classify'] },
  // A tracker's workflow moves an issue along by its state's verb (`close`, `reopen`, `resolve`).
  set: {
    verbClass: 'update',
    verbs: [
      ...['set', 'mark', 'flag', 'switch', 'transition'],
      ...['close', 'close_out', 'reopen', 'resolve'],
    ],
  },
  // Joining two things into one, or one into two, keeps neither as it was: no edit of either.
  merge: { verbClass: 'update', verbs: ['merge', 'combine', 'consolidate', 'fuse', 'unite'] },
  split: { verbClass: 'update', verbs: ['split', 'divide', 'break_up'] },
  // A wiki's protection is its own act ("Protect", "Lock"), not an edit of the page.
  lock: { verbClass: 'update', verbs: ['lock', 'protect', 'lock_down'] },
  unlock: { verbClass: 'update', verbs: ['unlock', 'unprotect'] },
  assign: {
    verbClass: 'update',
    verbs: ['assign', 'reassign', 'allocate', 'delegate', 'hand_over', 'give_to'],
  },
  disable: {
    verbClass: 'update',
    verbs: [
      ...['disable', 'deactivate', 'inactivate', 'turn_off', 'switch_off', 'shut_off'],
      ...['suspend', 'pause', 'stop', 'halt', 'freeze', 'mute', 'take_offline', 'park'],
      // What an app shows of a disabled thing.
      ...['grey_out', 'gray_out'],
    ],
  },
  enable: {
    verbClass: 'update',
    verbs: ['enable', 'activate', 'reactivate', 'turn_on', 'switch_on', 'resume', 'unpause'],
  },
  delete: {
    verbClass: 'delete',
    verbs: [
      ...['delete', 'remove', 'erase', 'wipe', 'wipe_out', 'get_rid_of', 'purge', 'nuke', 'del'],
      ...['destroy', 'eliminate', 'clear_out', 'kill', 'zap', 'axe', 'take_down', 'do_away_with'],
    ],
  },
  // A web app's trash is how it deletes: asked to delete, moving to the trash does it.
  trash: {
    verbClass: 'delete',
    verbs: [
      ...['trash', 'bin', 'junk', 'discard', 'throw_away', 'throw_out', 'ditch', 'scrap'],
      ...['toss', 'chuck'],
    ],
  },
  deleteOrTrash: {
    verbClass: 'delete',
    verbs: [
      ...['delete', 'remove', 'trash', 'bin', 'junk', 'discard', 'throw_away', 'throw_out'],
      ...['ditch', 'scrap'],
    ],
  },
  run: {
    verbClass: 'run',
    verbs: [
      ...['run', 'trigger', 'fire', 'fire_off', 'fire_up', 'kick_off', 'set_off', 'launch'],
      ...['execute', 'invoke', 'initiate', 'start_up', 'kick', 'ping'],
    ],
  },
  press: { verbClass: 'run', verbs: ['press', 'push', 'hit', 'click', 'tap', 'trigger', 'fire'] },
  upload: {
    verbClass: 'create',
    verbs: ['upload', 'send', 'put', 'attach', 'transfer', 'drop_in', 'push_up'],
  },
  export: {
    verbClass: 'update',
    verbs: ['export', 'save', 'store', 'copy', 'back_up', 'stash', 'dump', 'preserve', 'keep'],
  },
  // Moving a thing elsewhere (`move the post into the Recipes category`) is no rename, unless
  // the site's own API calls its rename a move (MediaWiki's `Special:MovePage`).
  move: { verbClass: 'update', verbs: ['move', 'relocate'] },
  // A "Duplicate" or "Clone" button makes another of the thing: no read, no save elsewhere.
  duplicate: { verbClass: 'create', verbs: ['duplicate', 'clone', 'fork', 'replicate'] },
  download: { verbClass: 'read', verbs: ['download', 'fetch', 'grab', 'pull_down'] },
  show: {
    verbClass: 'read',
    verbs: [
      ...['show', 'view', 'display', 'read', 'open', 'pull_up', 'bring_up', 'look_at', 'see'],
      ...['check', 'check_out', 'examine', 'inspect', 'review', 'peek', 'present'],
    ],
  },
  list: {
    verbClass: 'list',
    verbs: [
      ...['list', 'enumerate', 'browse', 'index', 'inventory', 'catalogue', 'run_through'],
      ...['filter', 'narrow_down'],
    ],
  },
  search: {
    verbClass: 'search',
    verbs: [
      ...['search', 'find', 'look_for', 'look_up', 'query', 'hunt', 'seek', 'locate'],
      ...['dig_up', 'track_down', 'scan', 'comb', 'grep', 'search_for', 'hunt_for', 'sift'],
      ...['trawl', 'rummage', 'look_through', 'go_through', 'dig_through', 'match'],
    ],
  },
  share: { verbClass: 'create', verbs: ['share', 'tweet', 'post_to', 'send_to', 'forward'] },
  watch: { verbClass: 'create', verbs: ['watch', 'subscribe', 'follow', 'star', 'bookmark'] },
  login: {
    verbClass: 'auth',
    verbs: ['log_in', 'sign_in', 'login', 'signin', 'authenticate', 'sign_on', 'log_on', 'get_in'],
  },
  logout: { verbClass: 'logout', verbs: ['log_out', 'sign_out', 'logout', 'signout', 'log_off'] },
}

/**
 * Verbs that, with an object not named yet (`file [a] bug`, `open [a] ticket`, `start [a new]
 * page`), ask to make it, whatever else they mean (`open the page`, `start the flow`).
 */
export const MAKES_WHEN_NEW: ReadonlySet<string> = new Set([
  'open',
  'start',
  'file',
  'raise',
  'log',
  'report',
  'lodge',
  'begin',
  'set_up',
  'save',
])

const ACTS_OF = new Map<string, string[]>()
for (const [name, act] of Object.entries(ACTS))
  for (const verb of act.verbs) ACTS_OF.set(verb, [...(ACTS_OF.get(verb) ?? []), name])

/**
 * True when verbs `a` and `b` (dictionary forms, phrasal verbs joined with `_` or a space) name
 * one act of a web app (`fire` and `trigger`, `bin` and `trash`, `export` and `save`).
 */
export function sameAct(a: string, b: string): boolean {
  const actsA = ACTS_OF.get(joined(a))
  const actsB = ACTS_OF.get(joined(b))
  return !!actsA && !!actsB && actsA.some((x) => actsB.includes(x))
}

/** True when `verb` (dictionary form, phrasal verbs joined with `_`) names some act here. */
export function isActVerb(verb: string): boolean {
  return ACTS_OF.has(joined(verb))
}

/** `verb` with its spaces as `_` (the router asks these for every tool it scores: no regex then). */
function joined(verb: string): string {
  return verb.includes(' ') ? verb.replace(/ /g, '_') : verb
}

/**
 * The class of the act a verb (dictionary form) names, when every act it names has one class
 * (`fire` → run, `deactivate` → update); null for verbs not listed, of several classes, or whose
 * object decides (`put`).
 */
export function actClassOf(verb: string): VerbClass | null {
  const acts = ACTS_OF.get(joined(verb))
  // `put` sets as often as it uploads (`put the issue on hold`): WordNet's senses say which.
  if (!acts || verb === 'put') return null
  const classes = new Set(acts.map((a) => ACTS[a]!.verbClass))
  return classes.size === 1 ? [...classes][0]! : null
}

/** True when `verb` (joined with `_`) is a phrasal verb of some act (`kick_off`, `get_rid_of`). */
export function isActPhrase(verb: string): boolean {
  return verb.includes('_') && ACTS_OF.has(verb)
}
