import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isAllowedRedirectUri } from '../../../../src/main/api/oauth/clientRegistration'
import { scopeForRoute } from '../../../../src/main/api/oauth/routeScopes'
import { verifyS256 } from '../../../../src/main/surface/secrets'
import { parseScopeParam } from '../../../../src/shared/apiScopes'

describe('verifyS256 (RFC 7636 §4.6)', () => {
  // RFC 7636 Appendix B's example pair.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'

  it('accepts the RFC example and refuses another verifier', () => {
    expect(verifyS256(verifier, challenge)).toBe(true)
    expect(verifyS256(verifier.replace('d', 'e'), challenge)).toBe(false)
  })

  it('refuses a verifier shorter than 43 characters even when its hash matches', () => {
    const short = 'abc'
    expect(verifyS256(short, createHash('sha256').update(short).digest('base64url'))).toBe(false)
  })
})

describe('isAllowedRedirectUri', () => {
  it.each([
    ['http://127.0.0.1:33418/callback', true],
    ['http://localhost/cb', true],
    ['http://[::1]:8080/cb', true],
    ['https://agent.example/cb', true],
    ['http://agent.example/cb', false],
    ['http://127.0.0.1.evil.example/cb', false],
    ['javascript:alert(1)', false],
    ['https://agent.example/cb#frag', false],
    ['not a url', false],
  ])('%s → %s', (uri, allowed) => {
    expect(isAllowedRedirectUri(uri)).toBe(allowed)
  })
})

describe('scopeForRoute', () => {
  it('maps search to tools:read, calls to tools:execute, and unlisted routes to null', () => {
    expect(scopeForRoute('POST', '/v1/tools/search')).toBe('tools:read')
    expect(scopeForRoute('POST', '/api/v1/sites/a.example/call/x')).toBe('tools:execute')
    expect(scopeForRoute('PUT', '/v1/accounts/github')).toBe('accounts:write')
    expect(scopeForRoute('HEAD', '/v1/tools/catalog')).toBe('tools:read')
    expect(scopeForRoute('POST', '/app-api/keys.create')).toBeNull()
  })
})

describe('parseScopeParam', () => {
  it('splits on spaces, drops repeats, and refuses unknown names', () => {
    expect(parseScopeParam('tools:read  tools:read tools:execute')).toEqual([
      'tools:read',
      'tools:execute',
    ])
    expect(parseScopeParam('tools:read admin')).toBeNull()
  })
})
