import type {
  MultipartPart,
  RequestTemplate,
  SlotSchema,
  TemplateBody,
  ToolSpec,
  ToolStep,
} from '../../shared/toolSpec'
import { headerValue, mimeTypeOf, type Exchange } from '../../shared/trace'
import { multipartBoundary, multipartParts, type RecordedPart } from './multipartBody'
import { decodeOrKeep } from '../../shared/urls'

/** A recorded request that sent a file: its raw body, or a multipart form with file parts. */
export type FileUpload =
  | {
      kind: 'binary'
      /** The bytes, base64; null when the recording kept none (a plain HAR). */
      bytes: string | null
      contentType: string
      /** The file name the request names (`X-File-Name`, `Content-Disposition`), if any. */
      filename: string | null
    }
  | { kind: 'multipart'; parts: RecordedPart[] }

/** A planned target: its inputs and its request template (see `planSlots`). */
export interface FilePlan {
  inputs: ToolSpec['inputs']
  request: RequestTemplate
}

/**
 * Recorded files up to this size become the file slot's default; larger ones are required. Small:
 * the default travels in every listing of the tool's input schema (MCP `tools/list`, the catalog).
 */
const MAX_DEFAULT_FILE_BYTES = 64 * 1024

/** Base64 text (RFC 4648 §4, and base64url §5): the file slot's schema checks it. */
export const BASE64_PATTERN = '^[A-Za-z0-9+/_-]*={0,2}$'

const MEDIA_TYPE = /^(image|audio|video|font|model)\/|^application\/(octet-stream|pdf|zip|gzip|x-)/i
const TEXT_TYPE =
  /^(text\/|application\/(json|x-www-form-urlencoded|graphql|xml|javascript))|\+(json|xml)$/i

/**
 * Whether a request sent a file, and how: a `multipart/form-data` body with
 * a part that names a file (`filename="…"` not empty: an empty one is a file input left blank),
 * or a raw body that is a file: a media type (`application/octet-stream`, `image/*`, a PDF), a
 * file name in `X-File-Name` or `Content-Disposition`, or bytes that are not text. A raw file
 * body may be missing (Chromium gives no bytes of a `File` to a HAR); its `Content-Length` then
 * says one was sent. Null for any other request.
 */
export function fileUploadOf(exchange: Exchange): FileUpload | null {
  if (/^(GET|HEAD|OPTIONS)$/i.test(exchange.method)) return null
  const parts = multipartParts(exchange)
  if (parts)
    return parts.some((p) => 'filename' in p && p.filename) ? { kind: 'multipart', parts } : null
  if (multipartBoundary(exchange.requestHeaders)) return null
  const headers = exchange.requestHeaders
  const type = mimeTypeOf(headers)
  const filename = sentFileName(headers)
  const body = exchange.requestBody
  const length = Number(headerValue(headers, 'content-length') ?? NaN)
  const sent = body ? body.text.length > 0 : Number.isFinite(length) && length > 0
  if (!sent) return null
  const looksFile =
    filename !== null ||
    MEDIA_TYPE.test(type) ||
    (body?.encoding === 'base64' && !TEXT_TYPE.test(type))
  if (!looksFile || (TEXT_TYPE.test(type) && filename === null)) return null
  const bytes = body
    ? body.encoding === 'base64'
      ? body.text
      : Buffer.from(body.text, 'utf8').toString('base64')
    : null
  return { kind: 'binary', bytes, contentType: type || 'application/octet-stream', filename }
}

/** The file name a raw upload names in `X-File-Name` (qq uploader) or `Content-Disposition`. */
function sentFileName(headers: Record<string, string>): string | null {
  const named = headerValue(headers, 'x-file-name')
  if (named) return decodeOrKeep(named)
  const disposition = headerValue(headers, 'content-disposition') ?? ''
  const quoted = /filename="([^"]+)"/i.exec(disposition)?.[1]
  return quoted ?? /filename=([^;\s]+)/i.exec(disposition)?.[1] ?? null
}

/**
 * A planned target whose request sent a file, made to send the caller's file instead: the body
 * becomes a `binary` or `multipart` template, each file an input (`{type: 'string',
 * contentEncoding: 'base64', contentMediaType}`, JSON Schema 2020-12 §8.3, with the recorded
 * bytes as its default when the recording kept them and they are at most
 * {@link MAX_DEFAULT_FILE_BYTES}, else required) and each file name an input too (its default
 * the recorded name; `mergeSameValues` then folds it into an input holding the same name, such
 * as DokuWiki's `qqfile` or MediaWiki's `wpDestFile`). Text fields keep the slots `slotOf` gave
 * them (`body:<name>`). A multipart body's `Content-Type` header is dropped: the engine writes
 * one with its own boundary. Any other request's plan is returned as it was.
 */
export function withFileBody(
  exchange: Exchange,
  plan: FilePlan,
  slotOf: Map<string, string>,
): FilePlan {
  const upload = fileUploadOf(exchange)
  if (!upload) return plan
  const properties: Record<string, SlotSchema> = { ...plan.inputs.properties }
  const required = [...(plan.inputs.required ?? [])]
  let next = Math.max(-1, ...Object.values(properties).map((p) => slotNumber(p['x-slot']))) + 1
  const add = (name: string, schema: Omit<SlotSchema, 'x-slot'>, need: boolean): string => {
    const slot = `p${next++}`
    const unique = uniqueInput(name, properties)
    properties[unique] = { ...schema, 'x-slot': slot } as SlotSchema
    if (need) required.push(unique)
    return `{{input.${slot}}}`
  }
  const headers = { ...plan.request.headers }
  let body: TemplateBody
  if (upload.kind === 'binary') {
    const file = add(
      'file',
      fileSchema('', upload.contentType, upload.bytes, upload.filename),
      !fits(upload.bytes, upload.contentType),
    )
    body = { kind: 'binary', template: file }
    if (upload.filename !== null) {
      const name = add('filename', nameSchema('header', 'x-file-name', upload.filename), false)
      for (const [key, value] of Object.entries(headers))
        if (/^(x-file-name|content-disposition)$/i.test(key))
          headers[key] = value
            .split(upload.filename)
            .join(name)
            .split(encodeURIComponent(upload.filename))
            .join(name)
    }
  } else {
    for (const key of Object.keys(headers)) if (/^content-type$/i.test(key)) delete headers[key]
    const files = upload.parts.filter((p) => 'filename' in p && p.filename).length
    const template: MultipartPart[] = upload.parts.map((part) => {
      if ('value' in part) {
        const slot = slotOf.get(`body:${part.name}`)
        return { name: part.name, value: slot ? `{{input.${slot}}}` : part.value }
      }
      if (!part.filename)
        return { name: part.name, file: '', filename: '', contentType: part.contentType }
      const inputName = files === 1 ? 'file' : part.name
      const file = add(
        inputName,
        fileSchema(part.name, part.contentType, part.bytes, part.filename),
        !fits(part.bytes, part.contentType),
      )
      const filename = add(
        files === 1 ? 'filename' : `${part.name}_filename`,
        nameSchema('body', part.name, part.filename),
        false,
      )
      return { name: part.name, file, filename, contentType: part.contentType }
    })
    body = { kind: 'multipart', template }
  }
  return {
    inputs: { ...plan.inputs, properties, required },
    request: { ...plan.request, headers, body },
  }
}

/**
 * Whether recorded bytes make a default: known, not empty (unknown too), small, and whole. A
 * binary file a capture kept as text (a HAR's `postData.text`) has its invalid UTF-8 replaced by
 * U+FFFD (bytes EF BF BD): those bytes are no longer the file, so the caller must give it.
 */
function fits(bytes: string | null, contentType = ''): boolean {
  return (
    bytes !== null &&
    bytes.length > 0 &&
    (bytes.length * 3) / 4 <= MAX_DEFAULT_FILE_BYTES &&
    !lostAsText(bytes, contentType)
  )
}

/** True when a non-text file's recorded bytes hold U+FFFD: a binary file captured as text. */
function lostAsText(bytes: string, contentType: string): boolean {
  return !/^text\//i.test(contentType) && Buffer.from(bytes, 'base64').includes(REPLACEMENT)
}

/** U+FFFD REPLACEMENT CHARACTER in UTF-8. */
const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd])

function fileSchema(
  path: string,
  contentType: string,
  bytes: string | null,
  filename: string | null,
): Omit<SlotSchema, 'x-slot'> {
  const size = bytes === null ? null : Buffer.from(bytes, 'base64').length
  const recorded = [
    filename ? JSON.stringify(filename) : null,
    size === null ? null : `${size} bytes`,
    contentType,
  ]
    .filter(Boolean)
    .join(', ')
  return {
    'x-in': 'body',
    'x-path': path,
    type: 'string',
    contentEncoding: 'base64',
    contentMediaType: contentType,
    pattern: BASE64_PATTERN,
    description: `The file to send, its bytes in base64 (recorded: ${recorded}${
      bytes && lostAsText(bytes, contentType)
        ? '; the capture kept it as text, so its bytes are lost: give the file'
        : ''
    })`,
    ...(fits(bytes, contentType) ? { default: bytes } : {}),
  }
}

function nameSchema(
  where: 'body' | 'header',
  path: string,
  filename: string,
): Omit<SlotSchema, 'x-slot'> {
  return {
    'x-in': where,
    'x-path': path,
    type: 'string',
    minLength: 1,
    default: filename,
    description: `The file's name as the site receives it (observed ${JSON.stringify(filename)})`,
  }
}

function slotNumber(slot: string): number {
  const n = /^p(\d+)$/.exec(slot)?.[1]
  return n === undefined ? -1 : Number(n)
}

function uniqueInput(name: string, taken: Record<string, unknown>): string {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1') || 'file'
  let unique = clean
  for (let n = 2; unique in taken; n++) unique = `${clean}_${n}`
  return unique
}

/**
 * Dependency steps that sent a file as their raw body (an upload that answers a token the target
 * then sends: Redmine's `POST /uploads.js` before the issue form) send the caller's file: each
 * such step's body becomes a `binary` template of a file input added to `plan.inputs` (see
 * {@link withFileBody}). Multipart dependency uploads keep their recorded body: their text
 * fields carry the dependency's own bindings. Steps without an exchange of the trace stay.
 */
export function withFileSteps(
  trace: { exchanges: Exchange[] },
  plan: FilePlan,
  steps: ToolStep[],
): { inputs: ToolSpec['inputs']; steps: ToolStep[] } {
  let inputs = plan.inputs
  const out = steps.map((step) => {
    const exchange = trace.exchanges.find((e) => e.id === step.exchangeId)
    if (!exchange || fileUploadOf(exchange)?.kind !== 'binary') return step
    const filed = withFileBody(exchange, { inputs, request: step.request }, new Map())
    inputs = filed.inputs
    return { ...step, request: filed.request }
  })
  return { inputs, steps: out }
}

/**
 * A body template with `rewrite` applied to each of its texts: the template of a text or binary
 * body, the values, file placeholders and file names of a multipart body. JSON and form bodies
 * are the caller's (their structure differs).
 */
export function rewriteBodyText(
  body: Extract<TemplateBody, { kind: 'text' | 'binary' | 'multipart' }>,
  rewrite: (text: string) => string,
): TemplateBody {
  if (body.kind === 'text') return { kind: 'text', template: rewrite(body.template) }
  if (body.kind === 'binary') return { kind: 'binary', template: rewrite(body.template) }
  return {
    kind: 'multipart',
    template: body.template.map((part) =>
      'value' in part
        ? { name: part.name, value: rewrite(part.value) }
        : { ...part, file: rewrite(part.file), filename: rewrite(part.filename) },
    ),
  }
}
