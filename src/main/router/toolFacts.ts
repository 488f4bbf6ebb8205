/**
 * What a tool does, read from what it sends (docs/architecture.md "What a tool does comes
 * from its request"): its act from the compiled target request (the compiler's sign-in evidence,
 * the operation it names: a JSON-RPC `method`, an action field, the last word of its path; its
 * HTTP method; `mutating`; a file body), its words from the request and the site (path, operation,
 * slot names, answer fields, the site's names and page titles), and the recorded intent's words as
 * topic words only. The recorded intent names the act only where the request leaves it open
 * (which write a `POST /json` is), and never against it: a write is never profiled as a sign-in
 * because its intent said `log in and ...`.
 *
 * A site is known by the names people use for it (its pages' names: `DokuWiki`, `Team Wiki`) and
 * its host's labels, never by `local`, `localhost` or an address: `local__post_json` names no app.
 */
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'
import { actFamily, actOfVerb, type Act } from '../intent/act'
import { siteKey } from '../intent/site'
import type { ValueKind } from '../intent/values'
import { extractValues } from '../intent/values'
import { nounLemma, verbLemma } from './meaning/lemma'
import { HOST_NOISE, STOP_WORDS, stem, words } from './text'

/** Where a tool's word was found. */
export type FactField = 'operation' | 'path' | 'slot' | 'output' | 'name' | 'topic' | 'site'

export interface ToolFacts {
  act: Act
  /** What told the act: `sign_in` evidence, the operation, the method, the compiler's evidence. */
  actFrom: 'sign_in' | 'operation' | 'method' | 'evidence' | 'file' | 'intent' | 'default'
  /** Stems of the tool's words, with the fields each was found in (bit per `FactField`). */
  stems: Map<string, number>
  /** The recorded intent's act (a hint), or null. */
  intentAct: Act | null
  /** Site names (`siteKey` spelling): names the site gives itself, its host's labels. */
  siteNames: string[]
  /** Kinds of value its slots were recorded with (`file` for `budget.xlsx`). */
  valueKinds: Set<ValueKind>
  /** Number of input slots, and whether one takes free text. */
  slots: number
  textSlot: boolean
  /** Slots without a default a caller must give (what tells two tools apart). */
  required: string[]
  /** Operation and path words in order (`pause torrent`), for messages. */
  does: string
}

export const FIELD_BIT: Record<FactField, number> = {
  operation: 1,
  path: 2,
  slot: 4,
  output: 8,
  name: 16,
  topic: 32,
  site: 64,
}

/** Fields that say what a tool does, not where or how it was recorded. */
export const FACT_BITS =
  FIELD_BIT.operation | FIELD_BIT.path | FIELD_BIT.slot | FIELD_BIT.output | FIELD_BIT.name

/** Host labels and path words that name no app and no thing (`local`, `api`, `v2`, `index`). */
const NO_NAME = new Set([...HOST_NOISE, 'localhost', 'local', 'json', 'php', 'html', 'index'])

/** Operation fields of action APIs (as the compiler's `operation.ts` names them). */
const OPERATION_FIELD = /^(action|do|call|op|operation|cmd|command|method|task|_action|mode)$/i

/** Evidence signals of the compiler that say which write a request is. */
const SIGNAL_ACTS: ReadonlyArray<[string, Act]> = [
  ['rename', 'rename'],
  ['delete_agrees', 'delete'],
  ['create_agrees', 'create'],
  ['update_agrees', 'update'],
]

/** Writes an operation's verb says surely (`trash`, `pause`, `rename`). */
const SPECIFIC_WRITES: ReadonlySet<Act> = new Set(['delete', 'run', 'rename', 'upload'])

/** Evidence signals of a search by a typed term. */
const SEARCH_SIGNALS = new Set(['search_term_field', 'search_term_in_path', 'page_search'])

/**
 * The facts of `tool` (see the file comment). Pure; cache by `id@updatedAt`.
 */
export function toolFacts(tool: ToolSpec): ToolFacts {
  const target = tool.steps.at(-1)?.request
  const stems = new Map<string, number>()
  const add = (list: string[], field: FactField) => {
    for (const w of list)
      if (w.length > 1 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)) {
        for (const s of new Set([stem(w), stem(nounLemma(w)), stem(verbLemma(w))]))
          stems.set(s, (stems.get(s) ?? 0) | FIELD_BIT[field])
      }
  }
  const operation = target ? operationWords(target.url, target.body) : []
  const path = target ? pathWords(target.url) : []
  const slots = Object.entries(tool.inputs.properties ?? {})
  add(operation, 'operation')
  add(path, 'path')
  add(
    slots.flatMap(([name]) => words(name)),
    'slot',
  )
  add(Object.keys(tool.output?.properties ?? {}).flatMap(words), 'output')
  const [, objectPart = tool.name] = tool.name.split('__', 2)
  add(words(objectPart), 'name')
  const siteNames = siteNamesOf(tool)
  add(
    [...(tool.site?.names ?? []).flatMap(words), ...(tool.site?.titles ?? []).flatMap(words)],
    'site',
  )
  // (Words, not a parse: a workspace of 10,000 tools is profiled on its first search.)
  const topic = words(withoutRecordedValues(tool)).filter((w) => !STOP_WORDS.has(w))
  const said = saidAct(topic)
  add(said ? topic.filter((w) => w !== said.verb) : topic, 'topic')
  const signals = new Set((tool.evidence?.signals ?? []).map((s) => s.name))
  const { act, from } = actOf(tool, operation, signals, said?.act ?? null)
  return {
    act,
    actFrom: from,
    stems,
    intentAct: said?.act ?? null,
    siteNames,
    valueKinds: recordedKinds(slots.map(([, s]) => s)),
    slots: slots.length,
    textSlot: slots.some(([, s]) => s.type === 'string' && !Array.isArray(s.enum)),
    required: slots
      .filter(([name, s]) => s.default === undefined && (tool.inputs.required ?? []).includes(name))
      .map(([name]) => name),
    does: [...operation, ...path].join(' '),
  }
}

/**
 * The act of the tool's request, in order of what says it surest: the compiler saw a sign-in;
 * the request reads (`mutating` false) and what kind of read; the compiler's evidence of which
 * write (`rename`, `delete_agrees`...); `DELETE`; a file sent; the operation's verb
 * (`core.pause_torrent`, `action=trash`); the recorded intent's act when it is a write; `write`.
 */
function actOf(
  tool: ToolSpec,
  operation: string[],
  signals: ReadonlySet<string>,
  said: Act | null,
): { act: Act; from: ToolFacts['actFrom'] } {
  if (signals.has('sign_in') || signals.has('sends_sign_in'))
    return { act: 'auth', from: 'sign_in' }
  const target = tool.steps.at(-1)?.request
  const verbs = operation.map((w) => actOfVerb(verbLemma(w))).filter((a): a is Act => a !== null)
  if (!tool.mutating) {
    if ([...SEARCH_SIGNALS].some((s) => signals.has(s))) return { act: 'search', from: 'evidence' }
    const read = verbs.find((a) => actFamily(a) === 'read')
    if (read) return { act: read, from: 'operation' }
    if (said && actFamily(said) === 'read') return { act: said, from: 'intent' }
    return { act: 'read', from: 'method' }
  }
  // (A specific write in the operation's own words comes first: `core.pause_torrent` is no
  // update; a generic one, `submit`, `save`, says less than the compiler's evidence.)
  const write = verbs.find((a) => SPECIFIC_WRITES.has(a))
  for (const [signal, act] of SIGNAL_ACTS)
    if (signals.has(signal) && !(write && act === 'update')) return { act, from: 'evidence' }
  if (target?.method.toUpperCase() === 'DELETE') return { act: 'delete', from: 'method' }
  if (write) return { act: write, from: 'operation' }
  const kind = target?.body?.kind
  if (kind === 'multipart' || kind === 'binary') return { act: 'upload', from: 'file' }
  if (said && actFamily(said) === 'write') return { act: said, from: 'intent' }
  return { act: 'write', from: 'default' }
}

/**
 * Words of the operation a request names: a JSON-RPC `method` (`core.pause_torrent`), an action
 * field of the query or form (`action=trash`, `do=search`), a GraphQL operation's name.
 */
function operationWords(url: string, body: ToolSpec['steps'][number]['request']['body']): string[] {
  const out: string[] = []
  const query = url.split('?')[1] ?? ''
  for (const pair of query.split('&')) {
    const [key = '', value = ''] = pair.split('=')
    if (OPERATION_FIELD.test(key) && /^[A-Za-z][\w:.-]{0,40}$/.test(value))
      out.push(...words(value))
  }
  if (body?.kind === 'form')
    for (const [key, value] of Object.entries(body.template))
      if (OPERATION_FIELD.test(key) && /^[A-Za-z][\w:.-]{0,40}$/.test(value))
        out.push(...words(value))
  if (body?.kind === 'json' && body.template && typeof body.template === 'object') {
    const call = body.template as Record<string, unknown>
    if (typeof call.method === 'string') out.push(...words(call.method))
    if (typeof call.operationName === 'string') out.push(...words(call.operationName))
  }
  return out.filter((w) => !NO_NAME.has(w))
}

/** Literal words of a request's path (no placeholders, no ids, no file extensions). */
function pathWords(url: string): string[] {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? ''
  return path
    .split('/')
    .filter((seg) => seg && !seg.includes('{{') && !/\d{3,}/.test(seg))
    .flatMap((seg) => words(seg.replace(/\.[a-z]{2,4}$/i, '')))
    .filter((w) => !NO_NAME.has(w) && !/^v\d+$/.test(w))
}

/**
 * The site's names as people say them: the names its pages give it (`DokuWiki`, `Team Wiki`),
 * the first word of a name that is a brand (`Deluge` of `Deluge WebUI 2.0.3`), its host's labels
 * but those that name no app (`local`, `localhost`, `www`, an address's numbers).
 */
export function siteNamesOf(tool: ToolSpec): string[] {
  const names = tool.site?.names ?? []
  const host = tool.siteHost.replace(/:\d+$/, '')
  const labels = /^[\d.]+$|^\[/.test(host) ? [] : host.split('.')
  // The first word that is no function word: `Tomcat` of `The Tomcat Servlet/JSP Container`.
  const firsts = names
    .map((n) => n.split(/\s+/).find((w) => !STOP_WORDS.has(w.toLowerCase())) ?? '')
    .filter((w) => w.length > 2)
  const [sitePart = ''] = tool.name.includes('__') ? tool.name.split('__') : []
  return [
    ...new Set(
      [...names, ...firsts, ...labels, sitePart.replace(/_\d.*$/, '')]
        .map(siteKey)
        .filter((k) => k.length > 1 && !NO_NAME.has(k) && !STOP_WORDS.has(k) && !/^\d+$/.test(k)),
    ),
  ]
}

/**
 * The act the recorded intent says by its first verb of an act (`pause` → run), a sign-in (`log
 * in`) only when it says no other act, with that verb; null when it says none.
 */
function saidAct(topic: readonly string[]): { act: Act; verb: string } | null {
  let signIn: { act: Act; verb: string } | null = null
  for (let i = 0; i < topic.length; i++) {
    const w = topic[i]!
    if ((w === 'log' || w === 'sign') && /^(in|on|into)$/.test(topic[i + 1] ?? '')) {
      signIn ??= { act: 'auth', verb: w }
      continue
    }
    const act = actOfVerb(verbLemma(w))
    // (`log in to the editor and trigger the inject node`: the sign-in is on the way.)
    if (act && act !== 'auth') return { act, verb: w }
    if (act) signIn ??= { act, verb: w }
  }
  return signIn
}

/** The tool's intent with the values its slots were recorded with taken out: they are data. */
function withoutRecordedValues(tool: ToolSpec): string {
  let text = tool.intent
  for (const s of Object.values(tool.inputs.properties ?? {})) {
    const v = s.default
    if ((typeof v === 'string' || typeof v === 'number') && String(v).trim().length >= 2)
      text = text.split(String(v).trim()).join(' "" ')
  }
  return text
}

/** Kinds of the values the slots were recorded with, by form (`budget.xlsx`: a file). */
function recordedKinds(slots: SlotSchema[]): Set<ValueKind> {
  const kinds = new Set<ValueKind>()
  for (const s of slots)
    if (typeof s.default === 'string') {
      const found = extractValues(s.default).values
      if (found.length === 1 && found[0]!.text === s.default.trim()) kinds.add(found[0]!.kind)
    }
  return kinds
}
