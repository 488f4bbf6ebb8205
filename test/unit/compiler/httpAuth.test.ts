import { describe, expect, it } from 'vitest'
import { httpAuthSchemeOf } from '../../../src/main/compiler/httpAuth'
import { traceBuilder } from './traceBuilder'

/** A trace whose first exchange met `challenge` (a 401) and whose second one is the target. */
function challenged(challenge: string, host = 'http://127.0.0.1:8080') {
  const trace = traceBuilder(host)
    .exchange('GET', '/api/notes?q=a', { status: 401, mime: 'text/plain' })
    .exchange('GET', '/api/notes?q=a', { response: { notes: [] } })
    .build('search my notes')
  trace.exchanges[0]!.responseHeaders['www-authenticate'] = challenge
  return trace
}

describe('the HTTP authentication a tool binds to (httpAuthSchemeOf)', () => {
  it('reads the scheme of an Authorization the browser sent with the requests', () => {
    const trace = challenged('Basic realm="Notes"')
    trace.exchanges[1]!.requestHeaders['authorization'] = 'Digest username="ann", nonce="n"'
    expect(httpAuthSchemeOf(trace, [trace.exchanges[1]!])).toBe('digest')
  })

  it('else the challenge met on the same host, Digest preferred when both are offered', () => {
    const basic = challenged('Basic realm="Notes"')
    expect(httpAuthSchemeOf(basic, [basic.exchanges[1]!])).toBe('basic')
    const both = challenged('Basic realm="Notes", Digest realm="Notes", nonce="abc", qop="auth"')
    expect(httpAuthSchemeOf(both, [both.exchanges[1]!])).toBe('digest')
  })

  it('is null for a bearer challenge, or a challenge met on another host', () => {
    const bearer = challenged('Bearer realm="api"')
    expect(httpAuthSchemeOf(bearer, [bearer.exchanges[1]!])).toBeNull()
    const other = challenged('Basic realm="Notes"')
    other.exchanges[0]!.url = 'http://127.0.0.1:9090/api/notes?q=a'
    expect(httpAuthSchemeOf(other, [other.exchanges[1]!])).toBeNull()
  })
})
