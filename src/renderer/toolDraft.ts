import type { InputType, ToolEdit } from '../shared/toolEdit'
import { INPUT_TYPES } from '../shared/toolEdit'
import type { ToolSpec } from '../shared/toolSpec'

/** One input as the editor's text fields hold it. */
interface InputDraft {
  slot: string
  name: string
  type: InputType
  required: boolean
  /** Empty: no default. */
  default: string
  /** Comma-separated options; empty: any value. */
  options: string
}

/** What the tool editor's fields hold: text, turned into a `ToolEdit` by {@link editFromDraft}. */
export interface ToolDraft {
  name: string
  description: string
  inputs: InputDraft[]
  headers: Array<{ name: string; value: string }>
  body: Array<{ path: string; value: string }>
  statusFrom: string
  statusTo: string
  /** One `path: type` per line. */
  required: string
}

const asText = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value)

/** Leaf fields of a JSON body template as dot paths (`filters.page`); lists stay whole. */
function leaves(value: unknown, prefix = ''): Array<{ path: string; value: string }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return prefix ? [{ path: prefix, value: asText(value) }] : []
  return Object.entries(value).flatMap(([key, child]) =>
    Array.isArray(child) ? [] : leaves(child, prefix ? `${prefix}.${key}` : key),
  )
}

/** The editor's starting state: the tool as it is. */
export function draftOf(tool: ToolSpec): ToolDraft {
  const required = new Set(tool.inputs.required ?? [])
  const request = tool.steps.at(-1)?.request
  const body = request?.body
  return {
    name: tool.name,
    description: tool.description,
    inputs: Object.entries(tool.inputs.properties).map(([name, slot]) => ({
      slot: slot['x-slot'],
      name,
      type: INPUT_TYPES.find((t) => t === slot.type) ?? 'string',
      required: required.has(name),
      default: asText(slot.default),
      options: slot.enum ? slot.enum.map(asText).join(', ') : '',
    })),
    headers: Object.entries(request?.headers ?? {}).map(([name, value]) => ({ name, value })),
    body:
      body?.kind === 'json'
        ? leaves(body.template)
        : body?.kind === 'form'
          ? Object.entries(body.template).map(([path, value]) => ({ path, value }))
          : [],
    statusFrom: String(tool.verify.status[0]),
    statusTo: String(tool.verify.status[1]),
    required: tool.verify.required.map((r) => `${r.path}: ${r.type}`).join('\n'),
  }
}

/** A typed value from the text of a field; throws a message the editor shows. */
function typed(input: InputDraft, text: string): string | number | boolean {
  const value = text.trim()
  if (input.type === 'string') return text
  if (input.type === 'boolean') {
    if (value === 'true' || value === 'false') return value === 'true'
    throw new Error(`${input.name}: write true or false.`)
  }
  const number = Number(value)
  if (
    value === '' ||
    !Number.isFinite(number) ||
    (input.type === 'integer' && !Number.isInteger(number))
  )
    throw new Error(
      `${input.name}: "${text}" is not ${input.type === 'integer' ? 'an integer' : 'a number'}.`,
    )
  return number
}

/**
 * The edit a draft makes to `tool`: every part the editor shows, with headers the person
 * removed sent as null and only the body fields whose value changed. Throws an `Error` whose
 * message names the field when a default, option or status is not of its type.
 */
export function editFromDraft(tool: ToolSpec, draft: ToolDraft): ToolEdit {
  const before = draftOf(tool)
  const headers: Record<string, string | null> = {}
  const kept = new Set(draft.headers.map((h) => h.name.trim().toLowerCase()).filter(Boolean))
  for (const h of before.headers) if (!kept.has(h.name.toLowerCase())) headers[h.name] = null
  for (const h of draft.headers) {
    const name = h.name.trim()
    const old = before.headers.find((b) => b.name.toLowerCase() === name.toLowerCase())
    if (name && old?.value !== h.value) headers[name] = h.value
  }
  const body = draft.body.filter(
    (field) => before.body.find((b) => b.path === field.path)?.value !== field.value,
  )
  const statusFrom = Number(draft.statusFrom)
  const statusTo = Number(draft.statusTo)
  if (!Number.isInteger(statusFrom) || !Number.isInteger(statusTo))
    throw new Error('The accepted status range takes two whole numbers, like 200 and 299.')
  const required = draft.required
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.lastIndexOf(':')
      if (at <= 0) throw new Error(`Verify rule: write "path: type", not "${line}".`)
      return { path: line.slice(0, at).trim(), type: line.slice(at + 1).trim() }
    })
  return {
    name: draft.name.trim(),
    description: draft.description,
    inputs: draft.inputs.map((input) => ({
      slot: input.slot,
      name: input.name.trim(),
      type: input.type,
      required: input.required,
      default: input.default === '' ? null : typed(input, input.default),
      enum: input.options.trim()
        ? input.options.split(',').map((o) => typed(input, o.trim()))
        : null,
    })),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(body.length ? { body } : {}),
    verify: { status: [statusFrom, statusTo], required },
  }
}
