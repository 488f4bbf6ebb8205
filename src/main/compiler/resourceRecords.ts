/**
 * The parts of a read-modify-write tool that its two shapes share: the record a
 * write rewrites and where the compiler saw it, the read request, the based body. Pure.
 */
import type { EvidenceSignal, RequestTemplate, ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { pathSegments } from './requestValues'
import { diffResource, type DiffContext, type ResourceDiff } from './resourceDiff'

export type Rec = Record<string, unknown>

/** A listed record is the written one when it shares this many fields with the body, at least. */
const MIN_SHARED_FIELDS = 3
/** ...and that share of its own fields (a listing shows a subset of the record). */
const MIN_SHARED_SHARE = 0.6
/** Id of the read step the compiler adds when the trace holds no read of the resource. */
export const READ_STEP = 'read'

/** The record a write rewrites, and where the compiler saw it. */
export interface Resource {
  /** `read`: the same path was read before (its answer is the base as is); `listed`: a listing. */
  kind: 'read' | 'listed'
  reference: Rec
  /** The exchange whose answer showed the record. */
  from: Exchange
}

/** The latest answer's record that `fits`, searching lists of records a few levels deep. */
export function findListed(
  earlier: Exchange[],
  fits: (record: Rec) => boolean,
): { reference: Rec; from: Exchange } | null {
  for (const e of [...earlier].reverse()) {
    const answer = parseJsonBody(e)
    if (answer === undefined) continue
    const record = records(answer, 0).find(fits)
    if (record) return { reference: record, from: e }
  }
  return null
}

function records(json: unknown, depth: number): Rec[] {
  if (depth > 3) return []
  if (Array.isArray(json)) return json.flatMap((item) => records(item, depth + 1))
  if (!isRec(json)) return []
  return [
    json,
    ...Object.values(json).flatMap((v) =>
      isRec(v) || Array.isArray(v) ? records(v, depth + 1) : [],
    ),
  ]
}

/** The record shares enough fields with the body to be the resource it writes. */
export function overlaps(record: Rec, sent: Rec): boolean {
  const shared = Object.keys(record).filter((k) => k in sent).length
  return shared >= MIN_SHARED_FIELDS && shared >= MIN_SHARED_SHARE * Object.keys(record).length
}

/** A GET of the target's URL with the target's headers (its session and CSRF ones), JSON asked. */
export function readRequestOf(target: RequestTemplate): RequestTemplate {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(target.headers))
    if (!/^(content-type|if-match|if-unmodified-since)$/i.test(name)) headers[name] = value
  headers.accept = 'application/json'
  return { method: 'GET', url: target.url, headers, body: null }
}

/**
 * The body field whose value is the URL's last segment (the name the write gives the record in
 * both places), with that name; null when the URL has no last segment or no field repeats it.
 */
export function nameField(url: string, sent: Rec): { name: string; field: string } | null {
  const name = lastSegment(url)
  const field = name && Object.keys(sent).find((k) => sent[k] === name)
  return name && field ? { name, field } : null
}

/**
 * The target's request rewritten over the record `read` answers: its JSON body the record with
 * only the changes `sent` makes to `reference` (ToolSpec `JsonBodyBase`), and its `If-Match` the
 * read's `ETag` ({@link withIfMatch}, which may add that extractor to `read`). Null when the body
 * changes nothing or keeps no field of the record: then it is no copy of it.
 */
export function basedWrite(
  target: ToolStep,
  sent: Rec,
  reference: Rec,
  context: DiffContext,
  read: ToolStep,
): { request: RequestTemplate; diff: ResourceDiff } | null {
  const diff = diffResource(sent, reference, templateOf(target), context)
  if (!diff.changes.length || !diff.kept) return null
  const base = { step: read.id, path: '', changes: diff.changes }
  const request: RequestTemplate = {
    ...target.request,
    body: { kind: 'json', template: diff.shown, base },
  }
  return { request: withIfMatch(request, read), diff }
}

/**
 * A write that sends `If-Match` (RFC 9110 §13.1.1) sends the read's `ETag`, read fresh: the
 * recorded one names a revision that is gone by the next run.
 */
function withIfMatch(request: RequestTemplate, read: ToolStep): RequestTemplate {
  const name = Object.keys(request.headers).find((h) => h.toLowerCase() === 'if-match')
  if (!name) return request
  if (!read.extract.some((x) => x.name === 'etag'))
    read.extract.push({ name: 'etag', from: 'header', path: 'etag' })
  return { ...request, headers: { ...request.headers, [name]: `{{step.${read.id}.etag}}` } }
}

/**
 * The write with the input that carries the record's name in its body also in its URL's last
 * segment, where the recorded name stayed literal (one value the person gave, in two places:
 * the resource the URL names is the record the body names).
 */
export function withNameInUrl(step: ToolStep, sent: Rec): ToolStep {
  const name = lastSegment(step.request.url)
  const template = templateOf(step)
  if (!name || /\{\{/.test(name) || !isRec(template)) return step
  const field = Object.keys(sent).find((k) => sent[k] === name)
  const placeholder = field === undefined ? undefined : template[field]
  if (typeof placeholder !== 'string' || !/^\{\{\s*input\.p\d+\s*\}\}$/.test(placeholder))
    return step
  const url = withLastSegment(step.request.url, placeholder)
  return { ...step, request: { ...step.request, url } }
}

/** A step's JSON body template (`{{…}}` placeholders in place), or undefined for any other body. */
function templateOf(step: ToolStep): unknown {
  return step.request.body?.kind === 'json' ? step.request.body.template : undefined
}

/** The URL template with its last path segment replaced by `placeholder`. */
export function withLastSegment(url: string, placeholder: string): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i.exec(url)
  if (!parts) return url
  const path = parts[2]!.replace(/\/[^/]+(\/?)$/, `/${placeholder}$1`)
  return `${parts[1]}${path}${parts[3]}`
}

/** The URL's last non-empty path segment, percent-decoded; null when there is none. */
export function lastSegment(url: string): string | null {
  const segments = pathSegments(url)
  const last = segments[segments.length - 1]
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    // Malformed percent-encoding (a lone `%`): the text stands as written.
    return last
  }
}

/** The tool's evidence with `signal` added last (the tool itself is not changed). */
export function withSignal(tool: ToolSpec, signal: EvidenceSignal): ToolSpec['evidence'] {
  return { ...tool.evidence, signals: [...tool.evidence.signals, signal] }
}

/** True for a JSON object (not null, not an array). */
export function isRec(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
