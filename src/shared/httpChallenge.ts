import type { HttpAuthScheme } from './toolSpec'

/** One challenge of a `WWW-Authenticate` header that Sitecall can answer. */
export interface HttpChallenge {
  scheme: HttpAuthScheme
  /** The protection space (`realm="…"`), or null when the site names none. */
  realm: string | null
  /** The challenge's own text (`Digest realm=…, nonce=…`), what a Digest answer is made from. */
  text: string
}

/** Auth schemes a challenge list may hold (RFC 9110 §11.6.1), to cut one challenge from the next. */
const NEXT_SCHEME = /,\s*(?=(?:Basic|Digest|Bearer|Negotiate|NTLM|Mutual|HOBA|SCRAM-[\w-]+)\b)/i

/**
 * The challenge to answer in a `WWW-Authenticate` value (RFC 9110 §11.6.1; several headers come
 * joined by `, `): Digest (RFC 7616) when offered, being the stronger, else Basic (RFC 7617).
 * Null when the site asks neither (a bearer token, or no header at all).
 */
export function readChallenge(header: string | undefined): HttpChallenge | null {
  if (!header) return null
  const challenges = header.split(NEXT_SCHEME).map((c) => c.trim())
  const digest = challenges.find((c) => /^Digest\s/i.test(c))
  const basic = challenges.find((c) => /^Basic(\s|$)/i.test(c))
  const chosen = digest ?? basic
  if (!chosen) return null
  const realm = /realm\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i.exec(chosen)
  return {
    scheme: digest ? 'digest' : 'basic',
    realm: realm ? (realm[1] ?? realm[2] ?? '').replace(/\\(.)/g, '$1') : null,
    text: chosen,
  }
}

/**
 * A URL without its userinfo (RFC 3986 §3.2.1 `user:pass@`): what may be stored or shown, the
 * credentials being answered to a challenge instead.
 */
export function withoutUserinfo(url: string): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (!parsed.username && !parsed.password) return url
  parsed.username = ''
  parsed.password = ''
  return parsed.href
}
