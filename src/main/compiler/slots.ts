import { relativeTimeName } from '../../shared/relativeTime'
import type { RequestTemplate, SlotSchema, TemplateBody, ToolSpec } from '../../shared/toolSpec'
import { headerValue, SECRET_PLACEHOLDER, type Exchange } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import {
  coerce,
  compareObservations,
  inferScalarType,
  looksGenerated,
  valueKey,
  type Observed,
  type ScalarType,
} from './observations'
import { withFileBody } from './fileBodies'
import {
  isOperationValue,
  isRpcCorrelation,
  isRpcPositional,
  isRpcSubOperation,
  isSubmitField,
} from './operation'
import {
  multipartFields,
  placeMultipartFields,
  queryEntries,
  requestValues,
  type RequestValue,
} from './requestValues'
import { placeXml } from './xmlBody'
import { normalValue } from './valueSpelling'
import { typedIntoWords, type TypedValue } from './typedValues'
import { keptHeaders } from './headers'
import { redirectedTo } from './naming'
import { safeUrl } from '../../shared/safeJson'

export interface SlotPlan {
  inputs: ToolSpec['inputs']
  request: RequestTemplate
}

/** A URL path segment that varies per call (a page read's `/tool/{slug}`). */
export interface PathSlot {
  /** Index among the non-empty path segments. */
  index: number
  /** The slot's semantic name (`tool`). */
  name: string
  description: string
  /**
   * The segment names a record the person picked by clicking, not one they typed: beside a
   * typed value it is where the act happens (the list a member joins), so it keeps the recorded
   * record as its default and is optional; alone it is what the tool is about, and required.
   */
  picked?: boolean
  /**
   * A format extension the segment carries after the value (`/old-rota.json`, `/items/7.xml`):
   * the input holds the value alone and the address keeps the extension after it.
   */
  suffix?: string
}

export interface SlotOptions {
  /**
   * Every observed call of the target's endpoint (the target included). With two or more, only
   * the values that vary become slots; what stays is constant in the template.
   */
  observations?: Exchange[]
  /** Which request values may become slots at all (GraphQL: only `variables`). */
  slottable?: (v: RequestValue) => boolean
  pathSlot?: PathSlot
  /**
   * The request changes state: a value nobody typed defaults to what it sent, not to what the
   * first call of its endpoint sent (a form posted back to reload it).
   */
  writes?: boolean
}

/**
 * Turns the target request into a request template and its input slots (
 * several observations): each typed value becomes a required slot named after its
 * request key, typed (a `<select>`'s options become an enum); a varying path segment becomes a
 * required string slot; other values become optional slots whose default is the first observed
 * value, unless several calls show they stay the same (then they are constants). Values the page
 * makes fresh per request are never slots. Slots are numbered p0..pn, typed ones first.
 */
export function planSlots(
  exchange: Exchange,
  matches: Array<{ typed: TypedValue; value: RequestValue }>,
  options: SlotOptions = {},
): SlotPlan {
  const values = requestValues(exchange)
  const observations = options.observations ?? [exchange]
  const observed = compareObservations(
    observations.includes(exchange) ? observations : [...observations, exchange],
  )
  // Identical repeats (a search sent twice) say nothing about what varies.
  const several = [...observed.values()].some((o) => o.varies)
  const typedByPath = new Map(matches.map((m) => [valueKey(m.value), m.typed]))
  const slottable = (v: RequestValue) => {
    // An action API's operation (`action=inline-save`, a JSON-RPC `method`) is what the tool
    // does, not an input, even when the person picked it from a menu (an action API's operation field).
    if (isOperationValue(v) || isRpcCorrelation(v, exchange) || isSubmitField(v)) return false
    if (typedByPath.has(valueKey(v))) return true
    // A whole text body is an input only when the person typed or pasted it.
    if (v.whole) return false
    // A command word or an empty positional parameter of an RPC call: the same for any run.
    if (isRpcSubOperation(v, exchange) || (v.value === '' && isRpcPositional(v, exchange)))
      return false
    if (options.slottable && !options.slottable(v)) return false
    if (looksGenerated(v.value, exchange.startedAt)) return false
    // A redacted secret belongs to the login or the vault, never to the tool's inputs.
    if (typeof v.value === 'string' && v.value.includes(SECRET_PLACEHOLDER)) return false
    return !several || observed.get(valueKey(v))?.varies === true
  }
  const typedSlot = (v: RequestValue) => typedByPath.has(valueKey(v)) && !isOperationValue(v)
  const ordered = [
    ...values.filter(typedSlot),
    ...values.filter((v) => !typedByPath.has(valueKey(v)) && slottable(v)),
  ]
  const properties: Record<string, SlotSchema> = {}
  const required: string[] = []
  const slotOf = new Map<string, string>()
  const used = new Set<string>()
  let next = 0
  const take = () => `p${next++}`
  const place = (v: RequestValue) => {
    const slot = take()
    const name = uniqueName(v.key, v.path, used)
    const typed = typedByPath.get(valueKey(v))
    properties[name] = slotSchema(
      v,
      slot,
      typed,
      observed.get(valueKey(v)),
      options.writes === true,
    )
    // A time set as a setting is written at each run at its distance from the run's now.
    const relative =
      typed?.setting && typeof v.value === 'string'
        ? relativeTimeName(v.value.trim(), exchange.startedAt)
        : null
    if (relative) properties[name]['x-default-time'] = relative
    if (typed && !typed.context && !typed.setting && !picksListShape(typed, v, values))
      required.push(name)
    slotOf.set(valueKey(v), slot)
  }
  ordered.filter(typedSlot).forEach(place)
  let pathSlotId: string | null = null
  if (options.pathSlot) {
    pathSlotId = take()
    const name = uniqueName(options.pathSlot.name, options.pathSlot.name, used)
    properties[name] = {
      'x-slot': pathSlotId,
      'x-in': 'path',
      'x-path': String(options.pathSlot.index),
      type: 'string',
      minLength: 1,
      description: options.pathSlot.description,
      ...recordedSegment(exchange.url, options.pathSlot.index, options.pathSlot.suffix),
    }
    if (!options.pathSlot.picked || !required.length) required.push(name)
  }
  ordered.filter((v) => !typedSlot(v)).forEach(place)
  const plan: SlotPlan = {
    inputs: { type: 'object', properties, required, additionalProperties: false },
    request: {
      method: exchange.method,
      url: urlTemplate(
        exchange.url,
        slotOf,
        options.pathSlot?.index,
        pathSlotId && `{{input.${pathSlotId}}}${options.pathSlot?.suffix ?? ''}`,
        values,
      ),
      headers: keptHeaders(exchange.requestHeaders, exchange.method, httpUrl(exchange.url)?.host, {
        actingGet: !!options.writes && !redirectsToReferer(exchange),
        path: httpUrl(exchange.url)?.pathname,
      }),
      body: bodyTemplate(exchange, values, slotOf),
    },
  }
  // A request that sent a file sends the caller's file instead.
  return mergeSameValues(withFileBody(exchange, plan, slotOf))
}

/**
 * One value the person gave, sent in several places (a file name in the path and in the body's
 * `name` and `path`; a title in the path and in the body), is one input: inputs whose
 * string defaults spell the same value merge into the first required one (else the first), and
 * every placeholder of the others points at it.
 */
function mergeSameValues(plan: SlotPlan): SlotPlan {
  const props = plan.inputs.properties
  const required = new Set(plan.inputs.required ?? [])
  const spelled = (p: SlotSchema) =>
    typeof p.default === 'string' && p.default.length >= 3 ? normalValue(p.default) : null
  const keepers = new Map<string, string>()
  // A required input keeps the value; else the first that holds it (a page id sent in the query
  // and again in the form body is one input).
  for (const name of [...required, ...Object.keys(props)]) {
    const key = spelled(props[name]!)
    if (key && !keepers.has(key)) keepers.set(key, name)
  }
  const properties: Record<string, SlotSchema> = {}
  let text = JSON.stringify(plan.request)
  for (const [name, p] of Object.entries(props)) {
    const keeper = keepers.get(spelled(p) ?? '')
    if (!keeper || keeper === name) {
      properties[name] = p
      continue
    }
    text = text.split(`{{input.${p['x-slot']}}}`).join(`{{input.${props[keeper]!['x-slot']}}}`)
  }
  return {
    inputs: {
      ...plan.inputs,
      properties,
      required: (plan.inputs.required ?? []).filter((n) => n in properties),
    },
    request: JSON.parse(text) as RequestTemplate,
  }
}

/**
 * True when a choice shaped the request rather than gave it a value: a `<select>` with no name
 * is no form field (HTML §4.10.18.1: a nameless control is not submitted), so the page's script
 * acted on its choice, and the request carries the choice only as one item of a repeated key
 * (Redmine's "Add filter" adds `tracker_id` to the list `f[]=status_id&f[]=tracker_id`). The
 * list is the tool's shape; the value the person filtered by sits in its own field.
 */
function picksListShape(typed: TypedValue, v: RequestValue, values: RequestValue[]): boolean {
  if (typed.kind !== 'select' || typed.fieldName) return false
  return values.filter((x) => x.location === v.location && x.key === v.key).length > 1
}

/** What the path segment held when recorded (percent-decoded), as the slot's default. */
function recordedSegment(url: string, index: number, suffix = ''): { default?: string } {
  const whole = new URL(url).pathname.split('/').filter(Boolean)[index]
  if (whole === undefined) return {}
  const segment = suffix && whole.endsWith(suffix) ? whole.slice(0, -suffix.length) : whole
  try {
    return { default: decodeURIComponent(segment) }
  } catch {
    return { default: segment }
  }
}

function slotSchema(
  v: RequestValue,
  slot: string,
  typed: TypedValue | undefined,
  observed: Observed | undefined,
  writes: boolean,
): SlotSchema {
  const text = v.location === 'query' || v.form === true
  const seen = observed?.values.length ? observed.values : [v.value]
  let type: ScalarType = inferScalarType(seen, text)
  // What a person typed into a text box stays text, even when it is all digits ("2024").
  if (typed && text && typed.kind === 'fill' && !/^(number|range)$/.test(typed.inputType ?? ''))
    type = 'string'
  const schema: SlotSchema = { 'x-slot': slot, 'x-in': v.location, 'x-path': v.path, type }
  const first = seen.find((x) => x !== null)
  // A typed slot's default is what the person typed (forms prefill it); a read's others take the
  // first call's (page 1 of a paged list), a write's what the write itself sent (a form first
  // posted back to reload it, as RT's queue change does, is not the save the person asked for).
  // What the target itself sent stays as its example.
  if ((typed || writes) && v.value !== null) schema.default = coerce(v.value, type)
  else if (!typed && first !== undefined) schema.default = coerce(first, type)
  if (v.value !== null && schema.default !== coerce(v.value, type))
    schema.examples = [coerce(v.value, type)]
  if (typed?.kind === 'select' && typed.options?.length)
    schema.enum = [...new Set(typed.options.map((o) => coerce(o, type)))]
  const calls =
    observed && observed.values.length > 1 ? ` across ${observed.values.length} calls` : ''
  schema.description = typed?.fromIntent
    ? `The value the intent names (observed ${JSON.stringify(typed.value)}; ${v.location} ${v.path})`
    : typed
      ? typedIntoWords({ ...typed, fieldName: typed.fieldName ?? v.key }, `${v.location} ${v.path}`)
      : `${v.location} ${v.path}; observed ${[...new Set(seen)]
          .slice(0, 5)
          .map((x) => JSON.stringify(x))
          .join(', ')}${calls}`
  return schema
}

/** The slot's semantic name: the request key, made unique and identifier-safe. */
function uniqueName(key: string, path: string, used: Set<string>): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1') || 'value'
  let name = clean(key)
  if (used.has(name)) name = clean(path.replace(/\./g, '_'))
  for (let n = 2; used.has(name); n++) name = `${clean(key)}_${n}`
  used.add(name)
  return name
}

/**
 * The URL with each query value that is a slot replaced by its placeholder, and the varying
 * path segment too; constants keep their observed encoding.
 */
function urlTemplate(
  raw: string,
  slotOf: Map<string, string>,
  pathIndex: number | undefined,
  pathPlaceholder: string | null,
  values: RequestValue[],
): string {
  const url = httpUrl(raw)
  if (!url) return raw
  let pathname = url.pathname
  if (pathPlaceholder !== null && pathIndex !== undefined) {
    let seen = -1
    pathname = pathname
      .split('/')
      .map((segment) => (segment && ++seen === pathIndex ? pathPlaceholder : segment))
      .join('/')
  }
  if (!url.search) return `${url.origin}${pathname}`
  const params: string[] = []
  // Each occurrence of a repeated key keeps its own slot or constant, in its place.
  for (const { key, value, path } of queryEntries(raw)) {
    const slot = slotOf.get(`query:${path}`)
    const nested = values.some((v) => v.inJson === path && slotOf.has(valueKey(v)))
    const text = nested
      ? jsonParamTemplate(value, path, slotOf)
      : slot
        ? `{{input.${slot}}}`
        : encodeURIComponent(value)
    params.push(`${encodeURIComponent(key)}=${text}`)
  }
  return `${url.origin}${pathname}?${params.join('&')}`
}

/**
 * A JSON-valued query parameter (GraphQL GET `variables`) with slots inside: the JSON text is
 * percent-encoded around `{{json:input.pN}}` placeholders, which the renderer fills with the
 * value as JSON (a string quoted and escaped, so a `"` in it stays valid JSON; a number or boolean
 * bare) and then percent-encodes (src/main/engine/template.ts).
 */
function jsonParamTemplate(value: string, key: string, slotOf: Map<string, string>): string {
  const querySlots = new Map<string, string>()
  for (const [k, slot] of slotOf)
    if (k.startsWith('query:')) querySlots.set(`body:${k.slice(6)}`, slot)
  const placed = JSON.stringify(placeJson(JSON.parse(value), key, querySlots))
  const text = placed.replace(/"\{\{input\.(p\d+)\}\}"/g, '{{json:input.$1}}')
  return text
    .split(/(\{\{json:input\.p\d+\}\})/)
    .map((part) => (/^\{\{json:input\.p\d+\}\}$/.test(part) ? part : encodeURIComponent(part)))
    .join('')
}

function bodyTemplate(
  exchange: Exchange,
  values: RequestValue[],
  slotOf: Map<string, string>,
): TemplateBody | null {
  const body = exchange.requestBody
  if (!body) return null
  const json = parseJsonRequest(exchange)
  if (json !== undefined) return { kind: 'json', template: placeJson(json, '', slotOf) }
  const multipart = multipartFields(exchange)
  if (multipart) {
    // The body stays as sent (boundary and all); each slotted field's value takes its placeholder.
    const template = placeMultipartFields(body.text, multipart.fields, (name) => {
      const slot = slotOf.get(`body:${name}`)
      return slot ? `{{input.${slot}}}` : undefined
    })
    return { kind: 'text', template }
  }
  const form = values.filter((v) => v.form)
  if (form.length) {
    const template: Record<string, string> = {}
    for (const v of form) {
      const slot = slotOf.get(`body:${v.path}`)
      template[v.path] = slot ? `{{input.${slot}}}` : String(v.value ?? '')
    }
    return { kind: 'form', template }
  }
  if (body.encoding !== 'utf8') return null
  if (values.some((v) => v.xml)) {
    const placed = new Map<string, string>()
    for (const v of values) {
      const slot = v.xml ? slotOf.get(`body:${v.path}`) : undefined
      if (slot) placed.set(v.path, `{{input.${slot}}}`)
    }
    return { kind: 'text', template: placeXml(body.text, placed) }
  }
  // A plain text body the person typed or pasted is the input whole.
  const whole = values.some((v) => v.whole) ? slotOf.get('body:body') : undefined
  return { kind: 'text', template: whole ? `{{input.${whole}}}` : body.text }
}

/** Replaces each JSON leaf that is a slot with the exact-string placeholder `{{input.pN}}`. */
function placeJson(value: unknown, path: string, slotOf: Map<string, string>): unknown {
  if (value === null || typeof value !== 'object') {
    const slot = slotOf.get(`body:${path}`)
    return slot ? `{{input.${slot}}}` : value
  }
  const at = (k: string) => (path ? `${path}.${k}` : k)
  if (Array.isArray(value)) return value.map((v, i) => placeJson(v, at(String(i)), slotOf))
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeJson(v, at(k), slotOf)]))
}

/**
 * True when `exchange` was answered by a redirect to the page it was sent from (its Referer's
 * host and path; the query may add a notice, as WordPress' `?trashed=1`).
 */
function redirectsToReferer(exchange: Exchange): boolean {
  const to = redirectedTo(exchange)
  const referer = headerValue(exchange.requestHeaders, 'referer')
  const from = referer ? safeUrl(referer) : undefined
  return !!to && !!from && to.host === from.host && to.pathname === from.pathname
}
