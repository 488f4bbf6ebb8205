import { headerValue, mediaType } from '../../../shared/trace'
import { safeUrl } from '../../../shared/safeJson'

/** `Sec-Fetch-Dest` values (Fetch Metadata, W3C) mapped to Playwright's resource types. */
const BY_FETCH_DEST: Record<string, string> = {
  document: 'document',
  iframe: 'document',
  frame: 'document',
  script: 'script',
  worker: 'script',
  sharedworker: 'script',
  serviceworker: 'script',
  style: 'stylesheet',
  image: 'image',
  font: 'font',
  audio: 'media',
  video: 'media',
  track: 'texttrack',
  manifest: 'manifest',
}

/** Chrome's `_resourceType` names that differ from Playwright's. */
const CHROME_ALIASES: Record<string, string> = {
  cspviolationreport: 'ping',
  preflight: 'other',
  signedexchange: 'other',
}

/**
 * The resource type of a HAR entry in Playwright's terms (document, xhr, fetch, script, stylesheet,
 * image, font, media, ping, other...). Chrome's `_resourceType` wins when present; otherwise the
 * request's `Sec-Fetch-Dest` (W3C Fetch Metadata), then `X-Requested-With`, then an `Accept`
 * that leads with text/html (a navigation), then the response's media type and the URL's extension decide. A JSON, XML or text answer without a better hint is a
 * `fetch`: it came from a script, which is what the compiler looks for.
 */
export function inferResourceType(input: {
  chromeType: string | undefined
  method: string
  url: string
  requestHeaders: Record<string, string>
  mimeType: string
}): string {
  const chrome = input.chromeType?.trim().toLowerCase()
  if (chrome) return CHROME_ALIASES[chrome] ?? chrome
  const dest = headerValue(input.requestHeaders, 'sec-fetch-dest')?.trim().toLowerCase()
  if (dest && BY_FETCH_DEST[dest]) return BY_FETCH_DEST[dest]
  const requestedWith = headerValue(input.requestHeaders, 'x-requested-with')
  if (requestedWith?.toLowerCase() === 'xmlhttprequest') return 'xhr'
  if (input.method === 'OPTIONS') return 'other'
  // Browsers put text/html first in Accept only for navigations; this also types redirect hops.
  const accept = headerValue(input.requestHeaders, 'accept')?.trim().toLowerCase() ?? ''
  if (input.method === 'GET' && /^text\/html\b/.test(accept)) return 'document'
  const mime = mediaType(input.mimeType)
  const path = pathOf(input.url)
  if (mime === 'text/event-stream') return 'eventsource'
  if (mime === 'text/html' || mime === 'application/xhtml+xml')
    return dest === 'empty' ? 'fetch' : 'document'
  if (mime === 'text/css' || /\.css$/i.test(path)) return 'stylesheet'
  if (/(java|ecma)script/.test(mime) || /\.m?js$/i.test(path)) return 'script'
  if (mime.startsWith('image/') || /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp)$/i.test(path))
    return 'image'
  if (mime.startsWith('font/') || /font/.test(mime) || /\.(woff2?|ttf|otf|eot)$/i.test(path))
    return 'font'
  if (mime.startsWith('audio/') || mime.startsWith('video/')) return 'media'
  if (mime === 'application/manifest+json' || /\.webmanifest$/i.test(path)) return 'manifest'
  if (
    mime.includes('json') ||
    mime.includes('xml') ||
    mime.startsWith('text/') ||
    mime === 'application/x-www-form-urlencoded' ||
    mime === 'application/graphql'
  )
    return 'fetch'
  if (!mime && input.method !== 'GET') return 'fetch'
  return 'other'
}

function pathOf(url: string): string {
  return safeUrl(url)?.pathname ?? url.split(/[?#]/)[0] ?? ''
}
