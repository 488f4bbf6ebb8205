import { applyChanges } from '../../shared/jsonChanges'
import { valueAt } from '../../shared/jsonPath'
import { renderRelativeTime, TIME_PREFIX } from '../../shared/relativeTime'
import { escapeXml } from '../../shared/xmlTree'
import type {
  JsonBodyBase,
  MultipartPart,
  RequestTemplate,
  ShownField,
} from '../../shared/toolSpec'
import type { Outcome } from './outcome'
import { ownValue, setOwn } from '../../shared/safeKeys'
import { safeJson, safeUrl } from '../../shared/safeJson'

/** Values a template may name: `input.p0`, `step.<id>.<name>`, `login.<name>`, `secret:NAME`. */
export type TemplateScope = Record<string, unknown>

/** One rendered part of a multipart body: a text field, or a file with its bytes. */
type RenderedPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; bytes: Uint8Array<ArrayBuffer> }

/**
 * A file body as the sender gets it: the raw bytes, or the parts of a `multipart/form-data` body
 * that the sender serialises with a boundary of its own (RFC 7578; the platform's `FormData`).
 */
export type RenderedUpload =
  { kind: 'binary'; bytes: Uint8Array<ArrayBuffer> } | { kind: 'multipart'; parts: RenderedPart[] }

export interface RenderedRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** The text of a JSON, form or text body; null without a body and for a file body. */
  body: string | null
  /** A file body (`binary` or `multipart` template); absent for every other body. */
  upload?: RenderedUpload
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}/g
const WHOLE = /^\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}$/
const SECRET_PLACEHOLDER = /\{\{\s*secret:([A-Za-z0-9_.-]{1,64})\s*\}\}/g

/**
 * The names of the `{{secret:NAME}}` placeholders of a request template (URL, headers, body), in
 * order of first use. The executor resolves them from the vault into the scope as `secret:NAME`
 * just before it renders the request, and checks where they may go.
 */
export function secretNames(template: RequestTemplate): string[] {
  return placeholderNames(template, SECRET_PLACEHOLDER)
}

/**
 * The names a global `pattern` (its first group) captures in a request template's URL, header
 * values and JSON body, in order of first use, each once.
 */
export function placeholderNames(template: RequestTemplate, pattern: RegExp): string[] {
  const names = new Set<string>()
  const texts = [
    template.url,
    ...Object.values(template.headers),
    JSON.stringify(template.body ?? null),
  ]
  for (const text of texts) for (const m of text.matchAll(pattern)) names.add(m[1]!)
  return [...names]
}

/**
 * Renders a step's request template (docs/architecture.md "The records"). In a JSON body a string that is exactly one
 * placeholder takes the raw typed value (so an integer slot stays a number); placeholders inside
 * longer strings, headers and form fields are stringified; in the URL they are percent-encoded
 * (RFC 3986 §2.1). A placeholder naming nothing in scope renders as empty, except a slot with
 * no value in a JSON body, which drops the key (an optional slot left out).
 * `{{json:<name>}}` renders the value as JSON text (RFC 8259: a string quoted and escaped, a
 * number bare, nothing in scope `null`), for JSON carried inside a URL or text (GraphQL GET
 * `variables=`); in the URL that JSON is then percent-encoded like any placeholder. A whole
 * `{{num:<name>}}` in a JSON body renders a numeric text as a number; elsewhere as the text.
 * `{{xml:<name>}}` renders the value XML-escaped (XML 1.0 §2.4), for element text in an XML body.
 * `{{gen.time:<offsetMs>:<exemplar>}}` is the run's `gen.now_ms` (else the clock) plus the
 * offset, written as the exemplar was (`../../shared/relativeTime.ts`).
 */
export function renderRequest(template: RequestTemplate, given: TemplateScope): RenderedRequest {
  const scope = withRelativeTimes(template, given)
  const text = (s: string, encode: (v: string) => string = (v) => v) =>
    s.replace(PLACEHOLDER, (_, name: string) => {
      if (name.startsWith(JSON_PREFIX))
        return encode(jsonText(scope[name.slice(JSON_PREFIX.length)]))
      if (name.startsWith(XML_PREFIX)) {
        const found = scope[name.slice(XML_PREFIX.length)]
        return found === undefined ? '' : encode(escapeXml(stringify(found)))
      }
      if (name.startsWith(NUMBER_PREFIX)) name = name.slice(NUMBER_PREFIX.length)
      return scope[name] === undefined ? '' : encode(stringify(scope[name]))
    })
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(template.headers)) headers[k] = text(v)
  let body: string | null = null
  if (template.body?.kind === 'json')
    body = JSON.stringify(
      template.body.base
        ? basedBody(template.body.base, scope)
        : renderJson(template.body.template, scope),
    )
  else if (template.body?.kind === 'form') {
    const form = new URLSearchParams()
    for (const [k, v] of Object.entries(template.body.template)) {
      // An optional slot left out drops its field; `{{num:…}}` names the same value as a number.
      const whole = WHOLE.exec(v)
      if (whole && scope[whole[1]!.replace(/^(num|json|xml):/, '')] === undefined) continue
      form.append(formKey(k), text(v))
    }
    body = form.toString()
  } else if (template.body?.kind === 'text') body = text(template.body.template)
  const url = text(template.url, encodeURIComponent)
  if (template.body?.kind === 'binary') {
    const bytes = fileBytes(template.body.template, scope)
    return { method: template.method, url, headers, body: null, upload: { kind: 'binary', bytes } }
  }
  if (template.body?.kind === 'multipart') {
    // The sender writes Content-Type with the boundary it chose; the recorded one is stale.
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'content-type') delete headers[name]
    const parts = template.body.template.map((part) => renderPart(part, scope, text))
    return {
      method: template.method,
      url,
      headers,
      body: null,
      upload: { kind: 'multipart', parts },
    }
  }
  return { method: template.method, url, headers, body }
}

function renderPart(
  part: MultipartPart,
  scope: TemplateScope,
  text: (s: string) => string,
): RenderedPart {
  if ('value' in part) return { name: part.name, value: text(part.value) }
  return {
    name: part.name,
    filename: text(part.filename),
    contentType: text(part.contentType) || 'application/octet-stream',
    bytes: fileBytes(part.file, scope),
  }
}

/**
 * The bytes of a file placeholder: the base64 text (RFC 4648 §4; base64url is read too) of the
 * input it names. Nothing in scope gives no bytes; inputs are validated before a run starts, so
 * a file slot without a value and without a default never gets here.
 */
function fileBytes(placeholder: string, scope: TemplateScope): Uint8Array<ArrayBuffer> {
  const whole = WHOLE.exec(placeholder)
  const value = whole ? scope[whole[1]!] : placeholder
  if (typeof value !== 'string') return new Uint8Array()
  return new Uint8Array(Buffer.from(value, 'base64'))
}

function renderJson(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value)
    if (whole?.[1]!.startsWith(JSON_PREFIX))
      return scope[whole[1]!.slice(JSON_PREFIX.length)] ?? null
    if (whole?.[1]!.startsWith(NUMBER_PREFIX)) {
      const found = scope[whole[1]!.slice(NUMBER_PREFIX.length)]
      return typeof found === 'string' && found.trim() && Number.isFinite(Number(found))
        ? Number(found)
        : found
    }
    if (whole) return scope[whole[1]!]
    return value.replace(PLACEHOLDER, (_, name: string) =>
      name.startsWith(JSON_PREFIX)
        ? jsonText(scope[name.slice(JSON_PREFIX.length)])
        : stringify(scope[name.replace(/^num:/, '')] ?? ''),
    )
  }
  if (Array.isArray(value)) return value.map((v) => renderJson(v, scope))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const rendered = renderJson(v, scope)
      if (rendered !== undefined) setOwn(out, k, rendered)
    }
    return out
  }
  return value
}

/** The scope with a value for each relative time the template names, computed from its now. */
function withRelativeTimes(template: RequestTemplate, scope: TemplateScope): TemplateScope {
  const names = placeholderNames(template, PLACEHOLDER)
    .map((n) => n.replace(/^(json|num|xml):/, ''))
    .filter((n) => n.startsWith(TIME_PREFIX) && scope[n] === undefined)
  if (!names.length) return scope
  const now = Number(scope['gen.now_ms']) || Date.now()
  const out: TemplateScope = { ...scope }
  for (const name of names) {
    const value = renderRelativeTime(name, now)
    if (value !== null) out[name] = value
  }
  return out
}

/** The prefix of a placeholder rendered as JSON text: `{{json:input.p0}}`. */
const JSON_PREFIX = 'json:'
/**
 * The prefix of a placeholder that stands for a JSON number where the recorded body had one
 * (`{{num:step.d4.item_id}}`): an extracted id is text, the site wants `9`, not `"9"`.
 */
const NUMBER_PREFIX = 'num:'
/** The prefix of a placeholder in an XML body, rendered XML-escaped (XML 1.0 §2.4). */
const XML_PREFIX = 'xml:'

function jsonText(value: unknown): string {
  return JSON.stringify(value ?? null)
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * The values a run sent in the request fields a read-back checks (`verify.redirect.shows`): a
 * query parameter of the rendered URL, a form field or JSON dot path of the rendered body. A
 * field the template fills from a `{{secret:…}}` is never read back (a run error quotes a value
 * the page does not show), nor one the run left empty.
 */
export function shownValues(
  template: RequestTemplate,
  rendered: RenderedRequest,
  shows: ShownField[],
): string[] {
  const out: string[] = []
  for (const field of shows) {
    if (/\{\{\s*secret:/.test(fieldTemplate(template, field))) continue
    const value = sentValue(template, rendered, field)
    if (value?.trim()) out.push(value)
  }
  return out
}

/**
 * The field name of a form template key: a repeated field's later occurrences are keyed
 * `name#n` (the compiler's `queryPath`), sent as `name` again, in template order.
 */
function formKey(key: string): string {
  return key.replace(/#\d+$/, '')
}

/** The template text of a field (the whole body template for JSON: its secrets count). */
function fieldTemplate(template: RequestTemplate, field: ShownField): string {
  if (field.in === 'query') {
    const query = template.url.split('?')[1] ?? ''
    return new URLSearchParams(query).get(field.path) ?? ''
  }
  if (template.body?.kind === 'form') return template.body.template[field.path] ?? ''
  if (template.body?.kind === 'multipart')
    return JSON.stringify(template.body.template.find((p) => p.name === field.path) ?? '')
  return JSON.stringify(template.body?.template ?? '')
}

function sentValue(
  template: RequestTemplate,
  rendered: RenderedRequest,
  field: ShownField,
): string | undefined {
  if (field.in === 'query') {
    return safeUrl(rendered.url)?.searchParams.get(field.path) ?? undefined
  }
  if (rendered.upload?.kind === 'multipart') {
    const part = rendered.upload.parts.find((p) => p.name === field.path)
    return part === undefined ? undefined : 'value' in part ? part.value : part.filename
  }
  if (rendered.body === null) return undefined
  if (template.body?.kind === 'form') {
    const n = Number(/#(\d+)$/.exec(field.path)?.[1] ?? 1)
    return new URLSearchParams(rendered.body).getAll(formKey(field.path))[n - 1]
  }
  if (template.body?.kind !== 'json') return undefined
  let node = safeJson(rendered.body)
  if (node === undefined) return undefined
  for (const part of field.path.split('.')) node = ownValue(node, part)
  return typeof node === 'string' || typeof node === 'number' ? String(node) : undefined
}

// --- a JSON body based on a step's answer (read-modify-write) ---

/**
 * The scope key under which a run keeps a dependency step's answer text (`answer.<id>`), for a
 * later body based on it (ToolSpec `JsonBodyBase`); the executors set it as each step answers.
 */
export function answerKey(stepId: string): string {
  return `answer.${stepId}`
}

/**
 * Why a based body could not be made: the base step's answer is missing or no JSON
 * (`schema_or_auth_drift`: the site changed), or a change names an item the answer does not hold
 * (`not_found`: the input names nothing there). Nothing is sent then: a whole-resource write
 * built from a wrong base would overwrite the resource.
 */
export class BaseUnavailable extends Error {
  constructor(
    readonly code: 'schema_or_auth_drift' | 'not_found',
    message: string,
  ) {
    super(message)
    this.name = 'BaseUnavailable'
  }
}

/**
 * Renders a step's request (`renderRequest`), or the run's failure when its body is based on an
 * answer it cannot be made from (`BaseUnavailable`): what the executors call before sending.
 */
export function renderOrRefuse(
  template: RequestTemplate,
  scope: TemplateScope,
): RenderedRequest | Extract<Outcome, { ok: false }> {
  try {
    return renderRequest(template, scope)
  } catch (error) {
    if (!(error instanceof BaseUnavailable)) throw error
    return { ok: false, code: error.code, message: error.message }
  }
}

/**
 * The request a based body's template shows (the recorded body with the changed fields'
 * placeholders), for a preview made before any step ran (the approval of a write).
 */
export function asRecorded(template: RequestTemplate): RequestTemplate {
  if (template.body?.kind !== 'json' || !template.body.base) return template
  return { ...template, body: { kind: 'json', template: template.body.template } }
}

/** The body a base names: the step's JSON answer (its part at `path`) with the changes applied. */
function basedBody(base: JsonBodyBase, scope: TemplateScope): unknown {
  const text = scope[answerKey(base.step)]
  const answer = typeof text === 'string' ? safeJson(text) : undefined
  if (answer === undefined)
    throw new BaseUnavailable(
      'schema_or_auth_drift',
      `The record to change was not read: step ${base.step} gave no JSON answer. Record the flow again.`,
    )
  const part = base.path ? valueAt(answer, base.path, scope) : answer
  if (part === undefined)
    throw new BaseUnavailable(
      'not_found',
      `Step ${base.step}'s answer holds nothing at ${base.path}: check the inputs.`,
    )
  const changed = applyChanges(part, base.changes, scope, (v) => renderJson(v, scope))
  if (changed.ok) return changed.value
  throw new BaseUnavailable(
    changed.reason === 'not_found' ? 'not_found' : 'schema_or_auth_drift',
    `${changed.message}: nothing was written.`,
  )
}
