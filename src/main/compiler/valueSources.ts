import * as cheerio from 'cheerio'
import type { Extractor } from '../../shared/toolSpec'
import type { Exchange, StorageState } from '../../shared/trace'
import { headerValue, mimeTypeOf } from '../../shared/trace'
import { parseJsonBody } from './classify'
import { httpUrl } from '../../shared/urls'
import { decodeOrKeep } from '../../shared/urls'
import { formatAnchorPick, type AnchorPick } from '../../shared/anchorPick'
import { safeJson, safeUrl } from '../../shared/safeJson'

/** An answer that took this long, ms, came from a long poll, not a read. */
const LONG_POLL_MS = 8_000

/** The last path segment of an event feed (`/rest/events`, `/poll`, `/changes`). */
const FEED_PATH = /\/(events?|poll|long-?poll|updates|changes|stream|subscribe|watch)\/?$/i
/** A cursor a long poll resumes from (`?since=92`, `?cursor=`, `?last_event_id=`). */
const FEED_CURSOR = /[?&](since|cursor|last[-_]?(event[-_]?)?id|after|seq|timeout|wait)=/i

/**
 * True for a long poll: an answer the site held until something happened (8 s or more), or a
 * feed of events read from a cursor (`GET /rest/events?since=92`), whose answer is what happened
 * then and which may keep a run waiting.
 */
export function isLongPoll(exchange: Exchange): boolean {
  if (exchange.durationMs >= LONG_POLL_MS) return true
  const url = httpUrl(exchange.url)
  return !!url && FEED_PATH.test(url.pathname) && FEED_CURSOR.test(url.search)
}

/** Where a request value was found in an earlier answer: the exchange and how to read it again. */
export interface ExchangeSource {
  exchange: Exchange
  from: Extractor['from']
  path: string
  /** For `input`: which control of that name (see `Extractor.index`). */
  index?: number
}

/** A value kept in the browser's storage at the end of the recording (belongs to the login). */
export interface StorageSource {
  from: 'localStorage' | 'cookie'
  origin: string
  key: string
  path: string
}

/**
 * Finds the latest answer that carried `value` among `earlier` (exchanges in trace order): a
 * JSON leaf, a response header, a `Set-Cookie`, an HTML `<meta>`, a named `<input>` or an inline
 * script assignment. The latest answer wins, as the page would have used it, except that an
 * answer to a request that itself sent the value only echoes it (phpMyAdmin hands its session
 * token back in every AJAX answer, to calls that sent it): the latest answer to a request
 * without the value wins over echoes, so a tool reads the value where it came from instead of
 * replaying the chain of calls that passed it on; an echo is the source only when no other
 * answer holds the value. With `affinity` (higher: closer to the request that sends the value),
 * the closest answer wins and the latest among equals: a record read of the resource the request
 * writes, over a later read of another that holds the same value (a timestamp all records share).
 * Bodies are searched as text first, so only answers that contain the value are parsed.
 */
export function findExchangeSource(
  value: string,
  earlier: Exchange[],
  sameSite: (e: Exchange) => boolean,
  affinity?: (e: Exchange) => number,
): ExchangeSource | null {
  let echo: ExchangeSource | null = null
  let best: { source: ExchangeSource; score: number } | null = null
  for (let i = earlier.length - 1; i >= 0; i--) {
    const exchange = earlier[i]!
    if (!sameSite(exchange) || exchange.status < 200 || exchange.status >= 400) continue
    // A long poll (an event stream that answers when something happens) answers what happened
    // then; a run would wait on it, so it is no source.
    if (isLongPoll(exchange)) continue
    const score = affinity ? affinity(exchange) : 0
    if (best && score <= best.score) continue
    const found = sourceIn(exchange, value)
    if (!found) continue
    if (sends(exchange, value)) {
      echo ??= { exchange, ...found }
      continue
    }
    best = { source: { exchange, ...found }, score }
    if (!affinity) break
  }
  return best?.source ?? echo
}

/** True when a request sent `value` itself (in its URL, a header or its body). */
function sends(exchange: Exchange, value: string): boolean {
  if (exchange.url.includes(value) || exchange.url.includes(encodeURIComponent(value))) return true
  const body = exchange.requestBody
  if (body?.encoding === 'utf8' && body.text.includes(value)) return true
  return Object.entries(exchange.requestHeaders).some(
    ([name, v]) => name.toLowerCase() !== 'cookie' && v.includes(value),
  )
}

/**
 * The write whose JSON answer first held `value` (a name the site made for what the write
 * created, such as "Untitled Folder"), or null: later listings repeat it, but the write made it.
 */
export function findCreatorSource(
  value: string,
  earlier: Exchange[],
  sameSite: (e: Exchange) => boolean,
): ExchangeSource | null {
  for (const exchange of earlier) {
    if (
      !sameSite(exchange) ||
      exchange.method === 'GET' ||
      exchange.status < 200 ||
      exchange.status >= 300
    )
      continue
    const found = sourceIn(exchange, value)
    if (found?.from === 'json') return { exchange, ...found }
  }
  return null
}

function sourceIn(exchange: Exchange, value: string): Omit<ExchangeSource, 'exchange'> | null {
  for (const cookie of setCookies(exchange))
    if (cookie.value === value || decodeOrKeep(cookie.value) === value)
      return { from: 'cookie', path: cookie.name }
  for (const [name, v] of Object.entries(exchange.responseHeaders))
    if (name.toLowerCase() !== 'set-cookie' && v === value)
      return { from: 'header', path: name.toLowerCase() }
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !body.text.includes(value)) return null
  const json = parseJsonBody(exchange)
  if (json !== undefined) {
    const path = jsonPathOf(json, value) ?? jsonKeyPathOf(json, value)
    return path === null ? null : { from: 'json', path }
  }
  const mime = mimeTypeOf(exchange.responseHeaders)
  if (mime.includes('html')) return htmlSource(body.text, value)
  // A script the page loads as code (jquery.min.js) holds constants, not answers to read.
  if (/javascript|ecmascript/.test(mime) && exchange.resourceType !== 'script')
    return literalSource(body.text, value)
  return null
}

/**
 * A value written as a quoted string in a script answer (Rails' `uploads.js` answers
 * `fileSpan.find('input.token').val('1.d37…')`): the `literal` extractor reads the string that
 * follows the same text on its line (at most 80 characters of it), or null.
 */
function literalSource(script: string, value: string): Omit<ExchangeSource, 'exchange'> | null {
  for (const quote of ["'", '"']) {
    const at = script.indexOf(`${quote}${value}${quote}`)
    if (at < 0) continue
    const lineStart = script.lastIndexOf('\n', at) + 1
    const before = script.slice(Math.max(lineStart, at - 80), at).trimStart()
    // Too little text to find the same place again (`('`): not a source to read from.
    if (before.length >= 4) return { from: 'literal', path: before }
  }
  return null
}

/** The dot path (`a.b[2].c`) of the first JSON leaf equal to `value`, or null. */
export function jsonPathOf(json: unknown, value: string, path = ''): string | null {
  if (typeof json === 'string' || typeof json === 'number')
    return String(json) === value ? path : null
  if (Array.isArray(json)) {
    for (let i = 0; i < json.length; i++) {
      const found = jsonPathOf(json[i], value, `${path}[${i}]`)
      if (found !== null) return found
    }
    return null
  }
  if (json !== null && typeof json === 'object') {
    for (const [key, child] of Object.entries(json)) {
      const found = jsonPathOf(child, value, path ? `${path}.${key}` : key)
      if (found !== null) return found
    }
  }
  return null
}

/**
 * The path (`result.torrents["8af4…"]~`) of the first object key equal to `value` whose value is
 * a record: a map of records keyed by their ids (Deluge's torrents, qBittorrent-like sync data),
 * where the id the page sends is the key, not a field. `~` reads the key back (`jsonPath.ts`).
 */
function jsonKeyPathOf(json: unknown, value: string, path = ''): string | null {
  if (Array.isArray(json)) {
    for (let i = 0; i < json.length; i++) {
      const found = jsonKeyPathOf(json[i], value, `${path}[${i}]`)
      if (found !== null) return found
    }
    return null
  }
  if (json === null || typeof json !== 'object') return null
  for (const [key, child] of Object.entries(json)) {
    if (key === value && child !== null && typeof child === 'object')
      return `${path}[${JSON.stringify(key)}]~`
    const found = jsonKeyPathOf(child, value, path ? `${path}.${key}` : key)
    if (found !== null) return found
  }
  return null
}

function htmlSource(html: string, value: string): Omit<ExchangeSource, 'exchange'> | null {
  const $ = cheerio.load(html)
  let found: Omit<ExchangeSource, 'exchange'> | null = null
  $('meta[content]').each((_, el) => {
    const name = $(el).attr('name') ?? $(el).attr('property')
    if (!found && name && $(el).attr('content') === value) found = { from: 'meta', path: name }
  })
  if (found) return found
  $('input[name][value]').each((_, el) => {
    if (found || $(el).attr('value') !== value) return
    const name = $(el).attr('name')!
    // Several inputs of one name with other values are a list the person picked from (a
    // checkbox per row): the value is the row's, not a token the page hands out.
    const values = new Set(
      $('input[name][value]')
        .filter((_, other) => $(other).attr('name') === name)
        .map((_, other) => $(other).attr('value'))
        .get(),
    )
    if (values.size === 1) found = { from: 'input', path: name }
    else if (isFormToken($, el, name))
      found = { from: 'input', path: name, index: namedControls($, name).index(el) }
  })
  if (found) return found
  const scripts = $('script:not([src])')
    .map((_, el) => $(el).text())
    .get()
    .join('\n')
  const key = scriptKeyOf(scripts, value)
  if (key) return { from: 'script', path: key }
  return anchorSource($, value)
}

/** The controls named `name` in document order, as the engine counts them (formControl.ts). */
function namedControls($: ReturnType<typeof cheerio.load>, name: string) {
  const named = JSON.stringify(name)
  return $(`input[name=${named}], textarea[name=${named}], select[name=${named}]`)
}

/** Names of the fields that carry a form's anti-forgery token (Rails, Django, Laravel, PHP apps). */
const TOKEN_NAME = /token|csrf|xsrf|nonce/i

/**
 * True when `el` is one of several hidden token fields of one name, one per form, each with its
 * own value (a token masked anew for every form: Adminer's `token`, BREACH-safe Rails): the
 * value is the form's, read again at its place. A name repeated within one form is a list the
 * person picked from (a checkbox per row), never a token.
 */
function isFormToken(
  $: ReturnType<typeof cheerio.load>,
  el: Parameters<ReturnType<typeof cheerio.load>>[0],
  name: string,
): boolean {
  if (!TOKEN_NAME.test(name) || $(el).attr('type')?.toLowerCase() !== 'hidden') return false
  const all = namedControls($, name)
  const forms = new Set<unknown>()
  let perForm = true
  all.each((_, other) => {
    const form = $(other).closest('form').get(0) ?? null
    if (form === null || forms.has(form)) perForm = false
    forms.add(form)
  })
  return perForm
}

/**
 * A value a server-rendered list hands out in a link (`<a href="/tktview/4f2a…">Crash…</a>`):
 * the `anchor` extractor that picks the first link of that text and reads the path segment or
 * query parameter that holds the value, or null. A link whose text another link with another
 * URL shares (a row's "Edit") is no way to find it again.
 */
function anchorSource(
  $: ReturnType<typeof cheerio.load>,
  value: string,
): Omit<ExchangeSource, 'exchange'> | null {
  const links = $('a[href]')
    .map((_, a) => ({
      text: $(a).text().replace(/\s+/g, ' ').trim(),
      href: $(a).attr('href')!,
      row: $(a).closest('tr, li').text().replace(/\s+/g, ' ').trim(),
    }))
    .get()
  for (const link of links) {
    if (!link.text) continue
    const url = safeUrl(link.href, 'http://localhost/')
    if (!url) continue
    const segments = url.pathname.split('/').filter(Boolean).map(decodeOrKeep)
    const segment = segments.indexOf(value)
    const param = [...url.searchParams].find(([, v]) => v === value)?.[0]
    if (segment < 0 && param === undefined) continue
    const first = links.find((l) => l.text.toLowerCase() === link.text.toLowerCase())
    if (first !== link) continue
    const pick: AnchorPick =
      segment >= 0 ? { text: link.text, segment } : { text: link.text, param: param! }
    return { from: 'anchor', path: formatAnchorPick(pick) }
  }
  return null
}

/** The key of an inline-script assignment `key: "value"` or `key = 'value'`, or null. */
function scriptKeyOf(script: string, value: string): string | null {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const match = new RegExp(`["']?([A-Za-z_$][\\w$.-]*)["']?\\s*[:=]\\s*["']${escaped}["']`).exec(
    script,
  )
  return match ? match[1]! : null
}

/** Cookies an answer set (RFC 6265 §4.1: name=value before the first `;`). */
export function setCookies(exchange: Exchange): Array<{ name: string; value: string }> {
  const header = headerValue(exchange.responseHeaders, 'set-cookie')
  if (!header) return []
  // Recorders join several Set-Cookie lines with "\n"; split on newlines only (Expires has commas).
  return header
    .split('\n')
    .map((line) => line.split(';')[0]!.trim())
    .filter((pair) => pair.includes('='))
    .map((pair) => ({
      name: pair.slice(0, pair.indexOf('=')),
      value: pair.slice(pair.indexOf('=') + 1),
    }))
}

/** Cookie name/value pairs of a request's `Cookie` header (RFC 6265 §5.4). */
export function requestCookies(exchange: Exchange): Array<{ name: string; value: string }> {
  const header = headerValue(exchange.requestHeaders, 'cookie')
  if (!header) return []
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes('='))
    .map((pair) => ({
      name: pair.slice(0, pair.indexOf('=')),
      value: pair.slice(pair.indexOf('=') + 1),
    }))
}

/**
 * Finds `value` in the storage state saved at the end of the recording: a localStorage value (or
 * a leaf of a JSON one) or a cookie. Such values belong to the person's session.
 */
export function findStorageSource(value: string, state: StorageState | null): StorageSource | null {
  // A credential is one unbroken token; text with spaces or lines that a page keeps in storage
  // (GraphiQL's editor, a draft) is what the person wrote, never the login's.
  if (!state || /\s/.test(value)) return null
  for (const origin of state.origins) {
    for (const item of origin.localStorage) {
      if (item.value === value)
        return { from: 'localStorage', origin: origin.origin, key: item.name, path: '' }
      if (!item.value.includes(value)) continue
      // Not JSON: a partial match is not the value.
      const json = safeJson(item.value)
      const path = json === undefined ? null : jsonPathOf(json, value)
      if (path !== null)
        return { from: 'localStorage', origin: origin.origin, key: item.name, path }
    }
  }
  for (const cookie of state.cookies)
    if (cookie.value === value || decodeOrKeep(cookie.value) === value)
      return { from: 'cookie', origin: cookie.domain, key: cookie.name, path: '' }
  return null
}
