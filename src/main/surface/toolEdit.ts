import type { SecretSummary } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import {
  SENDER_HEADER,
  type InputEdit,
  type ToolEdit,
  type VerifyEdit,
} from '../../shared/toolEdit'
import type { JsonSchema, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import { isUnsafeKey, unsafeSegment } from '../../shared/safeKeys'
import { hostAllowed } from '../vault'

/** What an edit is checked against besides the tool itself. */
export interface ToolEditContext {
  /** Milliseconds since the Unix epoch: the new version's date and `updatedAt`. */
  now: number
  /** True when another tool of the same site already has this name. */
  nameTaken: (name: string) => boolean
  /** The workspace's secrets (names and bound hosts), or null when there is no vault. */
  secrets: SecretSummary[] | null
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}/g

const invalid = (message: string) => new ServiceError('invalid_input', message)

/**
 * The next version string after `previous` on the day `now` (the interface's tool versions,
 * "Versioning" 3: `2026.09.28`, and `2026.09.22.1` for a second version of the same day).
 */
export function nextToolVersion(previous: string, now: number): string {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '.')
  if (!previous.startsWith(day)) return day
  const count = Number(previous.slice(day.length + 1) || '0')
  return `${day}.${Number.isFinite(count) ? count + 1 : 1}`
}

/**
 * Applies an edit to a copy of `tool` and returns the new version: status
 * `candidate` (its first authorized run must verify it again, interface.md "Tool candidate"), a new
 * `version`, `updatedAt` = `now`. The input `tool` is not changed.
 *
 * Errors (all 400 `invalid_input`, nothing saved): a name another tool of the site has; inputs
 * that do not list each existing slot once, repeat a name, carry a default or option not of
 * their type, or are named `__proto__`, `prototype` or `constructor`; a header the sender owns
 * (`Host`, `Content-Length`, hop-by-hop, `Proxy-*`) or one with a line break; a header or body
 * value naming a slot the tool lacks, a secret not stored or not bound to the tool's host, or a
 * secret in the JSON-text form `{{json:secret:X}}`; a body field on a request with no JSON or form
 * body, or whose path or a verify path walks through `__proto__`, `prototype` or `constructor`;
 * a status range whose low end is above its high end.
 */
export function applyToolEdit(tool: ToolSpec, edit: ToolEdit, context: ToolEditContext): ToolSpec {
  const next = structuredClone(tool)
  if (edit.name !== undefined && edit.name !== tool.name) {
    if (context.nameTaken(edit.name))
      throw invalid(`${tool.siteHost} already has a tool named ${edit.name}: pick another name.`)
    // Capability ids made from the name follow it; ids given another way (the interface's) stay.
    if (tool.capabilityId === `${tool.siteHost}/${tool.name}`)
      next.capabilityId = `${tool.siteHost}/${edit.name}`
    next.name = edit.name
  }
  if (edit.description !== undefined) next.description = edit.description
  if (edit.inputs) next.inputs = editInputs(tool, edit.inputs)
  const target = next.steps.at(-1)
  if ((edit.headers || edit.body) && !target) throw invalid(`${tool.name} has no request to edit.`)
  const slots = new Set(Object.values(next.inputs.properties).map((s) => s['x-slot']))
  const checkValue = (where: string, value: string) =>
    checkPlaceholders(where, value, slots, tool.siteHost, context.secrets)
  if (edit.headers && target) editHeaders(target, edit.headers, checkValue)
  if (edit.body && target)
    for (const field of edit.body) {
      checkValue(`Body field ${field.path}`, field.value)
      setBodyField(target, field.path, field.value)
    }
  if (edit.verify) next.verify = editVerify(next.verify, edit.verify)
  next.version = nextToolVersion(tool.version, context.now)
  next.status = 'candidate'
  next.updatedAt = context.now
  return next
}

function editInputs(tool: ToolSpec, inputs: InputEdit[]): ToolSpec['inputs'] {
  const bySlot = new Map(Object.values(tool.inputs.properties).map((s) => [s['x-slot'], s]))
  const sent = inputs.map((i) => i.slot)
  const missing = [...bySlot.keys()].filter((slot) => !sent.includes(slot))
  const unknown = sent.filter((slot) => !bySlot.has(slot))
  if (missing.length || unknown.length || new Set(sent).size !== sent.length)
    throw invalid(
      `List each input of ${tool.name} once: slots ${[...bySlot.keys()].join(', ') || '(none)'}` +
        (unknown.length ? `; ${unknown.join(', ')} is not one of them.` : '.'),
    )
  const names = inputs.map((i) => i.name)
  const unsafe = names.find(isUnsafeKey)
  if (unsafe) throw invalid(`"${unsafe}" cannot name an input: pick another name.`)
  const repeated = names.find((n, i) => names.indexOf(n) !== i)
  if (repeated) throw invalid(`Two inputs are named ${repeated}: each needs its own name.`)
  const properties: Record<string, SlotSchema> = {}
  for (const input of inputs) {
    const before = bySlot.get(input.slot)!
    const { default: _default, enum: _enum, description: _description, ...kept } = before
    const schema: SlotSchema = { ...kept, type: input.type }
    const description = input.description ?? before.description
    if (description) schema.description = description
    const options = input.enum?.length ? input.enum : null
    if (options) {
      for (const option of options) checkTyped(input, option, 'option')
      schema.enum = [...options]
    }
    if (input.default !== undefined && input.default !== null) {
      checkTyped(input, input.default, 'default')
      if (options && !options.includes(input.default))
        throw invalid(`The default of ${input.name} is not one of its options.`)
      schema.default = input.default
    }
    properties[input.name] = schema
  }
  const required = inputs.filter((i) => i.required).map((i) => i.name)
  const schema: JsonSchema & { properties: Record<string, SlotSchema> } = {
    ...tool.inputs,
    properties,
    required,
  }
  if (!required.length) delete schema.required
  return schema
}

function checkTyped(input: InputEdit, value: unknown, what: string): void {
  const fits =
    input.type === 'string'
      ? typeof value === 'string'
      : input.type === 'boolean'
        ? typeof value === 'boolean'
        : typeof value === 'number' && (input.type === 'number' || Number.isInteger(value))
  if (!fits)
    throw invalid(
      `The ${what} ${JSON.stringify(value)} of ${input.name} is not ${input.type === 'integer' ? 'an' : 'a'} ${input.type}.`,
    )
}

/**
 * Refuses a value whose `{{input.pN}}` names no slot of the tool, or whose `{{secret:NAME}}`
 * names a secret not stored or not bound to the tool's host (the run would be refused with
 * `policy_denied`; docs/architecture.md "every secret against the host it is bound to").
 */
function checkPlaceholders(
  where: string,
  value: string,
  slots: Set<string>,
  siteHost: string,
  secrets: SecretSummary[] | null,
): void {
  for (const match of value.matchAll(PLACEHOLDER)) {
    let name = match[1]!
    // `{{json:X}}` writes X as JSON text; a secret is only put in by its plain form, so a JSON
    // form of one would be sent as `null`.
    if (name.startsWith('json:')) {
      name = name.slice('json:'.length)
      if (!name.startsWith('input.'))
        throw invalid(`${where} names ${match[0]}: only an input can be written as JSON text.`)
    }
    if (name.startsWith('input.') && !slots.has(name.slice('input.'.length)))
      throw invalid(`${where} names ${match[0]}, but the tool has no input slot ${name.slice(6)}.`)
    if (!name.startsWith('secret:')) continue
    const secretName = name.slice('secret:'.length)
    const secret = secrets?.find((s) => s.name === secretName)
    if (!secret)
      throw invalid(
        `${where} names the secret ${secretName}, which is not stored: add it under Secrets first.`,
      )
    if (!hostAllowed(`http://${siteHost}/`, secret.hosts))
      throw invalid(
        `The secret ${secretName} is not bound to ${siteHost}: add that host to it under Secrets first.`,
      )
  }
}

function editHeaders(
  target: ToolStep,
  headers: Record<string, string | null>,
  checkValue: (where: string, value: string) => void,
): void {
  const current = target.request.headers
  for (const [name, value] of Object.entries(headers)) {
    if (SENDER_HEADER.test(name) || isUnsafeKey(name))
      throw invalid(`The header ${name} is set by the sender, not by a tool.`)
    // A line break would end the header and start another one (RFC 9110 §5.5).
    if (/[\r\n\0]/.test(name) || (value !== null && /[\r\n\0]/.test(value)))
      throw invalid(`The header ${JSON.stringify(name)} holds a line break or a NUL.`)
    // HTTP header names are case-insensitive (RFC 9110 §5.1): one entry per name, whatever case.
    for (const key of Object.keys(current))
      if (key.toLowerCase() === name.toLowerCase()) delete current[key]
    if (value === null) continue
    checkValue(`Header ${name}`, value)
    current[name] = value
  }
}

function setBodyField(target: ToolStep, path: string, value: string): void {
  const unsafe = unsafeSegment(path)
  if (unsafe) throw invalid(`The body field ${path} names "${unsafe}", which no field may be.`)
  const body = target.request.body
  if (body?.kind === 'form') {
    body.template[path] = value
    return
  }
  if (body?.kind !== 'json' || typeof body.template !== 'object' || body.template === null)
    throw invalid(`The request sends no JSON or form body: there is no field ${path} to set.`)
  const keys = path.split('.')
  let node = body.template as Record<string, unknown>
  for (const key of keys.slice(0, -1)) {
    const child = Object.hasOwn(node, key) ? node[key] : undefined
    if (typeof child !== 'object' || child === null) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  const last = keys.at(-1)!
  node[last] = typedLike(Object.hasOwn(node, last) ? node[last] : undefined, value)
  // A body based on a read sends the read's answer with its changes: the edit becomes one.
  if (body.base)
    body.base.changes = [
      ...body.base.changes.filter((c) => c.path !== path),
      { path, op: 'set', value: node[last] },
    ]
}

/** A literal keeps the JSON type of the value it replaces (`5` stays a number); text otherwise. */
function typedLike(before: unknown, value: string): unknown {
  if (typeof before === 'number' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value)
  if (typeof before === 'boolean' && (value === 'true' || value === 'false'))
    return value === 'true'
  return value
}

function editVerify(rule: ToolSpec['verify'], edit: VerifyEdit): ToolSpec['verify'] {
  for (const field of edit.required ?? []) {
    const unsafe = unsafeSegment(field.path)
    if (unsafe)
      throw invalid(`The verify path ${field.path} names "${unsafe}", which no field may be.`)
  }
  if (edit.status && edit.status[0] > edit.status[1])
    throw invalid(`The status range ${edit.status[0]}-${edit.status[1]} is empty.`)
  return {
    ...rule,
    ...(edit.status ? { status: [edit.status[0], edit.status[1]] } : {}),
    ...(edit.mimeType ? { mimeType: edit.mimeType } : {}),
    ...(edit.required ? { required: edit.required.map((r) => ({ ...r })) } : {}),
  }
}
