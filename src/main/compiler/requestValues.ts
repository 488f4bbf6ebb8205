import type { Exchange } from '../../shared/trace'
import { headerValue } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { learnedOperationFields } from './learnedOperations'
import { multipartParts } from './multipartBody'
import { normalValue } from './valueSpelling'
import { isXmlRequest, xmlFields } from './xmlBody'
import { safeJson } from '../../shared/safeJson'

/** One scalar value of a request, with where it sits. */
export interface RequestValue {
  location: 'body' | 'query'
  /** Dot path in a JSON body, or the query/form parameter name. */
  path: string
  /** The last key of the path: the slot's semantic name. */
  key: string
  value: string | number | boolean | null
  /** True for values of an `application/x-www-form-urlencoded` or `multipart/form-data` body. */
  form?: boolean
  /** True for a field of a `multipart/form-data` body (RFC 7578). */
  multipart?: boolean
  /** For a leaf inside a query parameter that holds JSON (GraphQL GET `variables`): its name. */
  inJson?: string
  /**
   * True for a query or form field the trace showed to name the request's operation (see
   * `learnOperationFields` in operation.ts): a constant of the tool, part of its endpoint.
   */
  operation?: true
  /**
   * True for a plain text body taken whole (a pasted mail message sent as `text/plain`): one
   * value at path `body`, an input only when the person typed or pasted it.
   */
  whole?: true
  /** True for the text of an element of an XML body (see `xmlFields` in xmlBody.ts). */
  xml?: true
}

/** How far from the moment it was sent a cache-buster's clock may be (a page loaded days ago). */
const CLOCK_KEY_MS = 7 * 24 * 3600 * 1000

/**
 * True for a cache-buster written as a query key with no value (`?1796057586505=`, calibre's
 * content server): the page's clock in ms when it sent, within a week of `sentAt` (ms since the
 * Unix epoch). It carries nothing of the request's: no input, no value to look for; the tool sends
 * it as recorded, which a server that only uses it to dodge caches ignores.
 */
function isClockKey(key: string, value: string, sentAt: number): boolean {
  return value === '' && /^\d{13}$/.test(key) && Math.abs(Number(key) - sentAt) < CLOCK_KEY_MS
}

/**
 * Every scalar value a request carries in its URL query or urlencoded form body (a repeated
 * key's later occurrences named `key#n`, see {@link queryEntries}), JSON body (leaves of nested objects and
 * lists: a list item's path part is its index, its key the list's key), form body (RFC 1866
 * urlencoded) or XML body (each text-only element, see xmlBody.ts), in document order. GraphQL `variables` are walked like any nested object.
 */
export function requestValues(exchange: Exchange): RequestValue[] {
  const out: RequestValue[] = []
  for (const { key, value, path } of queryEntries(exchange.url)) {
    if (isClockKey(key, value, exchange.startedAt)) continue
    const nested = /^\s*\{/.test(value) ? parseObject(value) : undefined
    if (!nested) {
      out.push({ location: 'query', path, key, value })
      continue
    }
    const start = out.length
    walk(nested, path, key, out, 1)
    for (let i = start; i < out.length; i++)
      out[i] = { ...out[i]!, location: 'query', inJson: path }
  }
  const json = parseJsonRequest(exchange)
  if (isFlatList(json) || (json !== null && typeof json === 'object' && !Array.isArray(json))) {
    walk(json as Record<string, unknown> | unknown[], '', '', out, 0)
  } else if (isFormBody(exchange)) {
    // A repeated field is sent as often as it was (a checkbox's hidden `off` and its `on`, the
    // items of a multi-select), each occurrence its own value, named as query repeats are.
    const seen = new Map<string, number>()
    new URLSearchParams(exchange.requestBody!.text).forEach((value, key) => {
      const n = (seen.get(key) ?? 0) + 1
      seen.set(key, n)
      out.push({ location: 'body', path: queryPath(key, n), key, value, form: true })
    })
  } else if (exchange.requestBody?.encoding === 'base64') {
    // A multipart body with a binary file is stored as base64; its text fields still count.
    for (const part of multipartParts(exchange) ?? [])
      if ('value' in part) out.push(multipartValue(part))
  } else if (isXmlRequest(exchange)) {
    for (const field of xmlFields(exchange.requestBody!.text))
      out.push({
        location: 'body',
        path: field.path,
        key: field.key,
        value: field.value,
        xml: true,
      })
  } else if (exchange.requestBody?.encoding === 'utf8') {
    const multipart = multipartFields(exchange)
    if (multipart) {
      const seen = new Map<string, number>()
      for (const part of multipart.fields) {
        const n = (seen.get(part.name) ?? 0) + 1
        seen.set(part.name, n)
        out.push({ ...multipartValue(part), path: queryPath(part.name, n) })
      }
    } else if (isWholeText(exchange)) out.push(wholeTextValue(exchange.requestBody.text))
  }
  const operations = learnedOperationFields(exchange)
  if (operations)
    for (const v of out)
      if (!v.inJson && (v.location === 'query' || v.form) && operations.has(v.path))
        v.operation = true
  return out
}

/**
 * True for a JSON list of flat records or scalars (a batch saved at once: `[{"name":…,"value":…}]`):
 * walked like a list inside an object, its items' fields keeping their own keys. A list of nested
 * documents (an exported flow) is content sent whole, not values.
 */
function isFlatList(json: unknown): json is unknown[] {
  const scalar = (v: unknown) => v === null || typeof v !== 'object'
  return (
    Array.isArray(json) &&
    json.every(
      (item) =>
        scalar(item) || (!Array.isArray(item) && Object.values(item as object).every(scalar)),
    )
  )
}

/** How long a plain text body may be to count as one value a person typed or pasted. */
const WHOLE_TEXT_MAX = 100_000

/**
 * True when a request's body is plain text sent whole (not JSON, a form or multipart): `text/*`,
 * `message/*` (a mail message, RFC 5322), or no type; a body a person could have pasted.
 */
function isWholeText(exchange: Exchange): boolean {
  const body = exchange.requestBody
  if (body?.encoding !== 'utf8' || !body.text.trim() || body.text.length > WHOLE_TEXT_MAX)
    return false
  const type = (headerValue(exchange.requestHeaders, 'content-type') ?? '').toLowerCase()
  // Reached for a form-labelled body only when `isFormBody` found it raw text.
  if (type.includes('x-www-form-urlencoded')) return true
  return type === '' || /^(text\/(plain|markdown|csv)|message\/)/.test(type)
}

/**
 * True when a request's body is an urlencoded form by its label (media types are
 * case-insensitive, RFC 9110 §8.3.1) and by its text (`isRawText`).
 */
function isFormBody(exchange: Exchange): boolean {
  const body = exchange.requestBody
  return (
    body?.encoding === 'utf8' &&
    (headerValue(exchange.requestHeaders, 'content-type') ?? '')
      .toLowerCase()
      .includes('x-www-form-urlencoded') &&
    !isRawText(body.text)
  )
}

/**
 * True when a body labelled a form cannot be one: a urlencoded body (URL Standard §5) never holds
 * a raw line break, nor raw spaces without a single `name=value` pair, so one that does is text a
 * script sent under the default label (jQuery's `$.ajax` with a string body: Rspamd's pasted
 * mail message).
 */
function isRawText(text: string): boolean {
  const inner = text.replace(/^\s+|\s+$/g, '')
  return /[\r\n]/.test(inner) || (/\s/.test(inner) && !inner.includes('='))
}

/** A plain text body as one request value (see {@link RequestValue.whole}). */
function wholeTextValue(text: string): RequestValue {
  return { location: 'body', path: 'body', key: 'body', value: text, whole: true }
}

/** A text field of a multipart body as a request value. */
function multipartValue(part: { name: string; value: string }): RequestValue {
  return {
    location: 'body',
    path: part.name,
    key: part.name,
    value: part.value,
    form: true,
    multipart: true,
  }
}

/** One parameter of a URL's query, in order, with the path that names this occurrence. */
export interface QueryEntry {
  key: string
  value: string
  /** `key` for its first occurrence, `key#n` for the n-th (see {@link queryPath}). */
  path: string
}

/**
 * The query parameters of a URL in order (WHATWG URL `searchParams`), each with its positional
 * path. A key may repeat: Rails and PHP send a list as `f[]=status_id&f[]=tracker_id`, many
 * frameworks as `tag=a&tag=b`, and the order can matter. Each occurrence is its own value, so a
 * slot or a constant stays at its place in the list instead of all repeats sharing one.
 */
export function queryEntries(url: string): QueryEntry[] {
  const out: QueryEntry[] = []
  const seen = new Map<string, number>()
  httpUrl(url)?.searchParams.forEach((value, key) => {
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    out.push({ key, value, path: queryPath(key, n) })
  })
  return out
}

/**
 * The path of the `n`-th (1-based) occurrence of a query key: the bare key for the first, so a
 * parameter sent once keeps its plain name, and `key#n` for a repeat (`f[]#2`, `f[]#3`).
 */
export function queryPath(key: string, n: number): string {
  return n <= 1 ? key : `${key}#${n}`
}

/** One text field of a multipart body, with where its value sits in the body text. */
export interface MultipartField {
  name: string
  value: string
  /** Offsets of the value in the body text: `[start, end)`. */
  start: number
  end: number
}

/**
 * The text fields of a `multipart/form-data` request body (RFC 7578): each part's `name` from
 * its `Content-Disposition` and its value, in order; file parts (with a `filename`) are left out
 * of the fields and listed by their file names.
 * Null when the request is not multipart or its boundary is missing.
 */
export function multipartFields(
  exchange: Exchange,
): { boundary: string; fields: MultipartField[]; files: string[] } | null {
  const type = headerValue(exchange.requestHeaders, 'content-type') ?? ''
  const boundary = /multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  const body = exchange.requestBody
  if (!boundary || !body || body.encoding !== 'utf8') return null
  const mark = `--${boundary[1] ?? boundary[2]}`
  return { boundary: mark, ...multipartTextParts(body.text, mark) }
}

/**
 * `text` (a multipart body, or a template made of one) with the value of each field in `fields`
 * (offsets into `text`, as `multipartFields` gives them) that `placeholderOf` names replaced by
 * that placeholder; the boundaries and the other fields stay as they are. A repeated field's
 * later occurrences are asked for by their request value path (`name#n`, `queryPath`).
 */
export function placeMultipartFields(
  text: string,
  fields: readonly MultipartField[],
  placeholderOf: (name: string) => string | undefined,
): string {
  let out = ''
  let from = 0
  const seen = new Map<string, number>()
  for (const field of fields) {
    const n = (seen.get(field.name) ?? 0) + 1
    seen.set(field.name, n)
    const placeholder = placeholderOf(queryPath(field.name, n))
    if (placeholder === undefined) continue
    out += text.slice(from, field.start) + placeholder
    from = field.end
  }
  return out + text.slice(from)
}

/**
 * The text fields and file names of a multipart body's text whose delimiter is `mark` (`--` and
 * the boundary): a request's body as sent, or a template made of one (placeholders in it keep
 * their offsets' meaning).
 */
export function multipartTextParts(
  text: string,
  mark: string,
): { fields: MultipartField[]; files: string[] } {
  const fields: MultipartField[] = []
  const files: string[] = []
  let at = text.indexOf(mark)
  while (at >= 0) {
    const headStart = at + mark.length
    if (text.startsWith('--', headStart)) break
    const next = text.indexOf(mark, headStart)
    if (next < 0) break
    const headEnd = text.indexOf('\r\n\r\n', headStart)
    if (headEnd > 0 && headEnd < next) {
      const head = text.slice(headStart, headEnd)
      const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(head)?.[1]
      const filename = /content-disposition:[^\r\n]*;\s*filename="([^"]*)"/i.exec(head)?.[1]
      if (filename) files.push(filename)
      const file = filename !== undefined
      const start = headEnd + 4
      const end = next - 2 // the CRLF before the next boundary belongs to the delimiter
      if (name !== undefined && !file && end >= start)
        fields.push({ name, value: text.slice(start, end), start, end })
    }
    at = next
  }
  return { fields, files }
}

/** Lists longer than this keep their tail constant: ids by the hundred are not inputs. */
const MAX_LIST_ITEMS = 20
const MAX_DEPTH = 12

function walk(
  node: Record<string, unknown> | unknown[],
  prefix: string,
  listKey: string,
  out: RequestValue[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return
  const entries: Array<[string, unknown]> = Array.isArray(node)
    ? node.slice(0, MAX_LIST_ITEMS).map((v, i) => [String(i), v])
    : Object.entries(node)
  for (const [part, value] of entries) {
    const path = prefix ? `${prefix}.${part}` : part
    const key = Array.isArray(node) ? listKey : part
    if (value !== null && typeof value === 'object') {
      walk(value as Record<string, unknown>, path, key, out, depth + 1)
      continue
    }
    out.push({ location: 'body', path, key, value: value as string | number | boolean | null })
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = safeJson(text)
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** The URL's path segments, decoded, without empty ones (`/tool/a%20b` → `['tool', 'a b']`). */
export function pathSegments(url: string): string[] {
  const parsed = httpUrl(url)
  if (!parsed) return []
  return parsed.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s)
      } catch {
        // Malformed percent-encoding (a lone `%`): the text stands as written.
        return s
      }
    })
}

/** How a request value relates to a typed value: the same, a prefix of it (typeahead), or neither. */
export function matchTyped(value: RequestValue['value'], typed: string): 'exact' | 'prefix' | null {
  if (value === null) return null
  const text = String(value)
  if (text === typed || text.trim() === typed.trim()) return 'exact'
  // The same value spelled for a URL or a title: `Old_Draft`, `old-draft`, `Old+Draft`.
  if (/\s/.test(typed) && normalValue(text) === normalValue(typed)) return 'exact'
  if (text.length > 0 && text.length < typed.length && typed.startsWith(text)) return 'prefix'
  return null
}
