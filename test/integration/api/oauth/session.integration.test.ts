import { afterEach, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../../src/main/core'
import { rawGet, send, type ErrorAnswerBody } from '../../../fixtures/harness/http'
import { postForm, startAuthHarness, type AuthHarness } from './oauthHarness'

const HOUR = 60 * 60_000

let h: AuthHarness | null = null

afterEach(async () => {
  await h?.close()
  h = null
})

const mintKey = (harness: AuthHarness, id: string) =>
  harness.core.store.keys.create({ id, tenant: LOCAL_TENANT, label: id }, 0).key

/** `POST /app-api/info.get`-like owner call: any app method, only the status matters. */
const ownerCall = (harness: AuthHarness, token: string) =>
  send(harness.base, 'POST', '/app-api/keys.list', { key: token, json: {} })

describe('owner tokens', () => {
  it('expire after one hour', async () => {
    h = await startAuthHarness()
    expect((await ownerCall(h, h.core.ownerToken)).status).toBe(200)
    h.advance(HOUR - 1)
    expect((await ownerCall(h, h.core.ownerToken)).status).toBe(200)
    h.advance(1)
    const answer = await ownerCall(h, h.core.ownerToken)
    expect(answer.status).toBe(401)
    expect((answer.body as ErrorAnswerBody).error.code).toBe('unauthorized')
  })

  it('are renewed by POST /app-api/session/refresh, which also sets the consent cookie', async () => {
    h = await startAuthHarness()
    h.advance(50 * 60_000)
    const refreshed = await send<{ token: string; expiresInSeconds: number }>(
      h.base,
      'POST',
      '/app-api/session/refresh',
      { key: h.core.ownerToken },
    )
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.expiresInSeconds).toBe(3600)
    expect(refreshed.headers.get('set-cookie')).toMatch(/Path=\/; HttpOnly; SameSite=Strict/)
    const fresh = refreshed.body.token
    expect(fresh).not.toBe(h.core.ownerToken)
    // The start token keeps its own hour; the fresh one lives an hour from the refresh.
    h.advance(10 * 60_000)
    expect((await ownerCall(h, h.core.ownerToken)).status).toBe(401)
    expect((await ownerCall(h, fresh)).status).toBe(200)
    h.advance(50 * 60_000 - 1)
    expect((await ownerCall(h, fresh)).status).toBe(200)
    h.advance(1)
    expect((await ownerCall(h, fresh)).status).toBe(401)
  })

  it('cannot be renewed once expired, nor with an API key', async () => {
    h = await startAuthHarness()
    const key = mintKey(h, 'key_a')
    const withKey = await send<ErrorAnswerBody>(h.base, 'POST', '/app-api/session/refresh', {
      key,
    })
    expect(withKey.status).toBe(401)
    h.advance(HOUR)
    const late = await send<ErrorAnswerBody>(h.base, 'POST', '/app-api/session/refresh', {
      key: h.core.ownerToken,
    })
    expect(late.status).toBe(401)
    expect(late.body.error.code).toBe('unauthorized')
  })
})

describe('API keys', () => {
  it('answers 403 revoked for a revoked key', async () => {
    h = await startAuthHarness()
    const key = mintKey(h, 'key_rev')
    expect((await send(h.base, 'GET', '/v1/tools/catalog', { key })).status).toBe(200)
    h.core.store.keys.revoke('key_rev', 1)
    const answer = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog', { key })
    expect(answer.status).toBe(403)
    expect(answer.body.error.code).toBe('revoked')
  })

  it('answers 401 unauthorized without a key', async () => {
    h = await startAuthHarness()
    const answer = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog')
    expect(answer.status).toBe(401)
    expect(answer.body.error.code).toBe('unauthorized')
  })
})

describe('per-key rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the burst, per key, and refills with time', async () => {
    h = await startAuthHarness({ rateLimits: { perMinute: 60, burst: 3 } })
    const a = mintKey(h, 'key_a')
    const b = mintKey(h, 'key_b')
    for (let i = 0; i < 3; i++)
      expect((await send(h.base, 'GET', '/v1/tools/catalog', { key: a })).status).toBe(200)
    const limited = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog', { key: a })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.body.error.code).toBe('rate_limited')
    expect(limited.body.error.message).toContain('60 a minute')
    // Another key has its own bucket; the owner (the app's UI) is not limited.
    expect((await send(h.base, 'GET', '/v1/tools/catalog', { key: b })).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await ownerCall(h, h.core.ownerToken)).status).toBe(200)
    h.advance(1000)
    expect((await send(h.base, 'GET', '/v1/tools/catalog', { key: a })).status).toBe(200)
    expect((await send(h.base, 'GET', '/v1/tools/catalog', { key: a })).status).toBe(429)
  })
})

describe('Host and Origin on the OAuth routes', () => {
  it('refuses a consent form posted from a foreign Origin with 403 forbidden', async () => {
    h = await startAuthHarness()
    const answer = await postForm(
      h.base,
      '/oauth/authorize',
      { consent: 'x', decision: 'approve' },
      { origin: 'http://evil.example', authorization: `Bearer ${h.core.ownerToken}` },
    )
    expect(answer.status).toBe(403)
    expect(((await answer.json()) as ErrorAnswerBody).error.code).toBe('forbidden')
  })

  it('refuses the OAuth metadata under a non-loopback Host (DNS rebinding)', async () => {
    h = await startAuthHarness()
    const answer = await rawGet(h.base, '/.well-known/oauth-authorization-server', {
      host: 'evil.example',
    })
    expect(answer.status).toBe(403)
  })
})
