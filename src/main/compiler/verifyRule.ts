import { load } from 'cheerio'
import type { ErrorShape, JsonSchema, ShownField, VerifyRule } from '../../shared/toolSpec'
import { headerValue, mimeTypeOf, type Exchange } from '../../shared/trace'
import { isWriteMethod } from './classify'
import { httpUrl } from '../../shared/urls'
import { inferSchema } from './inferSchema'
import { removesRecord } from './operation'
import { multipartFields, requestValues } from './requestValues'
import { largestRecordList } from './answerShape'
import { isAcknowledgement, pageShowsValue } from '../verify/answerChecks'
import { matchErrorShape } from '../verify/errorShapes'
import { safeUrl } from '../../shared/safeJson'

/** How many fields of the record list's items the rule promises: the stable core of a record. */
const MAX_ITEM_FIELDS = 12

/** What the compiler saw of the target besides its parsed answer. */
export interface VerifyContext {
  /** The recorded target exchange: its status, media type, Location and request decide the rule. */
  exchange?: Exchange
  /** The trace's exchanges: the page the recorded redirect led to, read back after the write. */
  trace?: Exchange[]
  /**
   * Values the tool takes in its request's path (the record a write acts on, `/queue-worker`):
   * the page a write redirects to may name that record, which another run names otherwise.
   */
  pathValues?: string[]
}

/**
 * Writes the declared outcome of a tool: a 2xx JSON answer whose observed top-level
 * fields are present with their types, and, for the main record list, the fields every observed
 * record carried. Paths use dots and `[]` for "every item of the list".
 * Given the recorded `exchange`, a write that answered no JSON is judged
 * by its acknowledgement (`acknowledgementRule`), and the site's in-band error answers are
 * declared (`errorShapesOf`): a 200 `{"error":{"code":"badtoken"}}` then fails the run.
 * Without it the rule is the one tools always had.
 */
export function deriveVerifyRule(
  output: JsonSchema,
  answer: unknown,
  context: VerifyContext = {},
): VerifyRule {
  const { exchange } = context
  const ack = exchange ? acknowledgementRule(exchange, answer, context) : null
  if (ack) return ack
  const required: VerifyRule['required'] = []
  if (output.type === 'object') {
    for (const key of output.required ?? []) {
      const type = output.properties?.[key]?.type
      if (typeof type === 'string') required.push({ path: key, type })
    }
  }
  const list = largestRecordList(answer)
  if (list) {
    const items = schemaAt(output, list.path)?.items
    const itemPath = list.path ? `${list.path}[]` : '[]'
    for (const key of (items?.required ?? []).slice(0, MAX_ITEM_FIELDS)) {
      const type = items?.properties?.[key]?.type
      if (typeof type === 'string' && type !== 'null')
        required.push({ path: `${itemPath}.${key}`, type })
    }
  }
  const errorShapes = exchange ? errorShapesOf(exchange, answer) : []
  return {
    status: [200, 299],
    mimeType: 'application/json',
    required,
    ...(errorShapes.length ? { errorShapes } : {}),
  }
}

/**
 * The rule of a target that answered no JSON data, or null for a JSON answer:
 * - a redirect (RFC 9110 §15.4; Post/Redirect/Get after a form post): any 3xx whose Location
 *   path matches the recorded one, ids and the request's values generalised to `*`;
 * - `204 No Content`/`205` or an empty body (RFC 9110 §15.3.5): any 2xx, status only;
 * - an HTML page or text (`text/plain "OK"`): any 2xx of the same media type, with the in-band
 *   errors a text answer can carry (`errorShapesOf`: admin-ajax's `0`/`-1`, `Error: …`).
 */
export function acknowledgementRule(
  exchange: Exchange,
  answer: unknown,
  context: VerifyContext = {},
): VerifyRule | null {
  const { status } = exchange
  if (status >= 300 && status < 400) {
    const path = redirectPattern(exchange, context.pathValues)
    const shows = path === null ? [] : redirectShows(exchange, context.trace)
    return {
      status: [300, 399],
      mimeType: '*',
      required: [],
      ...(path === null ? {} : { redirect: { path, ...(shows.length ? { shows } : {}) } }),
    }
  }
  if (answer !== undefined) return null
  const body = exchange.responseBody
  const text = body?.encoding === 'utf8' ? body.text : ''
  const mime = mimeTypeOf(exchange.responseHeaders)
  const errorShapes = errorShapesOf(exchange, undefined)
  const withErrors = errorShapes.length ? { errorShapes } : {}
  // A page whose body the recording did not keep (a form posted into a frame: the browser hands
  // the recorder no body for it, and a HAR says `size: -1`) is still a page, of unknown text: an
  // HTML answer is the acknowledgement, not a sign that the site changed. An answer said to be
  // empty (`Content-Length: 0`) is none.
  const unkept =
    body === null &&
    mime.includes('html') &&
    headerValue(exchange.responseHeaders, 'content-length') !== '0'
  if (unkept) return { status: [200, 299], mimeType: 'text/html', required: [], ...withErrors }
  if (status === 204 || status === 205 || (!text.trim() && body?.encoding !== 'base64'))
    return { status: [200, 299], mimeType: '*', required: [], ...withErrors }
  const html = mime.includes('html') || /^\s*<(!doctype|html)/i.test(text)
  const title = html ? titlePattern(exchange) : null
  return {
    status: [200, 299],
    mimeType: html ? 'text/html' : mime || '*',
    required: [],
    ...withErrors,
    ...(title ? { title } : {}),
  }
}

/**
 * The `<title>` of the page a write answered, as a pattern (`*` for text that varies): the
 * request's values (3 characters or more, in any URL spelling) and numbers become `*`. Null for
 * a read (a page read's title is its content), or a page without a title.
 */
export function titlePattern(exchange: Exchange): string | null {
  if (!isWriteMethod(exchange.method) || exchange.responseBody?.encoding !== 'utf8') return null
  let title = load(exchange.responseBody.text)('title').first().text().replace(/\s+/g, ' ').trim()
  if (!title) return null
  const values = sentValues(exchange)
    .map((v) => v.trim())
    .filter((v) => v.length >= 3 && v.length <= 200)
    .sort((a, b) => b.length - a.length)
  for (const value of values) {
    const at = indexOfValue(title, value)
    if (at) title = `${title.slice(0, at.start)}*${title.slice(at.end)}`
  }
  return title.replace(/\d+/g, '*').replace(/\*+/g, '*')
}

/**
 * `verify` with each of `values` (the tool's inputs' recorded values, 3 characters or more) in
 * its page title pattern made `*`, as `titlePattern` does for the values the target sends: a
 * record looked up by name ("Sales Team") is named by the title another run gets.
 */
export function titleFreeOf(verify: VerifyRule, values: unknown[]): VerifyRule {
  if (!verify.title) return verify
  let title = verify.title
  const texts = values
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter((v) => v.length >= 3 && v.length <= 200)
    .sort((a, b) => b.length - a.length)
  for (const value of texts) {
    const at = indexOfValue(title, value)
    if (at) title = `${title.slice(0, at.start)}*${title.slice(at.end)}`
  }
  title = title.replace(/\*+/g, '*')
  return title === verify.title ? verify : { ...verify, title }
}

/**
 * The Location path of a recorded redirect as a pattern (`/page/*`, `/index.php/File:*`): a
 * segment equal to a value the request sent (the title the person typed, in any of its
 * spellings) becomes `*`; a segment holding such a value (3 characters or more) or, after an
 * upload, a file name, keeps its constant part (`File:*`); a segment with a digit (an id:
 * `/issues/42`, `/p/9f3c…`, not a version `v2`) becomes `*`; so does a segment equal to one of
 * `pathValues` (the record the tool's path names, an input: Monit's `/queue-worker`); the rest
 * stays.
 */
export function redirectPattern(exchange: Exchange, pathValues: string[] = []): string | null {
  const location = headerValue(exchange.responseHeaders, 'location')
  if (!location) return null
  const target = safeUrl(location, exchange.url)
  if (!target) return null
  const values = [...sentValues(exchange), ...pathValues]
  const sent = new Set(values.map(spelling).filter(Boolean))
  const long = values.filter((v) => v.trim().length >= 3)
  const upload = /multipart\/form-data/i.test(
    headerValue(exchange.requestHeaders, 'content-type') ?? '',
  )
  const segments = target.pathname.split('/').filter(Boolean)
  const generalise = (segment: string, index: number): string => {
    const word = decoded(segment)
    if (sent.has(spelling(word))) return '*'
    let partial: string | null = null
    for (const value of long) {
      const at = indexOfValue(word, value)
      if (at) partial = `${word.slice(0, at.start)}*${word.slice(at.end)}`
      if (partial) break
    }
    // An upload's page is named after the file (MediaWiki `File:Sunset.png`), which the recorder
    // may not have kept from the multipart body.
    const last = index === segments.length - 1
    const file =
      upload && last && !SCRIPT.test(word)
        ? /^(.*?[:=~])?[^:=~]+\.[a-z0-9]{1,5}$/i.exec(word)
        : null
    if (!partial && file) partial = `${file[1] ?? ''}*`
    // What is left must be constant: a digit there is an id, so the whole segment varies.
    const rest = partial ?? word
    if (/\d/.test(rest) && !/^v\d+$/i.test(rest)) return '*'
    return partial ?? segment
  }
  return `/${segments.map(generalise).join('/')}`
}

/** A read-back checks at most this many fields: the longest, the written content first. */
const MAX_SHOWN = 2

/**
 * The page a recorded redirect led to (RFC 9110 §15.4: the Location names the result): the
 * first 2xx GET of the Location's URL (fragment aside) after `exchange` in `trace`, with a text
 * body. Null when `exchange` is no redirect, or the browser's follow-up is not in the trace.
 */
export function landingPage(exchange: Exchange, trace: Exchange[]): Exchange | null {
  if (exchange.status < 300 || exchange.status >= 400) return null
  const location = headerValue(exchange.responseHeaders, 'location')
  const resolved = location ? safeUrl(location, exchange.url) : null
  if (!resolved) return null
  const target = resolved.href.split('#')[0]!
  const page = trace.find(
    (e) =>
      e.seq > exchange.seq &&
      e.method === 'GET' &&
      e.url.split('#')[0] === target &&
      e.status >= 200 &&
      e.status < 300 &&
      e.responseBody?.encoding === 'utf8',
  )
  return page ?? null
}

/**
 * The request fields the page behind a recorded redirect showed ("a read that
 * shows the change"): the trace's GET of the Location after the write, and each query or body
 * field whose recorded value of 3 characters or more (not a URL or path) that page shows
 * (`pageShowsValue`) and the page the person wrote from did not show before (a page's name, a
 * button's label show no change); none for a removal (`removesRecord`). Fields, not slots: the
 * engine reads what the run sent there.
 * Without the page in the trace: none, and the redirect alone is the outcome.
 */
export function redirectShows(exchange: Exchange, trace: Exchange[] | undefined): ShownField[] {
  const location = headerValue(exchange.responseHeaders, 'location')
  // What a removal wrote is gone: a page that still names it (a recent-changes list) shows no
  // change, and one that no longer does is the change, not a value to find.
  if (!trace || !location || removesRecord(exchange)) return []
  const page = landingPage(exchange, trace)
  if (!page?.responseBody) return []
  const html = page.responseBody.text
  const from = exchange.pageUrl.split('#')[0]
  const before = trace
    .filter(
      (e) =>
        e.seq < exchange.seq &&
        e.method === 'GET' &&
        e.url.split('#')[0] === from &&
        e.responseBody?.encoding === 'utf8',
    )
    .at(-1)?.responseBody?.text
  const fields = requestValues(exchange)
    .filter((v) => typeof v.value === 'string' && !v.inJson)
    .sort((a, b) => String(b.value).length - String(a.value).length)
  const shown: ShownField[] = []
  for (const field of fields) {
    const value = String(field.value)
    if (value.trim().length < 3 || /^([a-z][a-z0-9+.-]*:\/\/|\/)/i.test(value)) continue
    // The operation and the button pressed (`do=edit`, `commit=Create`) are no written content;
    // without the page before, a short single word may be any label the page carries.
    if (OPERATION_PARAM.test(field.key) || BUTTON_FIELD.test(field.key)) continue
    if (before === undefined && value.trim().length < 6 && !/\s/.test(value.trim())) continue
    if (!pageShowsValue(html, value)) continue
    if (before !== undefined && pageShowsValue(before, value)) continue
    if (shown.some((f) => f.in === field.location && f.path === field.path)) continue
    shown.push({ in: field.location, path: field.path })
    if (shown.length === MAX_SHOWN) break
  }
  return shown
}

/** Server scripts a path names (`index.php`): part of the route, never an uploaded file. */
const SCRIPT = /\.(php|aspx?|jsp|cgi|pl|py|rb|do|action)$/i

/** The request's values as text: query, form and JSON leaves, and multipart fields and files. */
function sentValues(exchange: Exchange): string[] {
  const out: string[] = []
  for (const v of requestValues(exchange))
    if (typeof v.value === 'string' || typeof v.value === 'number') out.push(String(v.value))
  // RFC 7578: a file part names the file in `filename` (its text fields are request values).
  out.push(...(multipartFields(exchange)?.files ?? []))
  return out
}

/** Where a value sits in a path segment, in any of its URL spellings, case aside. */
function indexOfValue(word: string, value: string): { start: number; end: number } | null {
  const lower = word.toLowerCase()
  const text = value.trim().toLowerCase()
  for (const form of new Set([
    text,
    text.replace(/ /g, '_'),
    text.replace(/ /g, '+'),
    text.replace(/ /g, '-'),
  ])) {
    const start = lower.indexOf(form)
    if (start >= 0) return { start, end: start + form.length }
  }
  return null
}

/** One spelling of a value for comparing with a path segment: case, `_`, `+`, `-` and spaces. */
function spelling(value: string): string {
  return value
    .toLowerCase()
    .replace(/[\s_+-]+/g, ' ')
    .trim()
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return segment
  }
}

/** Paths of action APIs: the operation is a parameter, errors come back as a 200. */
const ACTION_ENDPOINT = /(?:^|\/)(?:api|admin-ajax|xmlrpc|ajax)\.php$|\/(?:json-?rpc|rpc)\/?$/i
/** Names of the field a submit button sends (`commit`, `wp-submit`, `do[save]`, `save`). */
const BUTTON_FIELD = /submit|commit|button|^save$|\[save\]/i
/** Parameter names that carry an action API's operation (`action=edit`, `do=save`). */
const OPERATION_PARAM = /^(?:action|do|op|cmd|method|task|operation)$/i

/**
 * The in-band errors of the target's site, from what the endpoint is and what its
 * success looked like:
 * - an action API (the operation a parameter: MediaWiki's `api.php?action=edit`, JSON-RPC's
 *   `method`) answers `{"error": …}` (and MediaWiki's newer `{"errors": […]}`);
 * - WordPress `admin-ajax.php` answers a bare `-1` when the nonce check failed and `0` when no
 *   handler runs for the caller (signed out): both `session_or_permission`;
 * - a success flag observed on the recorded answer (`success: true`, `ok: true`,
 *   `status: "ok"`, MediaWiki's `edit.result: "Success"`) flips on failure;
 * - a text acknowledgement starting `Error`, `Failed`, `Denied`, `Forbidden` or `Invalid`.
 * A shape the recorded answer itself matches is dropped: the recorded answer was a success.
 */
function errorShapesOf(exchange: Exchange, answer: unknown): ErrorShape[] {
  const shapes: ErrorShape[] = []
  const path = httpUrl(exchange.url)?.pathname ?? ''
  const record = isRecord(answer) ? answer : null
  if (/(?:^|\/)admin-ajax\.php$/i.test(path))
    shapes.push(
      {
        path: '',
        equals: ['-1'],
        failure: 'session_or_permission',
        meaning: 'WordPress: the nonce check failed (expired or from another session)',
      },
      {
        path: '',
        equals: ['0'],
        failure: 'session_or_permission',
        meaning: 'WordPress: no handler ran for this caller (signed out, or the action is unknown)',
      },
    )
  if (record?.success === true) shapes.push({ path: 'success', equals: [false] })
  if (record?.ok === true) shapes.push({ path: 'ok', equals: [false] })
  if (typeof record?.status === 'string' && /^(ok|success|succeeded)$/i.test(record.status))
    shapes.push({ path: 'status', pattern: '^(error|fail|failed|failure)$' })
  for (const [key, value] of Object.entries(record ?? {}))
    if (isRecord(value) && typeof value.result === 'string' && /^success$/i.test(value.result))
      shapes.push({ path: `${key}.result`, pattern: '^(failure|error)$' })
  const rpc = record !== null && 'jsonrpc' in record
  const operation = requestValues(exchange).find(isOperation)
  if (rpc || ACTION_ENDPOINT.test(path) || operation) {
    shapes.push({ path: 'error' })
    if (!rpc) shapes.push({ path: 'errors' })
  }
  // MediaWiki answers a refused edit (captcha, abuse filter) as `{"edit":{"result":"Failure"}}`;
  // when the recorded answer was not kept, the operation names that field.
  const resultPath = `${String(operation?.value)}.result`
  if (/api\.php$/i.test(path) && operation && !shapes.some((s) => s.path === resultPath))
    shapes.push({ path: resultPath, pattern: '^(failure|error)$' })
  if (answer === undefined && isText(exchange))
    shapes.push({ path: '', pattern: '^(error|fail|failed|failure|denied|forbidden|invalid)\\b' })
  const recorded = exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text : ''
  return shapes.filter((shape) => !matchErrorShape(recorded, [shape]))
}

function isOperation(v: { path: string; value: unknown }): boolean {
  return OPERATION_PARAM.test(v.path) && typeof v.value === 'string' && /^[\w.-]+$/.test(v.value)
}

/** A plain-text answer (not a page, not JSON): `text/plain`, or no type with a non-markup body. */
function isText(exchange: Exchange): boolean {
  const mime = mimeTypeOf(exchange.responseHeaders)
  const body = exchange.responseBody?.encoding === 'utf8' ? exchange.responseBody.text : ''
  return mime.startsWith('text/plain') || (!mime && !!body.trim() && !/^\s*</.test(body))
}

/**
 * The output schema of a tool whose rule is an acknowledgement (the engine's `Acknowledgement`:
 * `{status, location?, text?, title?, data?}`); other rules keep the schema of their answer.
 */
export function outputForRule(verify: VerifyRule, output: JsonSchema): JsonSchema {
  return isAcknowledgement(verify) ? ACKNOWLEDGEMENT_SCHEMA : output
}

/** What a write that answers no data returns (src/main/engine/outcome.ts `Acknowledgement`). */
export const ACKNOWLEDGEMENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'integer', description: 'HTTP status of the answer' },
    location: { type: 'string', description: 'Where the site redirected, absolute' },
    text: { type: 'string', description: 'The text the site answered' },
    title: { type: 'string', description: 'Title of the page the site answered' },
    data: { description: 'JSON the site answered' },
  },
  required: ['status'],
}

function schemaAt(schema: JsonSchema, path: string): JsonSchema | undefined {
  if (!path) return schema
  let node: JsonSchema | undefined = schema
  for (const key of path.split('.')) node = node?.properties?.[key]
  return node
}

/** The page view every document tool returns (interface.md "Page result (read_page and get_search)"). */
const PAGE_VIEW_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    text: { type: 'string' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        properties: { text: { type: 'string' }, href: { type: 'string' } },
        required: ['text', 'href'],
      },
    },
  },
  required: ['title', 'text', 'links'],
}

/**
 * The output schema and declared outcome of a document tool (
 * "Server-rendered data"): a 2xx HTML page whose view has `title`, `text` and `links`, plus,
 * when the page embeds records, `data` with the fields every observed record carried. Given the
 * recorded `exchange`, the bare in-band errors of its endpoint (WordPress admin-ajax answering
 * `-1` where its HTML row used to be) fail the run with their code, and a write's page must have
 * the recorded title (`titlePattern`: "Action complete", not the form again).
 */
export function deriveDocumentRule(
  data: unknown,
  context: VerifyContext = {},
): { output: JsonSchema; verify: VerifyRule } {
  const required: VerifyRule['required'] = [
    { path: 'title', type: 'string' },
    { path: 'text', type: 'string' },
    { path: 'links', type: 'array' },
  ]
  // A page answer can only be a bare in-band error (admin-ajax's `0`/`-1` instead of its HTML).
  const bare = context.exchange
    ? errorShapesOf(context.exchange, undefined).filter((shape) => shape.path === '')
    : []
  const title = context.exchange ? titlePattern(context.exchange) : null
  const errors = { ...(bare.length ? { errorShapes: bare } : {}), ...(title ? { title } : {}) }
  if (data === undefined)
    return {
      output: PAGE_VIEW_SCHEMA,
      verify: { status: [200, 299], mimeType: 'text/html', required, ...errors },
    }
  const dataSchema = inferSchema(data)
  const dataRule = deriveVerifyRule(dataSchema, data)
  const output: JsonSchema = {
    ...PAGE_VIEW_SCHEMA,
    properties: { data: dataSchema, ...PAGE_VIEW_SCHEMA.properties },
    required: ['data', 'title', 'text', 'links'],
  }
  const dataType = typeof dataSchema.type === 'string' ? dataSchema.type : 'object'
  const nested = dataRule.required.map((r) => ({
    path: r.path.startsWith('[]') ? `data${r.path}` : `data.${r.path}`,
    type: r.type,
  }))
  return {
    output,
    verify: {
      status: [200, 299],
      mimeType: 'text/html',
      required: [{ path: 'data', type: dataType }, ...required, ...nested],
      ...errors,
    },
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
