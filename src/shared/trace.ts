/**
 * A trace: what the browser sent and received, and what the person did, during one recording
 * (docs/architecture.md "The records"). Bodies are text; binary bodies are base64 with `encoding: 'base64'`.
 */
export interface Body {
  text: string
  encoding: 'utf8' | 'base64'
}

/** One request and its response, in the order the browser sent them. */
export interface Exchange {
  /** `exc_<n>`: unique within its trace; `seq` gives the order. */
  id: string
  seq: number
  method: string
  url: string
  requestHeaders: Record<string, string>
  requestBody: Body | null
  /** HTTP status; 0 when the request failed without an answer. */
  status: number
  responseHeaders: Record<string, string>
  responseBody: Body | null
  /** Playwright's resource type: document, xhr, fetch, script, stylesheet, image, font, ping... */
  resourceType: string
  /** Milliseconds since the Unix epoch when the request was sent. */
  startedAt: number
  durationMs: number
  /** URL of the page (frame) that initiated the request. */
  pageUrl: string
}

export type ActionKind = 'click' | 'fill' | 'select' | 'press' | 'navigate' | 'submit'

/** One thing the person did, captured by the injected script or the page's navigation. */
export interface Action {
  seq: number
  kind: ActionKind
  /** Milliseconds since the Unix epoch. */
  at: number
  pageUrl: string
  selector: string | null
  role: string | null
  name: string | null
  /** The value typed or chosen; `null` for a secret field (its value never enters a trace). */
  value: string | null
  /** Field name attribute, input type and, for `<select>`, its option values. */
  fieldName?: string | null
  inputType?: string | null
  options?: string[]
  secret?: boolean
}

export interface StorageState {
  /** `expires` in seconds since the Unix epoch, -1 for a session cookie (as Playwright gives it). */
  cookies: Array<{
    name: string
    value: string
    domain: string
    path: string
    expires: number
    httpOnly?: boolean
    secure?: boolean
    sameSite?: 'Strict' | 'Lax' | 'None'
  }>
  origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }>
}

export interface Trace {
  /** `trc_<ulid>` */
  id: string
  intent: string
  startUrl: string
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  exchanges: Exchange[]
  actions: Action[]
  storageState: StorageState | null
}

/** The summary of an exchange that the Record view lists live. */
export interface ExchangeSummary {
  id: string
  seq: number
  method: string
  url: string
  status: number
  resourceType: string
  mimeType: string
  durationMs: number
}

/** Reads a header case-insensitively (header names are case-insensitive, RFC 9110 §5.1). */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase()
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return headers[key]
  return undefined
}

/**
 * The media type of a `Content-Type` value without its parameters, lower-cased
 * (`application/json`; RFC 9110 §8.3.1), or '' when there is none.
 */
export function mediaType(contentType: string | undefined | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

/** The media type of a response without parameters, lower-cased (`application/json`), or ''. */
export function mimeTypeOf(headers: Record<string, string>): string {
  return mediaType(headerValue(headers, 'content-type'))
}

/**
 * True when an answer of media type `mime` (as {@link mediaType} gives it) is a web page: HTML,
 * or XHTML served as generic XML (XHTML 1.0 §5.1 allows `text/xml` and `application/xml`;
 * Icecast's admin pages are served so), known by its root `html` element in the XHTML namespace.
 */
export function isPageAnswer(mime: string, body: string): boolean {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return true
  if (mime === 'text/xml' || mime === 'application/xml') return XHTML_ROOT.test(body.slice(0, 1024))
  return false
}

const XHTML_ROOT = /<html\b[^>]*\bxmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/

/** Summarises an exchange for lists (no headers, no bodies). */
export function summarizeExchange(exchange: Exchange): ExchangeSummary {
  return {
    id: exchange.id,
    seq: exchange.seq,
    method: exchange.method,
    url: exchange.url,
    status: exchange.status,
    resourceType: exchange.resourceType,
    mimeType: mimeTypeOf(exchange.responseHeaders),
    durationMs: exchange.durationMs,
  }
}

/**
 * What the recorder writes in place of a secret the person typed (a password or one-time code):
 * its value never enters a trace (docs/architecture.md "Typed secrets stay secret").
 */
export const SECRET_PLACEHOLDER = '[sitecall:secret]'
