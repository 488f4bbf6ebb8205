import { fold } from '../../shared/jsonPath'
import type { RequestTemplate, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { placePath } from './stepTemplate'
import { keptHeaders } from './headers'
import { inferSchema } from './inferSchema'
import type { PersonValue } from './personValues'
import { pathSegments } from './requestValues'
import { same } from './resourceDiff'
import {
  basedWrite,
  findListed,
  isRec,
  lastSegment,
  nameField,
  overlaps,
  READ_STEP,
  readRequestOf,
  withLastSegment,
  withNameInUrl,
  withSignal,
  type Rec,
  type Resource,
} from './resourceRecords'
import { SlotBook } from './rmwSlots'
import { pruneTool } from './toolPrune'
import { acknowledgementRule, deriveVerifyRule, outputForRule } from './verifyRule'

/** A rename: the write under a new name, the delete of the old record, and the old name. */
export interface Rename extends Resource {
  field: string
  oldName: string
  remove: Exchange
}

/**
 * A `PUT` under a new name whose body repeats a listed record, followed by a `DELETE` of that
 * record under its name, which the person gave (typed, picked or named): a rename or move.
 */
export function renamed(
  write: Exchange,
  sent: Rec,
  trace: Trace,
  earlier: Exchange[],
  people: PersonValue[],
): Rename | null {
  if (write.method.toUpperCase() !== 'PUT') return null
  const named = nameField(write.url, sent)
  if (!named) return null
  const { name, field } = named
  const given = new Set(people.map((p) => fold(p.value)))
  const namesDeleted = trace.exchanges.some((e) => {
    const deleted = e.method.toUpperCase() === 'DELETE' ? lastSegment(e.url) : null
    return deleted !== null && given.has(fold(deleted))
  })
  for (const remove of trace.exchanges) {
    if (remove.seq <= write.seq || remove.method.toUpperCase() !== 'DELETE') continue
    if (remove.status < 200 || remove.status >= 300 || remove.requestBody) continue
    const oldName = lastSegment(remove.url)
    if (!oldName || oldName === name) continue
    // Where the person named a record the trace deletes, the old name must be it; where they
    // named none ("give a tiddler a new title"), the trace's shape (a listed record written anew
    // under another name, then deleted) decides.
    if (namesDeleted && !given.has(fold(oldName))) continue
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

/** The rename (see `readModifyWrite`): read old, write new (based on it), delete old. */
export function asRename(
  tool: ToolSpec,
  trace: Trace,
  write: Exchange,
  sent: Rec,
  rename: Rename,
  people: PersonValue[],
): ToolSpec {
  const named = withNewNameInput(tool, rename.field, sent)
  const target = withNameInUrl(named.steps[named.steps.length - 1]!, sent)
  const slots = new SlotBook(named.inputs, people)
  const oldSlot = slots.addPathInput(rename.field, rename.oldName, rename.remove)
  const readRequest = {
    ...readRequestOf(target.request),
    url: withLastSegment(target.request.url, `{{input.${oldSlot}}}`),
  }
  const read: ToolStep = { id: READ_STEP, request: readRequest, extract: [] }
  const based = basedWrite(target, sent, rename.reference, slots.context(rename), read)
  if (!based) return tool
  const put: ToolStep = {
    id: `d${write.seq}`,
    exchangeId: write.id,
    request: based.request,
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
  const path = httpUrl(rename.remove.url)?.pathname ?? rename.remove.url
  return pruneTool(
    {
      ...tool,
      description: `${tool.intent} — ${rename.remove.method} ${path}`,
      mutating: true,
      inputs: slots.inputs(READ_STEP, based.diff),
      steps: [...tool.steps.slice(0, -1), read, put, remove],
      output: outputForRule(verify, inferred),
      verify,
      evidence: {
        ...withSignal(tool, {
          name: 'rename',
          weight: 0,
          detail: `PUT ${httpUrl(write.url)?.pathname} repeats the record "${rename.oldName}" that ${rename.remove.method} ${path} then removes: a rename; the old ${rename.field} is an input`,
        }),
        targetExchangeId: rename.remove.id,
      },
    },
    trace,
  )
}

/** A rename's `DELETE` of the old record: its URL's last segment the old name's input. */
function deleteRequest(remove: Exchange, put: RequestTemplate, slot: string): RequestTemplate {
  const url = httpUrl(remove.url)!
  const last = pathSegments(remove.url).length - 1
  const path = placePath(url.pathname, new Map([[`path:${last}`, `{{input.${slot}}}`]]))
  const headers = keptHeaders(remove.requestHeaders, remove.method, httpUrl(remove.url)?.host)
  // Session and CSRF headers as the write binds them (a login value, a token read fresh).
  for (const [name, value] of Object.entries(put.headers))
    if (name in headers || /\{\{/.test(value)) headers[name] = value
  delete headers['content-type']
  return { method: remove.method, url: `${url.origin}${path}${url.search}`, headers, body: null }
}

/**
 * The write with its name field as a required input: a rename's new name is the person's by its
 * nature, also when the intent named no value. Unchanged when the field is already a required
 * input or the body is no JSON record.
 */
function withNewNameInput(tool: ToolSpec, field: string, sent: Rec): ToolSpec {
  const last = tool.steps[tool.steps.length - 1]!
  const body = last.request.body
  const value = sent[field]
  if (body?.kind !== 'json' || !isRec(body.template) || typeof value !== 'string') return tool
  const placed = /^\{\{\s*input\.(p\d+)\s*\}\}$/.exec(String(body.template[field] ?? ''))?.[1]
  if (placed) {
    // Already a slot (a HAR's body fields all are when nothing was named): it becomes required.
    const name = Object.keys(tool.inputs.properties).find(
      (k) => tool.inputs.properties[k]!['x-slot'] === placed,
    )
    const required = tool.inputs.required ?? []
    if (!name || required.includes(name)) return tool
    return { ...tool, inputs: { ...tool.inputs, required: [...required, name] } }
  }
  const used = Object.values(tool.inputs.properties).map((p) => Number(p['x-slot'].slice(1)) || 0)
  const slot = `p${Math.max(-1, ...used) + 1}`
  const template = { ...body.template, [field]: `{{input.${slot}}}` }
  const step = { ...last, request: { ...last.request, body: { ...body, template } } }
  const input: SlotSchema = {
    'x-slot': slot,
    'x-in': 'body',
    'x-path': field,
    type: 'string',
    default: value,
    description: `The new ${field}.`,
  }
  return {
    ...tool,
    inputs: {
      ...tool.inputs,
      properties: { ...tool.inputs.properties, [field]: input },
      required: [...(tool.inputs.required ?? []), field],
    },
    steps: [...tool.steps.slice(0, -1), step],
  }
}
