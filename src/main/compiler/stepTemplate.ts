/**
 * A dependency step's request as a template: the request the trace observed, with the values
 * traced to an earlier step, the login or a generated value, and the person's inputs, put in place.
 */
import type { RequestTemplate, ToolStep } from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { safeJson } from '../../shared/safeJson'
import { httpUrl } from '../../shared/urls'
import { keptHeaders } from './headers'
import { pathSegments, queryEntries, requestValues } from './requestValues'
import { placeXml } from './xmlBody'

/**
 * Where a traced value sits in a request: `query:<name>`, `body:<path>`, `header:<name>` or
 * `path:<index>` (index among the URL's non-empty path segments).
 */
export type ValueSite = string

/**
 * A dependency step's bindings with the target's path inputs added where its path names the same
 * record: the same segments as the target's up to the slot, and the same recorded value there.
 */
export function withPathInputs(
  exchange: Exchange,
  target: Exchange,
  bindings: Map<ValueSite, string> | undefined,
  pathInputs: Map<number, string> | undefined,
): Map<ValueSite, string> {
  const out = new Map(bindings ?? [])
  if (!pathInputs?.size) return out
  const own = pathSegments(exchange.url)
  const targets = pathSegments(target.url)
  for (const [index, placeholder] of pathInputs) {
    const site: ValueSite = `path:${index}`
    if (out.has(site) || own[index] === undefined || own[index] !== targets[index]) continue
    if (own.slice(0, index).every((segment, i) => segment === targets[i]))
      out.set(site, placeholder)
  }
  return out
}

/**
 * The `slotOf` key of an input by its field and value: a page read before the write that asks
 * for the same field with the same value (`edit.php?list=hiking` before `save.php` sending
 * `list=hiking`) asks for what the input holds (kind 4, one value in several places), however
 * plain the value.
 */
export function sameField(field: string, value: string): string {
  return `\u0000field:${field}=${value}`
}

/** A dependency step's request: the observed one with its own traced values and inputs placed. */
export function templateOf(
  exchange: Exchange,
  bindings: Map<ValueSite, string>,
  slotOf: Map<string, string>,
): RequestTemplate {
  const place = (site: ValueSite, value: string): string =>
    bindings.get(site) ??
    slotOf.get(value) ??
    (site.startsWith('body:') ? slotOf.get(sameField(site.slice(5), value)) : undefined) ??
    value
  const url = httpUrl(exchange.url)!
  const params: string[] = []
  const pathname = placePath(url.pathname, bindings)
  // Each occurrence of a repeated key (`ids[]=a&ids[]=b`) is its own site (`query:ids[]#2`).
  for (const { key, value, path } of queryEntries(exchange.url)) {
    const site: ValueSite = `query:${path}`
    const placed = bindings.has(site)
      ? place(site, value)
      : (slotOf.get(value) ?? slotOf.get(sameField(key, value)) ?? value)
    params.push(
      `${encodeURIComponent(key)}=${placed === value ? encodeURIComponent(value) : placed}`,
    )
  }
  const headers = keptHeaders(exchange.requestHeaders, exchange.method, url.host, {
    pageRead: true,
    path: url.pathname,
  })
  for (const name of Object.keys(exchange.requestHeaders)) {
    const lower = name.toLowerCase()
    const bound = bindings.get(`header:${lower}`)
    if (bound) headers[lower] = bound
  }
  let body: RequestTemplate['body'] = null
  const text = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : null
  if (text !== null) {
    const values = requestValues(exchange).filter((v) => v.location === 'body')
    const json = values.length && !values[0]!.form ? safeJson(text) : undefined
    if (json !== undefined)
      body = { kind: 'json', template: placeJson(json, '', (path, v) => place(`body:${path}`, v)) }
    else if (values.length && values[0]!.form)
      body = {
        kind: 'form',
        template: Object.fromEntries(
          values.map((v) => [v.path, place(`body:${v.path}`, String(v.value))]),
        ),
      }
    else if (values[0]?.whole) body = { kind: 'text', template: place('body:body', text) }
    else if (values[0]?.xml) {
      const placed = new Map<string, string>()
      for (const v of values) {
        const at = place(`body:${v.path}`, String(v.value))
        if (at !== String(v.value)) placed.set(v.path, at)
      }
      body = { kind: 'text', template: placeXml(text, placed) }
    } else body = { kind: 'text', template: text }
  }
  return {
    method: exchange.method,
    url: `${url.origin}${pathname}${params.length ? `?${params.join('&')}` : ''}`,
    headers,
    body,
  }
}

/**
 * A URL path (as written, percent-encoded) with each bound segment (`path:<index>`, counting
 * non-empty segments) replaced by its placeholder; the renderer percent-encodes what it puts there.
 */
export function placePath(pathname: string, bindings: Map<ValueSite, string>): string {
  let index = -1
  return pathname
    .split('/')
    .map((segment) => (segment ? (bindings.get(`path:${++index}`) ?? segment) : segment))
    .join('/')
}

/** A JSON body with each leaf's placeholder put in place of the recorded value. */
function placeJson(
  value: unknown,
  path: string,
  place: (path: string, value: string) => string,
): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const placed = place(path, String(value))
    if (placed === String(value)) return value
    // A number the run fills from text (an extracted id, a time) is sent as a number again.
    return typeof value === 'number'
      ? placed.replace(/^\{\{\s*(?!num:|json:)([\w.:-]+)\s*\}\}$/, '{{num:$1}}')
      : placed
  }
  if (value === null || typeof value !== 'object') return value
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k))
  // Positional parameters (JSON-RPC `params`) are sites too, by index as requestValues names them.
  if (Array.isArray(value)) return value.map((v, i) => placeJson(v, at(i), place))
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeJson(v, at(k), place)]))
}

/**
 * A step added after tracing (a lookup read) with the target's login-bound values: where both
 * requests sent a header or a query parameter and the target's template fills it from the login
 * or a secret at run time (`Bearer {{login.…}}`, `sid={{login.sid}}`), the step takes the same
 * template instead of the recorded value, which a run could not use (the session's token of that
 * day). A value the target fills from another step is borrowed only when `seq` (the added step's
 * exchange's place in the trace) says that step's exchange came before (step ids are `d<seq>`):
 * Roundcube's list call sends the page's request token in a header as the target does; a step
 * that came later may run after this one.
 */
export function withBoundCredentials(step: ToolStep, target: ToolStep, seq?: number): ToolStep {
  const earlierStep = (v: string) => {
    const steps = [...v.matchAll(/\{\{\s*(?:num:)?step\.d(\d+)\./g)].map((m) => Number(m[1]))
    return seq !== undefined && steps.length > 0 && steps.every((n) => n < seq)
  }
  const bound = (v: string) => /\{\{\s*(login\.|secret:)/.test(v) || earlierStep(v)
  const headers = { ...step.request.headers }
  for (const [name, value] of Object.entries(target.request.headers)) {
    if (!bound(value)) continue
    const own = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase())
    if (own !== undefined) headers[own] = value
  }
  const targetQuery = new Map(queryParts(target.request.url).map((p) => [p.name, p.value]))
  const url = withQueryValues(step.request.url, (name) => {
    const theirs = targetQuery.get(name)
    return theirs !== undefined && bound(theirs) ? theirs : undefined
  })
  return { ...step, request: { ...step.request, headers, url } }
}

/**
 * A URL template's query parts, in order: the raw `name=value` text, the name decoded, the value
 * as written (placeholders kept) and decoded (`+` as a space, URL Standard §5.1).
 */
export function queryParts(
  url: string,
): Array<{ raw: string; name: string; value: string; decoded: string }> {
  const [head] = splitHash(url)
  const at = head.indexOf('?')
  if (at < 0) return []
  return head
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((raw) => {
      const eq = raw.indexOf('=')
      const value = eq < 0 ? '' : raw.slice(eq + 1)
      return {
        raw,
        name: decodePart(eq < 0 ? raw : raw.slice(0, eq)),
        value,
        decoded: decodePart(value),
      }
    })
}

/**
 * `url` with the value of each query part that `replace` answers for replaced (by its decoded
 * name and its value as written); other parts and the fragment stay as written.
 */
export function withQueryValues(
  url: string,
  replace: (name: string, value: string) => string | undefined,
): string {
  const [head, hash] = splitHash(url)
  const at = head.indexOf('?')
  if (at < 0) return url
  const parts = queryParts(head).map((p) => {
    const next = replace(p.name, p.value)
    return next === undefined ? p.raw : `${p.raw.split('=')[0]}=${next}`
  })
  return `${head.slice(0, at + 1)}${parts.join('&')}${hash}`
}

/** A query name or value decoded; as written when it is not valid percent-encoding. */
export function decodePart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return text
  }
}

/** A URL split before its fragment: `[everything before '#', '#…' or '']`. */
function splitHash(url: string): [string, string] {
  const at = url.indexOf('#')
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)]
}

/**
 * The tool's step that sends `exchange`, made from the recorded request (its credentials bound
 * as the target's are: `withBoundCredentials`) and put just before the target when the tool has
 * none. Changes `steps` in place.
 */
export function stepFor(steps: ToolStep[], exchange: Exchange): ToolStep {
  const existing = steps.find((s) => s.exchangeId === exchange.id)
  if (existing) return existing
  const step = withBoundCredentials(
    {
      id: `d${exchange.seq}`,
      exchangeId: exchange.id,
      request: templateOf(exchange, new Map(), new Map()),
      extract: [],
    },
    steps.at(-1)!,
    exchange.seq,
  )
  steps.splice(steps.length - 1, 0, step)
  return step
}

/** Where a step's request came in the trace (its exchange's `seq`; 0 for a step of none). */
export function seqOf(trace: Trace, step: ToolStep): number {
  return trace.exchanges.find((e) => e.id === step.exchangeId)?.seq ?? 0
}

/** `base`, or `base_2`, `base_3` …: the first name no extractor of `step` has yet. */
export function uniqueExtractorName(step: ToolStep, base: string): string {
  let name = base
  for (let i = 2; step.extract.some((e) => e.name === name); i++) name = `${base}_${i}`
  return name
}

/**
 * `request` with input `slot`'s placeholders (`{{input.pN}}`, `{{num:input.pN}}`) in its URL and
 * its form or text body replaced by `placeholder` (a value a step reads instead).
 */
export function withInputSwapped(
  request: RequestTemplate,
  slot: string,
  placeholder: string,
): RequestTemplate {
  const pattern = new RegExp(`\\{\\{\\s*(?:num:)?input\\.${slot}\\s*\\}\\}`, 'g')
  const swap = (text: string) => text.replace(pattern, placeholder)
  const body = request.body
  const swapped =
    body?.kind === 'form'
      ? {
          kind: 'form' as const,
          template: Object.fromEntries(Object.entries(body.template).map(([k, v]) => [k, swap(v)])),
        }
      : body?.kind === 'text'
        ? { kind: 'text' as const, template: swap(body.template) }
        : body
  return { ...request, url: swap(request.url), body: swapped }
}

/**
 * True when a step before the target (all of `steps` but the last) sends input `slot` or looks a
 * record up by it (`{{input.pN}}` in its request or an extractor's path).
 */
export function dependencyUses(steps: ToolStep[], slot: string): boolean {
  const own = `{{input.${slot}}}`
  return steps
    .slice(0, -1)
    .some(
      (s) => JSON.stringify(s.request).includes(own) || s.extract.some((e) => e.path.includes(own)),
    )
}

/**
 * `raw` made an identifier (runs of other characters become `_`, none at the ends; `fallback`
 * when nothing is left), or that with `_2`, `_3`… when an input of that name is in `taken`.
 */
export function freshInputName(
  raw: string,
  taken: Record<string, unknown>,
  fallback: string,
): string {
  const name = raw.replace(/\W+/g, '_').replace(/^_+|_+$/g, '') || fallback
  if (!(name in taken)) return name
  for (let n = 2; ; n++) if (!(`${name}_${n}` in taken)) return `${name}_${n}`
}

/** The number of the next free placeholder slot (`pN`) after those `properties` use. */
export function nextSlotNumber(properties: Record<string, { 'x-slot': string }>): number {
  const used = Object.values(properties).map((p) => Number(/^p(\d+)$/.exec(p['x-slot'])?.[1] ?? -1))
  return Math.max(-1, ...used) + 1
}
