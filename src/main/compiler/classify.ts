import type { Exchange } from '../../shared/trace'
import { headerValue, isPageAnswer, mimeTypeOf } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { isXmlMediaType, xmlTree } from '../../shared/xmlTree'
import { safeJson } from '../../shared/safeJson'
import { registrableDomain, thirdPartyKind } from './thirdParty'

/**
 * Why an exchange can never be a tool's target, or null when it may be one. Rules: never a
 * preflight, an ad or analytics request, a tracker, CDN, social or consent host (another host that
 * is none of these may be the site's own API), a static asset, a
 * failed request, a translation dictionary or a feature-flag/config blob. An HTML document may
 * be a target (a page read, or records the server rendered into the page); a read's answer must
 * be JSON; a write may answer anything (`204`, `text/plain "OK"`, a redirect after a form post).
 * `writes` says which exchanges write (default: by method; the compiler also counts destructive
 * GET links, `operation.ts`), passed in so this module stays below the request-value parsers.
 */
export function rejectionReason(
  exchange: Exchange,
  siteHosts: Set<string>,
  writes: (e: Exchange) => boolean = (e) => isWriteMethod(e.method),
): string | null {
  const url = httpUrl(exchange.url)
  if (!url) return 'not an http(s) URL'
  if (exchange.method === 'OPTIONS') return 'CORS preflight'
  if (isAdRequest(url)) return 'ad request'
  const kind = isSiteHost(url.host, siteHosts) ? null : thirdPartyKind(url.hostname)
  if (kind) return `third-party ${kind} host ${url.host}`
  if (
    ['image', 'font', 'stylesheet', 'media', 'script', 'manifest', 'texttrack'].includes(
      exchange.resourceType,
    )
  )
    return `static asset (${exchange.resourceType})`
  if (
    /\.(css|js|mjs|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|map|mp4|webm)$/i.test(
      url.pathname,
    )
  )
    return 'static asset (by extension)'
  if (exchange.resourceType === 'ping' || (isBeaconPath(url.pathname) && answersNothing(exchange)))
    return 'analytics beacon'
  if (exchange.status === 0) return 'request failed without an answer'
  const write = writes(exchange)
  // A form post answers with a redirect to the page that shows its result (Post/Redirect/Get).
  const redirectAfterWrite = write && exchange.status >= 300 && exchange.status < 400
  if ((exchange.status < 200 || exchange.status >= 300) && !redirectAfterWrite)
    return `answered HTTP ${exchange.status}`
  if (write) return null
  if (isHtmlDocument(exchange)) {
    if (isTemplateFragment(exchange, url)) return 'static asset (an HTML template the page loads)'
    return null
  }
  if (isDictionaryPath(url.pathname)) return 'translation dictionary'
  const json = parseJsonBody(exchange)
  // A configuration that holds lists of records (Syncthing's folders and devices) is the app's
  // data, not its bootstrap settings.
  if (isFlagPath(url.pathname) && !holdsRecordLists(json)) return 'feature-flag or config blob'
  if (json === undefined) {
    // An export the person downloads (CSV, iCalendar... as a page or an attachment) and an XML
    // answer are data too; text a page fetches to show (a readme) is part of that page.
    if (
      isTextData(exchange) &&
      (isDownload(exchange) || /xml/.test(mimeTypeOf(exchange.responseHeaders)))
    )
      return null
    if (exchange.resourceType === 'document') return 'a document that is neither a page nor data'
    return `answer is not JSON (${mimeTypeOf(exchange.responseHeaders) || 'no type'})`
  }
  if (looksLikeDictionary(json)) return 'translation dictionary'
  if (looksLikeFlags(json)) return 'feature-flag or config blob'
  return null
}

/** Media types of data a read may answer besides JSON (RFC 4180 CSV, XML, RFC 5545, RFC 6350). */
const TEXT_DATA =
  /^(text\/(csv|tab-separated-values|xml|calendar|vcard|x-vcard|plain|markdown)|application\/(xml|[\w.-]+\+xml|csv|x-ndjson|ndjson|x-yaml|yaml))$/

/** True for an answer of data in a text format (not JSON, not HTML) with a body. */
export function isTextData(exchange: Exchange): boolean {
  const body = exchange.responseBody
  return (
    !!body &&
    body.encoding === 'utf8' &&
    !!body.text.trim() &&
    TEXT_DATA.test(mimeTypeOf(exchange.responseHeaders))
  )
}

/** True for an answer the browser saves or shows as a document of its own (RFC 6266). */
function isDownload(exchange: Exchange): boolean {
  return (
    exchange.resourceType === 'document' ||
    /^\s*attachment/i.test(headerValue(exchange.responseHeaders, 'content-disposition') ?? '')
  )
}

/**
 * True for an HTML fragment a single-page app fetches as its view template (`GET
 * /render/tab_status.html`, AngularJS `templateUrl`): code of the page, not an answer.
 */
function isTemplateFragment(exchange: Exchange, url: URL): boolean {
  if (exchange.resourceType === 'document' || exchange.method !== 'GET') return false
  if (!/\.html?$/i.test(url.pathname)) return false
  const text = exchange.responseBody?.text ?? ''
  return !/^\s*<(!doctype|html)/i.test(text)
}

/** True for the methods that may change the site's state (RFC 9110 §9.2.1: not safe). */
export function isWriteMethod(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method.toUpperCase())
}

/** True for a navigation (or HAR entry) that answered an HTML page with a body. */
export function isHtmlDocument(exchange: Exchange): boolean {
  const mime = mimeTypeOf(exchange.responseHeaders)
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8') return false
  if (isPageAnswer(mime, body.text)) return true
  if (mime) return false
  return exchange.resourceType === 'document' && /^\s*<(!doctype html|html)/i.test(body.text)
}

/**
 * `read` of each exchange computed once, memoised by the exchange object: each body is parsed
 * once per trace however many passes read it. Same input, same output: this is a cache, not
 * state. Callers must not mutate the values they get back.
 */
function oncePerExchange<T>(read: (exchange: Exchange) => T): (exchange: Exchange) => T {
  const memo = new WeakMap<Exchange, T>()
  return (exchange) => {
    if (memo.has(exchange)) return memo.get(exchange) as T
    const value = read(exchange)
    memo.set(exchange, value)
    return value
  }
}

const answerOnce = oncePerExchange(parseAnswer)
const requestOnce = oncePerExchange(parseRequest)
const xmlOnce = oncePerExchange(parseXmlAnswer)

/**
 * An XML answer's JSON view (`src/shared/xmlTree.ts`), or undefined for an answer that is not
 * XML (by its media type). Parsed once per exchange, like `parseJsonBody`.
 */
export function parseXmlBody(exchange: Exchange): unknown {
  return xmlOnce(exchange)
}

function parseXmlAnswer(exchange: Exchange): unknown {
  const body = exchange.responseBody
  if (body?.encoding !== 'utf8' || !isXmlMediaType(mimeTypeOf(exchange.responseHeaders)))
    return undefined
  return xmlTree(body.text)
}

/** The parsed JSON answer of an exchange, or undefined when it has none. Parsed once. */
export function parseJsonBody(exchange: Exchange): unknown {
  return answerOnce(exchange)
}

function parseAnswer(exchange: Exchange): unknown {
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !body.text.trim()) return undefined
  const mime = mimeTypeOf(exchange.responseHeaders)
  if (mime && !mime.includes('json') && !mime.startsWith('text/plain')) return undefined
  return safeJson(body.text)
}

/** The request's JSON body, if it has one. Parsed once. */
export function parseJsonRequest(exchange: Exchange): unknown {
  return requestOnce(exchange)
}

function parseRequest(exchange: Exchange): unknown {
  const body = exchange.requestBody
  if (!body || body.encoding !== 'utf8') return undefined
  const type = headerValue(exchange.requestHeaders, 'content-type') ?? ''
  // Some clients (Algolia's) send JSON labelled as a form or text to skip the CORS preflight.
  if (type && !type.includes('json') && !/^\s*[{[]/.test(body.text)) return undefined
  return safeJson(body.text)
}

/**
 * Whether a host belongs to the site: one of the hosts the person visited, or a host of the same
 * registrable domain (`api.shop.example` for `www.shop.example`). IP and loopback hosts must match
 * exactly, port included.
 */
function isSiteHost(host: string, siteHosts: Set<string>): boolean {
  if (siteHosts.has(host)) return true
  const domain = registrableDomain(host)
  if (!domain) return false
  for (const site of siteHosts) if (registrableDomain(site) === domain) return true
  return false
}

/** Ad servers and ad paths: a host label or a path segment that names ads. */
function isAdRequest(url: URL): boolean {
  const labels = url.hostname.toLowerCase().split('.')
  if (
    labels.some((l) =>
      /^(ads?|adservice|adserver|adsystem|adnxs|doubleclick|googlesyndication|googleadservices|pagead2?|amazon-adsystem|criteo|taboola|outbrain)$/.test(
        l,
      ),
    )
  )
    return true
  return /(^|\/)(ads?|adserver|adservice|adview|adunit|pagead|doubleclick|prebid|ad-?request)(\/|$|\.)/i.test(
    url.pathname,
  )
}

/**
 * True when an answer carries nothing back: 204/205, an empty or tiny body (`ok`, `1`, `{}`), an
 * image (a tracking pixel) or a JSON object of a few scalars (`{"status":"ok"}`). On the site's own
 * host a path named `events` or `metrics` is as often the app's API (Graphite's `/metrics/find/`
 * answers the metric tree, Django admin's `/admin/events/event/add/` is a form): only such an
 * answer makes it telemetry. A redirect or a page answers a person's form post, never a beacon.
 */
function answersNothing(exchange: Exchange): boolean {
  if (exchange.status === 204 || exchange.status === 205) return true
  if (exchange.status >= 300) return false
  if (mimeTypeOf(exchange.responseHeaders).startsWith('image/')) return true
  const body = exchange.responseBody
  if (!body) return true
  if (body.encoding !== 'utf8') return false
  const text = body.text.trim()
  if (text.length <= 16) return true
  if (isHtmlDocument(exchange)) return false
  const json = safeJson(text)
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false
  const values = Object.values(json)
  return values.length <= 3 && values.every((v) => v === null || typeof v !== 'object')
}

function isBeaconPath(path: string): boolean {
  return /(^|\/)(collect|beacon|track(ing)?|analytics|telemetry|pixel|log|events?|metrics|rum|gtag|pageview|vitals|heartbeat|sentry|envelope|hotjar|amplitude|mixpanel|clarity)(\/|$|\.)/i.test(
    path,
  )
}

function isDictionaryPath(path: string): boolean {
  return /(^|\/)(locales?|i18n|l10n|intl|translations?|lang|messages|dictionar(y|ies))(\/|$)/i.test(
    path,
  )
}

function isFlagPath(path: string): boolean {
  return /(feature[-_]?(flags?|toggles?)|(^|\/)(flags|toggles|experiments?)(\/|$|\.json)|(^|\/)(app[-_]?|remote[-_]?|client[-_]?)?config(uration)?(\/|$|\.json)|launchdarkly|unleash|growthbook|statsig|optimizely)/i.test(
    path,
  )
}

/** True when a JSON value holds, at most two levels down, a list of two or more objects. */
function holdsRecordLists(json: unknown, depth = 0): boolean {
  if (Array.isArray(json))
    return json.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)).length >= 2
  if (json === null || typeof json !== 'object' || depth >= 2) return false
  return Object.values(json).some((v) => holdsRecordLists(v, depth + 1))
}

/** A flat object of many string values under UI-message keys: what i18n bundles look like. */
function looksLikeDictionary(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false
  const entries = Object.entries(json)
  if (entries.length < 5) return false
  const strings = entries.filter(([, v]) => typeof v === 'string')
  const messageKeys = entries.filter(([k]) => /^[a-z0-9_]+([.:][a-z0-9_]+)+$/i.test(k))
  return strings.length === entries.length && messageKeys.length >= entries.length * 0.6
}

/**
 * A flag blob: an object (or its `flags`/`features`/`experiments` member) whose values are mostly
 * booleans or `{enabled|value|variant}` switches.
 */
function looksLikeFlags(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false
  const obj = json as Record<string, unknown>
  for (const key of ['flags', 'features', 'featureFlags', 'experiments', 'toggles'])
    if (obj[key] && typeof obj[key] === 'object' && switchShare(obj[key]) >= 0.8) return true
  return Object.keys(obj).length >= 5 && switchShare(obj) >= 0.8
}

function switchShare(value: unknown): number {
  const entries = Array.isArray(value) ? [] : Object.values(value as Record<string, unknown>)
  if (!entries.length) return 0
  const switches = entries.filter(
    (v) =>
      typeof v === 'boolean' ||
      (v !== null &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        ('enabled' in v || 'variant' in v || 'treatment' in v)),
  )
  return switches.length / entries.length
}
