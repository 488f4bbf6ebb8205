import { plainLoginSecretName } from '../../shared/loginSecrets'
import { SECRET_PLACEHOLDER } from '../../shared/trace'
import { isWriteMethod } from './classify'
import { httpUrl } from '../../shared/urls'

/**
 * Headers a replay must not copy: hop-by-hop and computed ones (RFC 9110 §7.6.1), browser-only
 * fetch metadata, and session-bound ones (cookies and credentials belong to the site's login).
 * `Origin` and `Referer` are kept apart (`keptHeaders`).
 */
const DROPPED_HEADERS =
  /^(:|sec-|cookie$|authorization$|host$|content-length$|connection$|accept-encoding$|origin$|referer$|user-agent$|priority$|pragma$|cache-control$|upgrade-insecure-requests$|if-none-match$|if-modified-since$|keep-alive$|transfer-encoding$)/i

/**
 * The request headers a replay keeps, lower-cased. A write keeps the `Origin` and `Referer` the
 * browser sent, and so does a dependency step's read (`options.pageRead`) its `Referer`, cut to
 * the page's origin (`http://host:port`, `http://host:port/`): sites refuse
 * a cross-site write by them (Fossil, CSRF checks by Origin as in the Fetch standard's CORS
 * rules), and the origin alone carries no recorded path or id; a write whose Referer was its own
 * page (`options.path`, the request's path) keeps that path. A header that carries what the
 * person typed into a password field (Rspamd's `Password`) is the site's login on every call,
 * never a new password: given `siteHost`, it takes the saved login's password
 * (`{{secret:login.<host>.password}}`, src/shared/loginSecrets.ts) instead of the redaction.
 */
export function keptHeaders(
  headers: Record<string, string>,
  method = 'GET',
  siteHost?: string,
  options: { pageRead?: boolean; actingGet?: boolean; path?: string } = {},
): Record<string, string> {
  const kept: Record<string, string> = {}
  const password = siteHost ? plainLoginSecretName(siteHost, 'password') : null
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'origin' || lower === 'referer') {
      // A page read before the target keeps its Referer too: pages build forms from it
      // (Shaarli's edit form carries a `returnurl` only when the page was reached from
      // another). The target's own GET does not when it sent the browser back to its Referer
      // (WordPress' trash link: the recorded one was the list page, not the origin); a GET that
      // writes elsewhere keeps it (`actingGet`), as CSRF checks by Referer want (Privoxy's
      // `trusted-cgi-referer`).
      const url = httpUrl(value)
      const origin =
        isWriteMethod(method) || (lower === 'referer' && (options.pageRead || options.actingGet))
          ? url?.origin
          : undefined
      // A form that posts to its own address (a CGI's `enadis.sh`) says so: Xymon's admin CGIs
      // act only on a Referer of their own page. That path is the request's own, so no new one.
      const own = isWriteMethod(method) && !!options.path && url?.pathname === options.path
      if (origin && origin !== 'null')
        kept[lower] = lower !== 'referer' ? origin : own ? `${origin}${options.path}` : `${origin}/`
    } else if (!DROPPED_HEADERS.test(name))
      kept[lower] =
        password && value.includes(SECRET_PLACEHOLDER)
          ? value.split(SECRET_PLACEHOLDER).join(`{{secret:${password}}}`)
          : value
  }
  return kept
}
