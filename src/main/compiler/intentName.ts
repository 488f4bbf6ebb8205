import type { ToolSite } from '../../shared/toolSpec'
import { intentVerbClass } from './intentVerb'
import { siteLabel, snake } from './naming'
import { singular } from './valueSpelling'

/** Words that never name a tool's object: articles, pronouns, fillers, prepositions. */
const SKIP = new Set(
  'a an the my our your their his her its this that these those some any all every each me us it them please by hand to in on at of from with into onto for about named called titled as and or then so what whats which who how is are be there here now new one through via using over under across per after before without within onto up only just'.split(
    ' ',
  ),
)

/** The verb each class is named by in a tool name (the read classes keep a few verbs of their own). */
const CLASS_VERB: Record<string, string> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  trigger: 'run',
  upload: 'upload',
  auth: 'log_in',
}

/** Verbs whose object is a collection, named as said (`search_pages`, not `search_page`). */
const COLLECTION_VERBS = new Set(['list', 'search', 'find', 'filter', 'show'])

/** Verbs kept as they are said, when the intent uses them. */
const OWN_VERBS = new Set([
  'search',
  'find',
  'list',
  'show',
  'get',
  'read',
  'open',
  'view',
  'rename',
  'move',
  'edit',
  'add',
  'remove',
  'trash',
  'archive',
  'tag',
  'disable',
  'enable',
  'trigger',
  'deploy',
  'export',
  'download',
  'filter',
  'attach',
  'close',
  'reopen',
  'assign',
  'publish',
  'save',
  'set',
  'change',
  'start',
  'stop',
  'restart',
  'copy',
  'invite',
  'approve',
  'reject',
  'comment',
  'post',
  'send',
])

/**
 * A tool's `<site>__<verb_object>` name from what the person asked: the intent's
 * main verb (a sign-in clause before the work is skipped) and its object noun, never an observed
 * value (`rename_page`, not `get_meeting_notes`); the site is the name the site gives itself
 * (`ToolSite.names`), else the host's label. Null when the intent has no verb the compiler
 * knows, so the caller keeps its request-based name.
 */
export function intentToolName(intent: string, host: string, site?: ToolSite): string | null {
  const cls = intentVerbClass(intent)
  if (!cls) return null
  const clauses = intent.split(/\s*(?:,|;|\band then\b|\bthen\b|\band\b)\s*/i)
  const work = clauses.find((c) => intentVerbClass(c) === cls) ?? intent
  const words = work
    .replace(/["“][^"”]*["”]|'[^']*'/g, ' VALUE ')
    .split(/\s+/)
    .filter(Boolean)
  const lower = words.map((w) => w.toLowerCase().replace(/[^a-z0-9'-]/g, ''))
  let at = lower.findIndex(
    (w) =>
      w &&
      !SKIP.has(w) &&
      !/^(i|we|want|need|would|like|can|could|let's|lets|go|ahead|just|quickly|log|sign|login)$/.test(
        w,
      ),
  )
  if (at < 0) return null
  const said = lower[at]!.replace(/'s$/, '')
  const verb = OWN_VERBS.has(said)
    ? said
    : (CLASS_VERB[cls] ?? (cls === 'search' ? 'search' : 'get'))
  if (cls === 'auth') return `${sitePart(host, site)}__log_in`
  // The object: up to two content words after the verb (or, for a search, after "for"), before
  // the first value (a capitalised name, a number, a file name) or preposition.
  // A phrasal verb's particle is part of the verb ("kick off the import").
  if (/^(off|up|out|down|over)$/.test(lower[at + 1] ?? '')) at++
  // "search the registry for packages named lunar": the object is what is searched for, when a
  // value follows it; a bare "for writing" is the value itself.
  const forAt = cls === 'search' ? lower.indexOf('for', at + 1) : -1
  if (
    forAt > 0 &&
    /^(named|called|about|with|whose|that|matching|containing|tagged|titled|by)$/.test(
      lower[forAt + 2] ?? '',
    )
  )
    at = forAt
  const object: string[] = []
  for (let i = at + 1; i < words.length && object.length < 2; i++) {
    const w = lower[i]!
    const raw = words[i]!
    if (
      raw === 'VALUE' ||
      /\d|[._:/@]/.test(raw) ||
      (i > at + 1 && /^[A-Z]/.test(raw) && object.length)
    )
      break
    if (!w || SKIP.has(w)) {
      if (object.length) break
      continue
    }
    if (/^[A-Z]/.test(raw) && i > 0 && object.length === 0 && !/^[A-Z]+$/.test(raw)) continue
    // A list or a search answers many: its object is said as it was (`list_orders`).
    object.push(COLLECTION_VERBS.has(verb) ? w : singular(w))
  }
  const name = snake([verb, ...object].join('_'))
  return `${sitePart(host, site)}__${name || verb}`
}

/** The site part: the site's own name for a loopback or IP host, else the host's label. */
function sitePart(host: string, site?: ToolSite): string {
  const label = siteLabel(host)
  if (label !== 'local') return label
  const own = site?.names
    .map((n) =>
      n
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, ''),
    )
    .find((n) => n.length >= 2 && n.length <= 24)
  return own ?? label
}
