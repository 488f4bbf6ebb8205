import type { RequestTemplate, SlotSchema, TemplateBody, ToolSpec } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { parseJsonRequest, safeUrl } from './classify'
import { jsonType } from './inferSchema'
import { requestValues, type RequestValue } from './requestValues'
import type { TypedValue } from './typedValues'

/**
 * Headers a replay must not copy: hop-by-hop and computed ones (RFC 9110 §7.6.1), browser-only
 * fetch metadata, and session-bound ones (cookies and credentials belong to the site's login).
 */
const DROPPED_HEADERS =
  /^(:|sec-|cookie$|authorization$|host$|content-length$|connection$|accept-encoding$|origin$|referer$|user-agent$|priority$|pragma$|cache-control$|upgrade-insecure-requests$|if-none-match$|if-modified-since$|keep-alive$|transfer-encoding$)/i

export interface SlotPlan {
  inputs: ToolSpec['inputs']
  request: RequestTemplate
}

/**
 * Turns the target request into a request template and its input slots (issue 2 "Compiler v1"):
 * each typed value becomes a required slot named after its request key, typed (a `<select>`'s
 * options become an enum); every other scalar of the query or body becomes an optional slot whose
 * default is the observed value. Slots are numbered p0..pn, typed ones first.
 */
export function planSlots(
  exchange: Exchange,
  matches: Array<{ typed: TypedValue; value: RequestValue }>,
): SlotPlan {
  const values = requestValues(exchange)
  const typedByPath = new Map(matches.map((m) => [`${m.value.location}:${m.value.path}`, m.typed]))
  const ordered = [
    ...values.filter((v) => typedByPath.has(`${v.location}:${v.path}`)),
    ...values.filter((v) => !typedByPath.has(`${v.location}:${v.path}`)),
  ]
  const properties: Record<string, SlotSchema> = {}
  const required: string[] = []
  const slotOf = new Map<string, string>()
  const used = new Set<string>()
  ordered.forEach((v, index) => {
    const slot = `p${index}`
    const name = semanticName(v, used)
    const typed = typedByPath.get(`${v.location}:${v.path}`)
    properties[name] = slotSchema(v, slot, typed)
    if (typed) required.push(name)
    slotOf.set(`${v.location}:${v.path}`, slot)
  })
  return {
    inputs: { type: 'object', properties, required, additionalProperties: false },
    request: {
      method: exchange.method,
      url: urlTemplate(exchange.url, slotOf),
      headers: keptHeaders(exchange.requestHeaders),
      body: bodyTemplate(exchange, slotOf),
    },
  }
}

function slotSchema(v: RequestValue, slot: string, typed: TypedValue | undefined): SlotSchema {
  const base = { 'x-slot': slot, 'x-in': v.location, 'x-path': v.path } as const
  const type = v.value === null ? 'string' : jsonType(v.value)
  const schema: SlotSchema = { ...base, type: type as SlotSchema['type'] }
  if (v.value !== null) schema.default = v.value
  if (typed?.kind === 'select' && typed.options?.length) schema.enum = typed.options
  schema.description = typed
    ? `What was typed into "${typed.name ?? typed.fieldName ?? v.key}" (${v.location} ${v.path})`
    : `${v.location} ${v.path}; observed ${JSON.stringify(v.value)}`
  return schema
}

/** The slot's semantic name: the request key, made unique and identifier-safe. */
function semanticName(v: RequestValue, used: Set<string>): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1') || 'value'
  let name = clean(v.key)
  if (used.has(name)) name = clean(v.path.replace(/\./g, '_'))
  for (let n = 2; used.has(name); n++) name = `${clean(v.key)}_${n}`
  used.add(name)
  return name
}

/** The URL with each query value replaced by its placeholder; the rest keeps its encoding. */
function urlTemplate(raw: string, slotOf: Map<string, string>): string {
  const url = safeUrl(raw)
  if (!url || !url.search) return raw
  const params: string[] = []
  url.searchParams.forEach((value, key) => {
    const slot = slotOf.get(`query:${key}`)
    params.push(
      `${encodeURIComponent(key)}=${slot ? `{{input.${slot}}}` : encodeURIComponent(value)}`,
    )
  })
  return `${url.origin}${url.pathname}?${params.join('&')}`
}

function bodyTemplate(exchange: Exchange, slotOf: Map<string, string>): TemplateBody | null {
  const body = exchange.requestBody
  if (!body) return null
  const json = parseJsonRequest(exchange)
  if (json !== undefined) return { kind: 'json', template: placeJson(json, '', slotOf) }
  const values = requestValues(exchange).filter((v) => v.form)
  if (values.length) {
    const template: Record<string, string> = {}
    for (const v of values) template[v.path] = `{{input.${slotOf.get(`body:${v.path}`)}}}`
    return { kind: 'form', template }
  }
  return body.encoding === 'utf8' ? { kind: 'text', template: body.text } : null
}

/** Replaces each JSON leaf that is a slot with the exact-string placeholder `{{input.pN}}`. */
function placeJson(value: unknown, path: string, slotOf: Map<string, string>): unknown {
  if (value === null || typeof value !== 'object') {
    const slot = slotOf.get(`body:${path}`)
    return slot ? `{{input.${slot}}}` : value
  }
  if (Array.isArray(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, placeJson(v, path ? `${path}.${k}` : k, slotOf)]),
  )
}

function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (!DROPPED_HEADERS.test(name)) kept[name.toLowerCase()] = value
  return kept
}
