import { readChallenge } from '../../shared/httpChallenge'
import type { HttpAuthScheme } from '../../shared/toolSpec'
import { headerValue, type Exchange } from '../../shared/trace'

/** `Authorization` values of HTTP authentication schemes a saved login answers (RFC 7617, 7616). */
const ANSWER = /^\s*(basic|digest)\s/i

/**
 * The HTTP authentication scheme a tool's requests went through, for its login binding: the scheme
 * of an `Authorization` the browser sent with one of `requests`, else of a 401 challenge the site
 * answered on the same host during the trace (read by `readChallenge`: Digest preferred when both
 * are offered). Null when the site asked none.
 * The credential itself is never read: a tool binds to the saved login, it does not carry one.
 */
export function httpAuthSchemeOf(
  trace: { exchanges: Exchange[] },
  requests: Exchange[],
): HttpAuthScheme | null {
  for (const exchange of requests) {
    const sent = ANSWER.exec(headerValue(exchange.requestHeaders, 'authorization') ?? '')
    if (sent) return sent[1]!.toLowerCase() as HttpAuthScheme
  }
  const hosts = new Set(requests.map((e) => hostOf(e.url)))
  for (const exchange of trace.exchanges) {
    if (exchange.status !== 401 || !hosts.has(hostOf(exchange.url))) continue
    const challenge = readChallenge(headerValue(exchange.responseHeaders, 'www-authenticate'))
    if (challenge) return challenge.scheme
  }
  return null
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : ''
}
