import { isWriteMethod, safeUrl } from './classify'

/**
 * Headers a replay must not copy: hop-by-hop and computed ones (RFC 9110 §7.6.1), browser-only
 * fetch metadata, and session-bound ones (cookies and credentials belong to the site's login).
 * `Origin` and `Referer` are kept apart (`keptHeaders`).
 */
export const DROPPED_HEADERS =
  /^(:|sec-|cookie$|authorization$|host$|content-length$|connection$|accept-encoding$|origin$|referer$|user-agent$|priority$|pragma$|cache-control$|upgrade-insecure-requests$|if-none-match$|if-modified-since$|keep-alive$|transfer-encoding$)/i

/**
 * The request headers a replay keeps, lower-cased. A write keeps the `Origin` and `Referer` the
 * browser sent, cut to the page's origin (`http://host:port`, `http://host:port/`): sites refuse
 * a cross-site write by them (Fossil, CSRF checks by Origin as in the Fetch standard's CORS
 * rules), and the origin alone carries no recorded path or id.
 */
export function keptHeaders(
  headers: Record<string, string>,
  method = 'GET',
): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'origin' || lower === 'referer') {
      const origin = isWriteMethod(method) ? safeUrl(value)?.origin : undefined
      if (origin && origin !== 'null') kept[lower] = lower === 'referer' ? `${origin}/` : origin
    } else if (!DROPPED_HEADERS.test(name)) kept[lower] = value
  }
  return kept
}
