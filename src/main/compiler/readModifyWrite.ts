import type { EvidenceSignal, RequestTemplate, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody, parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { personValues, type PersonValue } from './personValues'
import { asRename, renamed } from './renameWrite'
import type { ResourceDiff } from './resourceDiff'
import {
  basedWrite,
  findListed,
  isRec,
  nameField,
  overlaps,
  READ_STEP,
  readRequestOf,
  withNameInUrl,
  withSignal,
  type Rec,
  type Resource,
} from './resourceRecords'
import { SlotBook } from './rmwSlots'
import { pruneTool } from './toolPrune'

/** Methods whose JSON body may be a whole resource sent back (RFC 9110 §9.3.4 PUT, POST, PATCH). */
const WHOLE_WRITE = /^(PUT|POST|PATCH)$/i

/**
 * Makes a write that sends a whole resource a read-modify-write (the brief's
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
  const url = httpUrl(write.url)
  if (!url) return null
  for (const e of [...earlier].reverse()) {
    if (e.method !== 'GET') continue
    const at = httpUrl(e.url)
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
  const named = nameField(write.url, sent)
  if (!named) return null
  const { name, field } = named
  const found = findListed(earlier, (record) => record[field] === name && overlaps(record, sent))
  return found && { kind: 'listed', ...found }
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
  // Nothing kept from the record (every field typed anew): the body is no copy of it.
  const based = basedWrite(target, sent, resource.reference, slots.context(resource), read.step)
  if (!based) return tool
  const steps = tool.steps.slice(0, -1).map((s) => (s.id === read.step.id ? read.step : s))
  if (read.added) steps.push(read.step)
  steps.push({ ...target, request: based.request })
  return pruneTool(
    {
      ...tool,
      inputs: slots.inputs(read.step.id, based.diff),
      steps,
      evidence: withSignal(tool, signalOf(write, resource, based.diff, read.step)),
    },
    trace,
  )
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
    const query = httpUrl(resource.from.url)?.search ?? ''
    const request = { ...readRequestOf(target), url: `${target.url.split('?')[0]}${query}` }
    const step = { id: `d${resource.from.seq}`, exchangeId: resource.from.id, request, extract: [] }
    return { step, added: true }
  }
  return { step: { id: READ_STEP, request: readRequestOf(target), extract: [] }, added: true }
}

function signalOf(
  write: Exchange,
  resource: Resource,
  diff: ResourceDiff,
  read: ToolStep,
): EvidenceSignal {
  const where =
    resource.kind === 'read'
      ? `the answer of GET ${httpUrl(resource.from.url)?.pathname}`
      : `GET ${httpUrl(write.url)?.pathname} (the record ${httpUrl(resource.from.url)?.pathname} listed)`
  const stamped = diff.stamped.length ? `; ${diff.stamped.join(', ')} as read` : ''
  return {
    name: 'read_modify_write',
    weight: 0,
    detail: `${write.method} sends the whole record: step ${read.id} reads ${where}, the body is that with ${diff.changes.map((c) => `${c.op} ${c.path}`).join(', ')} (${diff.kept} fields as read${stamped})`,
  }
}
