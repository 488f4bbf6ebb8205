import type { Exchange } from '../../shared/trace'
import { headerValue, mimeTypeOf } from '../../shared/trace'

/**
 * Why an exchange can never be a tool's target, or null when it may be one. Rules (issue 2/3):
 * never a static asset, a beacon, a translation dictionary, a feature-flag or config blob, a
 * preflight, a failed request or a third-party host.
 */
export function rejectionReason(exchange: Exchange, siteHosts: Set<string>): string | null {
  const url = safeUrl(exchange.url)
  if (!url) return 'not an http(s) URL'
  if (exchange.method === 'OPTIONS') return 'CORS preflight'
  if (!siteHosts.has(url.host)) return `third-party host ${url.host}`
  if (
    ['image', 'font', 'stylesheet', 'media', 'script', 'manifest'].includes(exchange.resourceType)
  )
    return `static asset (${exchange.resourceType})`
  if (/\.(css|js|mjs|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|otf|map)$/i.test(url.pathname))
    return 'static asset (by extension)'
  if (exchange.resourceType === 'ping' || isBeaconPath(url.pathname)) return 'analytics beacon'
  if (exchange.status === 0) return 'request failed without an answer'
  if (exchange.status < 200 || exchange.status >= 300) return `answered HTTP ${exchange.status}`
  if (exchange.resourceType === 'document') return 'HTML document (page reads come later)'
  const json = parseJsonBody(exchange)
  if (json === undefined)
    return `answer is not JSON (${mimeTypeOf(exchange.responseHeaders) || 'no type'})`
  if (isDictionaryPath(url.pathname) || looksLikeDictionary(json)) return 'translation dictionary'
  if (
    /(feature[-_]?flags?|\/flags\b|\/config(\.json)?$|remote-?config|experiments?)/i.test(
      url.pathname,
    )
  )
    return 'feature-flag or config blob'
  return null
}

/** The parsed JSON answer of an exchange, or undefined when it has none. */
export function parseJsonBody(exchange: Exchange): unknown {
  const body = exchange.responseBody
  if (!body || body.encoding !== 'utf8' || !body.text.trim()) return undefined
  const mime = mimeTypeOf(exchange.responseHeaders)
  if (mime && !mime.includes('json') && !mime.startsWith('text/plain')) return undefined
  try {
    return JSON.parse(body.text)
  } catch {
    return undefined
  }
}

/** The request's JSON body, if it has one. */
export function parseJsonRequest(exchange: Exchange): unknown {
  const body = exchange.requestBody
  if (!body || body.encoding !== 'utf8') return undefined
  const type = headerValue(exchange.requestHeaders, 'content-type') ?? ''
  if (type && !type.includes('json')) return undefined
  try {
    return JSON.parse(body.text)
  } catch {
    return undefined
  }
}

export function safeUrl(text: string): URL | null {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

function isBeaconPath(path: string): boolean {
  return /(^|\/)(collect|beacon|track(ing)?|analytics|telemetry|pixel|log|events?|metrics|rum|gtag|pageview)(\/|$|\.)/i.test(
    path,
  )
}

function isDictionaryPath(path: string): boolean {
  return /(^|\/)(locales?|i18n|l10n|translations?|lang|messages)(\/|$)/i.test(path)
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
