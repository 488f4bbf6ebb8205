import { fold, formatPath, parsePath } from '../../shared/jsonPath'
import type {
  EvidenceSignal,
  RequestTemplate,
  SlotSchema,
  ToolSpec,
  ToolStep,
} from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody, parseJsonRequest, safeUrl } from './classify'
import { keptHeaders } from './headers'
import { inferSchema } from './inferSchema'
import { personValues, type PersonValue } from './personValues'
import { placePath } from './dependencies'
import { pathSegments } from './requestValues'
import { diffResource, same, type DiffContext, type ResourceDiff } from './resourceDiff'
import { pruneTool } from './toolPrune'
import { acknowledgementRule, deriveVerifyRule, outputForRule } from './verifyRule'

type Rec = Record<string, unknown>

/** Methods whose JSON body may be a whole resource sent back (RFC 9110 §9.3.4 PUT, POST, PATCH). */
const WHOLE_WRITE = /^(PUT|POST|PATCH)$/i
/** A listed record is the written one when it shares this many fields with the body, at least. */
const MIN_SHARED_FIELDS = 3
/** ...and that share of its own fields (a listing shows a subset of the record). */
const MIN_SHARED_SHARE = 0.6
/** Id of the read step the compiler adds when the trace holds no read of the resource. */
export const READ_STEP = 'read'

/** The record a write rewrites, and where the compiler saw it. */
interface Resource {
  /** `read`: the same path was read before (its answer is the base as is); `listed`: a listing. */
  kind: 'read' | 'listed'
  reference: Rec
  /** The exchange whose answer showed the record. */
  from: Exchange
}

/**
 * Makes a write that sends a whole resource a read-modify-write (issue 9 item 8; the brief's
 * "write the resource you just read, changed"): the target's JSON body becomes the answer of a
 * read of that resource with only the person's change applied (ToolSpec `JsonBodyBase`), so
 * every other field (another record's text and tags, the flows the person did not touch, a
 * revision like Node-RED's `rev`) is what the site holds when the tool runs. The resource is
 *
 * - the answer of an earlier `GET` of the same path whose fields the body repeats (Node-RED's
 *   `GET /flows` before `POST /flows`); every difference is then the change;
 * - or a record an earlier answer listed with most of the body's fields and the URL's last
 *   segment as one of its values (TiddlyWiki's skinny tiddler list before `PUT
 *   /recipes/default/tiddlers/<title>`); the tool then reads `GET` of the target's own URL (a
 *   PUT's target URI names the resource a GET reads, RFC 9110 §9.3.4), and only the values the
 *   person gave are changes (the client's stamps are the site's business).
 *
 * A `PUT` of a new name followed by a `DELETE` of a listed record with the same fields under a
 * name the person gave is a rename: one tool that reads the old record, writes it under the new
 * name and deletes the old one (the target). Inputs and dependency extractors the rewrite leaves
 * unused are dropped, slots renumbered. Only a mutating tool is rewritten, and only when its write
 * keeps at least one field of the record. Pure; the tool comes back unchanged when nothing applies.
 */
export function readModifyWrite(tool: ToolSpec, trace: Trace, intent = tool.intent): ToolSpec {
  const target = tool.steps[tool.steps.length - 1]
  const exchange = trace.exchanges.find((e) => e.id === target?.exchangeId)
  if (!target || !exchange || !WHOLE_WRITE.test(exchange.method)) return tool
  if (target.request.body?.kind !== 'json' || target.request.body.base) return tool
  const sent = parseJsonRequest(exchange)
  if (!isRec(sent) || Object.keys(sent).length < 2) return tool
  const earlier = trace.exchanges.filter(
    (e) => e.seq < exchange.seq && e.status >= 200 && e.status < 300,
  )
  // Only a write copies a resource; a search POST may repeat a read's fields by chance.
  if (!tool.mutating) return tool
  const people = personValues(trace, intent)
  const resource = sameRead(exchange, sent, earlier) ?? listedRecord(exchange, sent, earlier)
  if (resource) return rewrite(tool, trace, exchange, sent, resource, people)
  const rename = renamed(exchange, sent, trace, earlier, people)
  return rename ? asRename(tool, trace, exchange, sent, rename, people) : tool
}

/** The latest earlier `GET` of the write's path whose JSON answer holds most of the body's fields. */
function sameRead(write: Exchange, sent: Rec, earlier: Exchange[]): Resource | null {
  const url = safeUrl(write.url)
  if (!url) return null
  for (const e of [...earlier].reverse()) {
    if (e.method !== 'GET') continue
    const at = safeUrl(e.url)
    if (!at || at.origin !== url.origin || at.pathname !== url.pathname) continue
    const answer = parseJsonBody(e)
    if (!isRec(answer)) continue
    const shared = Object.keys(sent).filter((k) => k in answer)
    if (shared.length >= 2 && shared.length * 2 >= Object.keys(sent).length)
      return { kind: 'read', reference: answer, from: e }
  }
  return null
}

/** The latest record an earlier answer listed that the write's URL names and its body repeats. */
function listedRecord(write: Exchange, sent: Rec, earlier: Exchange[]): Resource | null {
  const name = lastSegment(write.url)
  if (!name) return null
  const field = Object.keys(sent).find((k) => sent[k] === name)
  if (!field) return null
  const found = findListed(earlier, (record) => record[field] === name && overlaps(record, sent))
  return found && { kind: 'listed', ...found }
}

/** A rename: the write under a new name, the delete of the old record, and the old name. */
interface Rename extends Resource {
  field: string
  oldName: string
  remove: Exchange
}

/**
 * A `PUT` under a new name whose body repeats a listed record, followed by a `DELETE` of that
 * record under its name, which the person gave (typed, picked or named): a rename or move.
 */
function renamed(
  write: Exchange,
  sent: Rec,
  trace: Trace,
  earlier: Exchange[],
  people: PersonValue[],
): Rename | null {
  if (write.method.toUpperCase() !== 'PUT') return null
  const name = lastSegment(write.url)
  const field = name && Object.keys(sent).find((k) => sent[k] === name)
  if (!field) return null
  const given = new Set(people.map((p) => fold(p.value)))
  for (const remove of trace.exchanges) {
    if (remove.seq <= write.seq || remove.method.toUpperCase() !== 'DELETE') continue
    if (remove.status < 200 || remove.status >= 300 || remove.requestBody) continue
    const oldName = lastSegment(remove.url)
    if (!oldName || oldName === name || !given.has(fold(oldName))) continue
    const found = findListed(
      earlier,
      (record) =>
        record[field] === oldName &&
        overlaps(record, sent) &&
        Object.keys(record).filter((k) => k !== field && k in sent && same(record[k], sent[k]))
          .length >= 2,
    )
    if (found) return { kind: 'listed', ...found, field, oldName, remove }
  }
  return null
}

/** The latest answer's record that `fits`, searching lists of records a few levels deep. */
function findListed(
  earlier: Exchange[],
  fits: (record: Rec) => boolean,
): { reference: Rec; from: Exchange } | null {
  for (const e of [...earlier].reverse()) {
    const answer = parseJsonBody(e)
    if (answer === undefined) continue
    const record = records(answer, 0).find(fits)
    if (record) return { reference: record, from: e }
  }
  return null
}

function records(json: unknown, depth: number): Rec[] {
  if (depth > 3) return []
  if (Array.isArray(json)) return json.flatMap((item) => records(item, depth + 1))
  if (!isRec(json)) return []
  return [
    json,
    ...Object.values(json).flatMap((v) =>
      isRec(v) || Array.isArray(v) ? records(v, depth + 1) : [],
    ),
  ]
}

/** The record shares enough fields with the body to be the resource it writes. */
function overlaps(record: Rec, sent: Rec): boolean {
  const shared = Object.keys(record).filter((k) => k in sent).length
  return shared >= MIN_SHARED_FIELDS && shared >= MIN_SHARED_SHARE * Object.keys(record).length
}

/** The target rewritten over its resource's read (see {@link readModifyWrite}). */
function rewrite(
  tool: ToolSpec,
  trace: Trace,
  write: Exchange,
  sent: Rec,
  resource: Resource,
  people: PersonValue[],
): ToolSpec {
  const last = tool.steps[tool.steps.length - 1]!
  const target = resource.kind === 'listed' ? withNameInUrl(last, sent) : last
  const slots = new SlotBook(tool.inputs, people)
  const read = readStepFor(tool, resource, target.request)
  const diff = diffResource(sent, resource.reference, templateOf(target), slots.context(resource))
  // Nothing kept from the record (every field typed anew): the body is no copy of it.
  if (!diff.changes.length || !diff.kept) return tool
  const request = based(target.request, read.step.id, diff)
  const writeRequest = withIfMatch(request, read.step)
  const steps = tool.steps.slice(0, -1).map((s) => (s.id === read.step.id ? read.step : s))
  if (read.added) steps.push(read.step)
  steps.push({ ...target, request: writeRequest })
  return pruneTool(
    {
      ...tool,
      inputs: slots.inputs(read.step.id, diff),
      steps,
      evidence: withSignal(tool, signalOf(write, resource, diff, read.step)),
    },
    trace,
  )
}

/** The rename (see {@link readModifyWrite}): read old, write new (based on it), delete old. */
function asRename(
  tool: ToolSpec,
  trace: Trace,
  write: Exchange,
  sent: Rec,
  rename: Rename,
  people: PersonValue[],
): ToolSpec {
  const target = withNameInUrl(tool.steps[tool.steps.length - 1]!, sent)
  const slots = new SlotBook(tool.inputs, people)
  const oldSlot = slots.addPathInput(rename.field, rename.oldName, rename.remove)
  const readRequest = {
    ...readRequestOf(target.request),
    url: withLastSegment(target.request.url, `{{input.${oldSlot}}}`),
  }
  const read: ToolStep = { id: READ_STEP, request: readRequest, extract: [] }
  const diff = diffResource(sent, rename.reference, templateOf(target), slots.context(rename))
  if (!diff.changes.length || !diff.kept) return tool
  const put: ToolStep = {
    id: `d${write.seq}`,
    exchangeId: write.id,
    request: withIfMatch(based(target.request, READ_STEP, diff), read),
    extract: [],
  }
  const remove: ToolStep = {
    id: 'target',
    exchangeId: rename.remove.id,
    request: deleteRequest(rename.remove, put.request, oldSlot),
    extract: [],
  }
  const answer = parseJsonBody(rename.remove)
  const inferred = inferSchema(answer)
  const verify =
    acknowledgementRule(rename.remove, answer) ??
    deriveVerifyRule(inferred, answer, { exchange: rename.remove })
  const path = safeUrl(rename.remove.url)?.pathname ?? rename.remove.url
  return pruneTool(
    {
      ...tool,
      description: `${tool.intent} — ${rename.remove.method} ${path}`,
      mutating: true,
      inputs: slots.inputs(READ_STEP, diff),
      steps: [...tool.steps.slice(0, -1), read, put, remove],
      output: outputForRule(verify, inferred),
      verify,
      evidence: {
        ...withSignal(tool, {
          name: 'rename',
          weight: 0,
          detail: `PUT ${safeUrl(write.url)?.pathname} repeats the record "${rename.oldName}" that ${rename.remove.method} ${path} then removes: a rename; the old ${rename.field} is an input`,
        }),
        targetExchangeId: rename.remove.id,
      },
    },
    trace,
  )
}

/**
 * The inputs as the rewrite leaves them: which are the person's (changes carry them), which name
 * a list item (selectors), and new ones (the old name of a rename).
 */
class SlotBook {
  private readonly properties: Record<string, SlotSchema>
  private readonly required: string[]
  private readonly given: PersonValue[]
  private readonly selectors = new Set<string>()

  constructor(inputs: ToolSpec['inputs'], given: PersonValue[]) {
    this.properties = structuredClone(inputs.properties)
    this.required = [...(inputs.required ?? [])]
    this.given = given
  }

  /** How the diff tells the person's values and the item they picked. */
  context(resource: Resource): DiffContext {
    const personal = new Set(
      Object.entries(this.properties)
        .filter(([name, p]) => this.required.includes(name) || this.isGiven(p.default, true))
        .map(([, p]) => p['x-slot']),
    )
    return {
      exact: resource.kind === 'read',
      personal: (template) =>
        [...JSON.stringify(template ?? null).matchAll(/\{\{\s*input\.(p\d+)\s*\}\}/g)].some((m) =>
          personal.has(m[1]!),
        ),
      selectorSlot: (value) => {
        const slot = Object.values(this.properties).find(
          (p) => typeof p.default === 'string' && fold(p.default) === fold(value),
        )?.['x-slot']
        if (slot && this.isGiven(value, false)) {
          this.selectors.add(slot)
          return slot
        }
        return null
      },
    }
  }

  /** A new required path input holding a record's old name (a rename's `DELETE` segment). */
  addPathInput(field: string, value: string, remove: Exchange): string {
    const used = Object.values(this.properties).map((p) => Number(p['x-slot'].slice(1)) || 0)
    const slot = `p${Math.max(-1, ...used) + 1}`
    const taken = Object.entries(this.properties).find(([name]) => name === field)
    if (taken) {
      delete this.properties[field]
      this.properties[`new_${field}`] = taken[1]
      this.required.forEach((r, i) => r === field && (this.required[i] = `new_${field}`))
      taken[1].description = `The new ${field}.`
    }
    const segments = pathSegments(remove.url)
    this.properties[field] = {
      'x-slot': slot,
      'x-in': 'path',
      'x-path': String(segments.length - 1),
      type: 'string',
      minLength: 1,
      description: `The ${field} of the record to rename: it is read, written under the new ${field}, then deleted.`,
      default: value,
      examples: [value],
    }
    this.required.push(field)
    return slot
  }

  /** The inputs with where each now goes: a change's path, or the item lookup of a selector. */
  inputs(readStep: string, diff: ResourceDiff): ToolSpec['inputs'] {
    for (const p of Object.values(this.properties)) {
      const placeholder = `{{input.${p['x-slot']}}}`
      if (this.selectors.has(p['x-slot'])) {
        const change = diff.changes.find((c) => c.path.includes(placeholder))
        const parts = change ? parsePath(change.path) : null
        const at = parts?.findIndex((part) => part.kind === 'where') ?? -1
        const where = parts?.[at]
        p['x-in'] = 'answer'
        p['x-path'] =
          `step.${readStep}.${parts && at >= 0 ? formatPath(parts.slice(0, at + 1)) : ''}`
        if (parts && where?.kind === 'where') {
          const list = formatPath(parts.slice(0, at)) || 'the list'
          const field = where.field.join('.')
          p.description = `The ${field} of the item of ${list} to change (found by this ${field} in the answer read first).`
        }
        continue
      }
      const change = diff.changes.find((c) => c.value === placeholder)
      if (change && p['x-in'] === 'body') p['x-path'] = change.path
    }
    return { type: 'object', properties: this.properties, required: this.required }
  }

  private isGiven(value: unknown, strongOnly: boolean): boolean {
    if (typeof value !== 'string' || !value.trim()) return false
    return this.given.some((g) => (g.strong || !strongOnly) && fold(g.value) === fold(value))
  }
}

/** The read step of a resource: the trace's own read (a step already, or added), or a new GET. */
function readStepFor(
  tool: ToolSpec,
  resource: Resource,
  target: RequestTemplate,
): { step: ToolStep; added: boolean } {
  if (resource.kind === 'read') {
    const existing = tool.steps.find((s) => s.exchangeId === resource.from.id)
    // A copy: the ETag extractor `withIfMatch` may add must not change the tool given.
    if (existing) return { step: { ...existing, extract: [...existing.extract] }, added: false }
    const query = safeUrl(resource.from.url)?.search ?? ''
    const request = { ...readRequestOf(target), url: `${target.url.split('?')[0]}${query}` }
    const step = { id: `d${resource.from.seq}`, exchangeId: resource.from.id, request, extract: [] }
    return { step, added: true }
  }
  return { step: { id: READ_STEP, request: readRequestOf(target), extract: [] }, added: true }
}

/** A GET of the target's URL with the target's headers (its session and CSRF ones), JSON asked. */
function readRequestOf(target: RequestTemplate): RequestTemplate {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(target.headers))
    if (!/^(content-type|if-match|if-unmodified-since)$/i.test(name)) headers[name] = value
  headers.accept = 'application/json'
  return { method: 'GET', url: target.url, headers, body: null }
}

/** The target's request with its JSON body based on the read's answer. */
function based(request: RequestTemplate, step: string, diff: ResourceDiff): RequestTemplate {
  return {
    ...request,
    body: { kind: 'json', template: diff.shown, base: { step, path: '', changes: diff.changes } },
  }
}

/**
 * A write that sends `If-Match` (RFC 9110 §13.1.1) sends the read's `ETag`, read fresh: the
 * recorded one names a revision that is gone by the next run.
 */
function withIfMatch(request: RequestTemplate, read: ToolStep): RequestTemplate {
  const name = Object.keys(request.headers).find((h) => h.toLowerCase() === 'if-match')
  if (!name) return request
  if (!read.extract.some((x) => x.name === 'etag'))
    read.extract.push({ name: 'etag', from: 'header', path: 'etag' })
  return { ...request, headers: { ...request.headers, [name]: `{{step.${read.id}.etag}}` } }
}

/** A rename's `DELETE` of the old record: its URL's last segment the old name's input. */
function deleteRequest(remove: Exchange, put: RequestTemplate, slot: string): RequestTemplate {
  const url = safeUrl(remove.url)!
  const last = pathSegments(remove.url).length - 1
  const path = placePath(url.pathname, new Map([[`path:${last}`, `{{input.${slot}}}`]]))
  const headers = keptHeaders(remove.requestHeaders)
  // Session and CSRF headers as the write binds them (a login value, a token read fresh).
  for (const [name, value] of Object.entries(put.headers))
    if (name in headers || /\{\{/.test(value)) headers[name] = value
  delete headers['content-type']
  return { method: remove.method, url: `${url.origin}${path}${url.search}`, headers, body: null }
}

/**
 * The write with the input that carries the record's name in its body also in its URL's last
 * segment, where the recorded name stayed literal (one value the person gave, in two places:
 * the resource the URL names is the record the body names).
 */
function withNameInUrl(step: ToolStep, sent: Rec): ToolStep {
  const name = lastSegment(step.request.url)
  const template = templateOf(step)
  if (!name || /\{\{/.test(name) || !isRec(template)) return step
  const field = Object.keys(sent).find((k) => sent[k] === name)
  const placeholder = field === undefined ? undefined : template[field]
  if (typeof placeholder !== 'string' || !/^\{\{\s*input\.p\d+\s*\}\}$/.test(placeholder))
    return step
  const url = withLastSegment(step.request.url, placeholder)
  return { ...step, request: { ...step.request, url } }
}

function templateOf(step: ToolStep): unknown {
  return step.request.body?.kind === 'json' ? step.request.body.template : undefined
}

/** The URL template with its last path segment replaced by `placeholder`. */
function withLastSegment(url: string, placeholder: string): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i.exec(url)
  if (!parts) return url
  const path = parts[2]!.replace(/\/[^/]+(\/?)$/, `/${placeholder}$1`)
  return `${parts[1]}${path}${parts[3]}`
}

/** The URL's last non-empty path segment, percent-decoded; null when there is none. */
function lastSegment(url: string): string | null {
  const segments = pathSegments(url)
  const last = segments[segments.length - 1]
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

function signalOf(
  write: Exchange,
  resource: Resource,
  diff: ResourceDiff,
  read: ToolStep,
): EvidenceSignal {
  const where =
    resource.kind === 'read'
      ? `the answer of GET ${safeUrl(resource.from.url)?.pathname}`
      : `GET ${safeUrl(write.url)?.pathname} (the record ${safeUrl(resource.from.url)?.pathname} listed)`
  const stamped = diff.stamped.length ? `; ${diff.stamped.join(', ')} as read` : ''
  return {
    name: 'read_modify_write',
    weight: 0,
    detail: `${write.method} sends the whole record: step ${read.id} reads ${where}, the body is that with ${diff.changes.map((c) => `${c.op} ${c.path}`).join(', ')} (${diff.kept} fields as read${stamped})`,
  }
}

function withSignal(tool: ToolSpec, signal: EvidenceSignal): ToolSpec['evidence'] {
  return { ...tool.evidence, signals: [...tool.evidence.signals, signal] }
}

function isRec(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
