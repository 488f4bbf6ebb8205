/**
 * Headers a replay must not copy: hop-by-hop and computed ones (RFC 9110 §7.6.1), browser-only
 * fetch metadata, and session-bound ones (cookies and credentials belong to the site's login).
 */
export const DROPPED_HEADERS =
  /^(:|sec-|cookie$|authorization$|host$|content-length$|connection$|accept-encoding$|origin$|referer$|user-agent$|priority$|pragma$|cache-control$|upgrade-insecure-requests$|if-none-match$|if-modified-since$|keep-alive$|transfer-encoding$)/i

/** The request headers a replay keeps, lower-cased. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (!DROPPED_HEADERS.test(name)) kept[name.toLowerCase()] = value
  return kept
}
