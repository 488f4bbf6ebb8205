import type { RequestTemplate, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import { placePath, type ValueSite } from './stepTemplate'
import { multipartTextParts, placeMultipartFields, queryPath } from './requestValues'
import { rewriteBodyText } from './fileBodies'
import { unsafeSegment } from '../../shared/safeKeys'
import { escapeXml } from '../../shared/xmlTree'
import { placeXml } from './xmlBody'

/**
 * Puts traced values into a target plan: a path segment, query or body value bound to
 * a dependency step, the login or a generated value stops being an input slot and takes its
 * placeholder; a bound header is set; the remaining slots are renumbered p0..pn in order, so slot
 * ids stay dense (docs/architecture.md "The records").
 */
export function applyBindings(
  plan: { inputs: ToolSpec['inputs']; request: RequestTemplate },
  bindings: Map<ValueSite, string>,
): { inputs: ToolSpec['inputs']; request: RequestTemplate } {
  if (!bindings.size) return plan
  const replace = new Map<string, string>()
  const properties: Record<string, SlotSchema> = {}
  for (const [name, schema] of Object.entries(plan.inputs.properties)) {
    const bound = bindings.get(`${schema['x-in']}:${schema['x-path']}`)
    if (bound) replace.set(schema['x-slot'], bound)
    else properties[name] = schema
  }
  Object.values(properties).forEach((schema, index) => {
    if (schema['x-slot'] !== `p${index}`) {
      replace.set(schema['x-slot'], `{{input.p${index}}}`)
      schema['x-slot'] = `p${index}`
    }
  })
  const slotted = new Set(
    Object.values(plan.inputs.properties).map((p) => `${p['x-in']}:${p['x-path']}`),
  )
  const unslotted = [...bindings].filter(
    ([site]) => !site.startsWith('header:') && !slotted.has(site),
  )
  // `{{json:input.pN}}` (JSON inside a URL) and `{{xml:input.pN}}` (XML element text) keep their
  // form when a single placeholder replaces them.
  const rewrite = (text: string) =>
    text.replace(
      /\{\{\s*(json:|xml:)?input\.(p\d+)\s*\}\}/g,
      (whole, prefix: string | undefined, slot: string) => {
        const placed = replace.get(slot)
        if (placed === undefined) return whole
        const single = /^\{\{\s*([\w.:-]+)\s*\}\}$/.exec(placed)
        if (!prefix) return placed
        return single ? `{{${prefix}${single[1]}}}` : prefix === 'xml:' ? escapeXml(placed) : placed
      },
    )
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(plan.request.headers)) headers[name] = rewrite(value)
  for (const [site, placeholder] of bindings)
    if (site.startsWith('header:')) headers[site.slice('header:'.length)] = placeholder
  const body = placeConstants(plan.request.body, unslotted)
  return {
    inputs: {
      ...plan.inputs,
      properties,
      required: (plan.inputs.required ?? []).filter((name) => name in properties),
    },
    request: {
      ...plan.request,
      url: placeUrlPath(placeQuery(rewrite(plan.request.url), unslotted), unslotted),
      headers,
      body:
        body === null
          ? null
          : body.kind === 'json'
            ? { kind: 'json', template: rewriteJson(body.template, rewrite) }
            : body.kind === 'form'
              ? {
                  kind: 'form',
                  template: Object.fromEntries(
                    Object.entries(body.template).map(([k, v]) => [k, rewrite(v)]),
                  ),
                }
              : rewriteBodyText(body, rewrite),
    },
  }
}

function rewriteJson(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value)
  if (Array.isArray(value)) return value.map((v) => rewriteJson(v, rewrite))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteJson(v, rewrite)]))
  return value
}

/** Puts placeholders on path segments that carry ids from earlier answers (`path:<index>`). */
function placeUrlPath(url: string, bound: Array<[ValueSite, string]>): string {
  const path = bound.filter(([site]) => site.startsWith('path:'))
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i.exec(url)
  if (!path.length || !parts) return url
  return `${parts[1]}${placePath(parts[2]!, new Map(path))}${parts[3]}`
}

/** Puts placeholders on query parameters that were constants rather than slots. */
function placeQuery(url: string, bound: Array<[ValueSite, string]>): string {
  const query = bound.filter(([site]) => site.startsWith('query:'))
  const q = url.indexOf('?')
  if (!query.length || q < 0) return url
  // A repeated key's n-th occurrence is its own site (`query:ids[]#2`, see queryPath).
  const seen = new Map<string, number>()
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = decodeURIComponent(pair.split('=')[0]!)
      const n = (seen.get(name) ?? 0) + 1
      seen.set(name, n)
      const hit = query.find(([site]) => site === `query:${queryPath(name, n)}`)
      return hit ? `${pair.split('=')[0]}=${hit[1]}` : pair
    })
  return `${url.slice(0, q)}?${pairs.join('&')}`
}

/** Puts placeholders on body values that were constants rather than slots. */
/** A whole placeholder that fills a JSON number sends a number (`{{num:…}}`), as recorded. */
function asNumber(placeholder: string): string {
  return placeholder.replace(/^\{\{\s*(?!num:|json:)([\w.:-]+)\s*\}\}$/, '{{num:$1}}')
}

function placeConstants(
  body: RequestTemplate['body'],
  bound: Array<[ValueSite, string]>,
): RequestTemplate['body'] {
  const fields = bound.filter(([site]) => site.startsWith('body:'))
  if (!body || !fields.length) return body
  if (body.kind === 'form') {
    const template = { ...body.template }
    for (const [site, placeholder] of fields) template[site.slice(5)] = placeholder
    return { kind: 'form', template }
  }
  if (body.kind === 'text' && fields.length) {
    const placed = new Map(fields.map(([site, p]) => [site.slice(5), p]))
    const multipart = placeMultipart(body.template, placed)
    return { kind: 'text', template: multipart ?? placeXml(body.template, placed) }
  }
  // A form that sends a file (a multipart template) carries its token in a text part.
  if (body.kind === 'multipart') {
    const placed = new Map(fields.map(([site, p]) => [site.slice(5), p]))
    const seen = new Map<string, number>()
    const template = body.template.map((part) => {
      const n = (seen.get(part.name) ?? 0) + 1
      seen.set(part.name, n)
      const placeholder = placed.get(n > 1 ? `${part.name}#${n}` : part.name)
      return 'value' in part && placeholder !== undefined ? { ...part, value: placeholder } : part
    })
    return { kind: 'multipart', template }
  }
  if (body.kind !== 'json') return body
  const template = structuredClone(body.template)
  for (const [site, placeholder] of fields)
    if (!unsafeSegment(site)) placeAt(template, site.slice(5), placeholder)
  return { kind: 'json', template }
}

/**
 * Puts `placeholder` on the JSON leaf at dotted `path` (`params.2._timestamp.party.party,2`),
 * matching whole keys so a key that holds dots (Tryton's `party.party,2`) is one step; a
 * number's placeholder sends a number. False when no leaf is there.
 */
function placeAt(node: unknown, path: string, placeholder: string): boolean {
  if (node === null || typeof node !== 'object') return false
  const record = node as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (path === key) {
      const leaf = record[key]
      if (leaf !== null && typeof leaf === 'object') return false
      record[key] = typeof leaf === 'number' ? asNumber(placeholder) : placeholder
      return true
    }
    if (path.startsWith(`${key}.`) && placeAt(record[key], path.slice(key.length + 1), placeholder))
      return true
  }
  return false
}

/**
 * A multipart body template (its first line a delimiter, RFC 7578) with the named fields' values
 * replaced by their placeholders; null when the text is no multipart body.
 */
function placeMultipart(text: string, placed: ReadonlyMap<string, string>): string | null {
  const mark = /^(--[^\r\n]+)\r\n[Cc]ontent-[Dd]isposition:/.exec(text)?.[1]
  if (!mark) return null
  return placeMultipartFields(text, multipartTextParts(text, mark).fields, (name) =>
    placed.get(name),
  )
}

/**
 * Dependency steps made while the target's inputs had their first slot ids, brought in line with
 * the inputs {@link applyBindings} left: a placeholder of an input that kept its name takes its
 * new id (`{{input.p3}}` → `{{input.p1}}` after renumbering); one of an input the bindings
 * removed (its value now read from a step) sends the value recorded for it again, as the step
 * did when recorded. Without this a step would send another input's value in its place.
 * `before` maps each first slot id to its input's name and recorded default.
 */
export function stepsAfterBindings(
  steps: ToolStep[],
  before: Map<string, { name: string; default: unknown }>,
  after: ToolSpec['inputs'],
): ToolStep[] {
  const swap = (text: string, encode: (v: string) => string) =>
    text.replace(
      /\{\{\s*((?:json:|xml:|num:)?)input\.(p\d+)\s*\}\}/g,
      (whole, prefix: string, slot: string) => {
        const was = before.get(slot)
        if (!was) return whole
        const kept = after.properties[was.name]
        if (kept) return `{{${prefix}input.${kept['x-slot']}}}`
        return was.default === undefined ? whole : encode(String(was.default))
      },
    )
  const plain = (v: string) => v
  return steps.map((step) => {
    const request = step.request
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k, swap(v, plain)]),
    )
    const body = request.body
    return {
      ...step,
      request: {
        ...request,
        url: swap(request.url, encodeURIComponent),
        headers,
        body:
          body === null
            ? null
            : body.kind === 'json'
              ? { ...body, template: rewriteJson(body.template, (t) => swap(t, plain)) }
              : body.kind === 'form'
                ? {
                    kind: 'form',
                    template: Object.fromEntries(
                      Object.entries(body.template).map(([k, v]) => [k, swap(v, plain)]),
                    ),
                  }
                : rewriteBodyText(body, (t) => swap(t, plain)),
      },
    }
  })
}
