import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { send, type ErrorAnswerBody } from '../../../fixtures/harness/http'
import { makeSearchTool } from '../../../fixtures/harness/searchTool'
import {
  authorizeQuery,
  consent,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  signIn,
  startAuthHarness,
  token,
  type AuthHarness,
} from './oauthHarness'

const HOUR = 60 * 60_000
const DAY = 24 * HOUR

let h: AuthHarness

beforeEach(async () => {
  h = await startAuthHarness()
})

afterEach(async () => {
  await h.close()
})

describe('OAuth metadata and registration', () => {
  it('publishes RFC 8414 metadata with S256 only, public clients and the registration endpoint', async () => {
    const answer = await send<Record<string, unknown>>(
      h.base,
      'GET',
      '/.well-known/oauth-authorization-server',
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      issuer: h.base,
      authorization_endpoint: `${h.base}/oauth/authorize`,
      token_endpoint: `${h.base}/oauth/token`,
      registration_endpoint: `${h.base}/oauth/clients`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    })
    expect(answer.body.scopes_supported).toContain('tools:read')
  })

  it('serves the protected-resource metadata of /mcp once, naming this server', async () => {
    const answer = await send<Record<string, unknown>>(
      h.base,
      'GET',
      '/.well-known/oauth-protected-resource',
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      resource: `${h.base}/mcp`,
      authorization_servers: [h.base],
    })
  })

  it('registers a public client without a secret', async () => {
    const answer = await send<Record<string, unknown>>(h.base, 'POST', '/oauth/clients', {
      json: {
        client_name: 'Agent',
        redirect_uris: [REDIRECT_URI, 'https://agent.example/cb'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    })
    expect(answer.status).toBe(201)
    expect(answer.body).toMatchObject({
      client_name: 'Agent',
      redirect_uris: [REDIRECT_URI, 'https://agent.example/cb'],
      token_endpoint_auth_method: 'none',
    })
    expect(answer.body.client_id).toMatch(/^svc_client_/)
    expect(answer.body).not.toHaveProperty('client_secret')
  })

  it.each([
    ['plain http on a public host', ['http://agent.example/cb']],
    ['a fragment', ['http://127.0.0.1:9/cb#x']],
    ['no URI', []],
  ])('refuses a redirect URI with %s: 400 invalid_input', async (_label, uris) => {
    const answer = await send<ErrorAnswerBody>(h.base, 'POST', '/oauth/clients', {
      json: { client_name: 'Agent', redirect_uris: uris },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('invalid_input')
  })
})

describe('the authorization code flow with PKCE', () => {
  it('runs register, consent, token, a tools:read call, and refuses a route outside the scope', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const { tokens } = await signIn(h)
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'tools:read' })
    expect(tokens.access_token).toMatch(/^svc_oat_/)
    expect(tokens.refresh_token).toMatch(/^svc_ort_/)

    const catalog = await send<{ tools: unknown[] }>(h.base, 'GET', '/v1/tools/catalog', {
      key: tokens.access_token,
    })
    expect(catalog.status).toBe(200)
    expect(catalog.body.tools).toHaveLength(1)

    const call = await send<ErrorAnswerBody>(
      h.base,
      'POST',
      `/api/v1/sites/${tool.siteHost}/call/${tool.name}`,
      { key: tokens.access_token, json: { query: 'writing' } },
    )
    expect(call.status).toBe(403)
    expect(call.body.error.code).toBe('forbidden')
    expect(call.body.error.message).toContain('tools:execute')
  })

  it('shows a consent page naming the client and the scopes, and keeps the owner session in a cookie', async () => {
    const clientId = await registerClient(h.base, 'Friendly <agent>')
    const { challenge } = pkcePair()
    const page = await fetch(
      `${h.base}/oauth/authorize?${authorizeQuery(clientId, challenge)}&token=${h.core.ownerToken}`,
    )
    expect(page.status).toBe(200)
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/)
    const html = await page.text()
    expect(html).toContain('Friendly &lt;agent&gt;')
    expect(html).toContain('tools:read')
    expect(html).toContain('value="approve"')
  })

  it('answers 401 without the owner session: JSON for programs, a page for browsers', async () => {
    const clientId = await registerClient(h.base)
    const query = authorizeQuery(clientId, pkcePair().challenge)
    const json = await send<ErrorAnswerBody>(h.base, 'GET', `/oauth/authorize?${query}`)
    expect(json.status).toBe(401)
    expect(json.body.error.code).toBe('unauthorized')
    const page = await fetch(`${h.base}/oauth/authorize?${query}`, {
      headers: { accept: 'text/html' },
    })
    expect(page.status).toBe(401)
    expect(await page.text()).toContain('Open Sitecall first')
  })

  it('sends the browser back with access_denied when the owner denies', async () => {
    const clientId = await registerClient(h.base)
    const back = await consent(h, authorizeQuery(clientId, pkcePair().challenge), 'deny')
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe('st-123')
    expect(back.searchParams.get('code')).toBeNull()
  })

  it('returns code, state and iss on approval', async () => {
    const clientId = await registerClient(h.base)
    const back = await consent(h, authorizeQuery(clientId, pkcePair().challenge))
    expect(back.searchParams.get('code')).toBeTruthy()
    expect(back.searchParams.get('state')).toBe('st-123')
    expect(back.searchParams.get('iss')).toBe(h.base)
  })

  it('refuses an unregistered redirect URI without redirecting: 400 invalid_input', async () => {
    const clientId = await registerClient(h.base)
    const query = authorizeQuery(clientId, pkcePair().challenge, {
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
    })
    const answer = await fetch(`${h.base}/oauth/authorize?${query}&token=${h.core.ownerToken}`, {
      redirect: 'manual',
    })
    expect(answer.status).toBe(400)
    expect(answer.headers.get('location')).toBeNull()
    expect(((await answer.json()) as ErrorAnswerBody).error.code).toBe('invalid_input')
  })

  it.each([
    ['a plain challenge method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no challenge', { code_challenge: '' }, 'invalid_request'],
    ['an unknown scope', { scope: 'tools:read admin' }, 'invalid_scope'],
    ['another response type', { response_type: 'token' }, 'unsupported_response_type'],
  ])('redirects %s back to the client with its OAuth error', async (_label, extra, error) => {
    const clientId = await registerClient(h.base)
    const query = authorizeQuery(clientId, pkcePair().challenge, extra)
    const answer = await fetch(`${h.base}/oauth/authorize?${query}&token=${h.core.ownerToken}`, {
      redirect: 'manual',
    })
    expect(answer.status).toBe(302)
    const back = new URL(answer.headers.get('location')!)
    expect(back.searchParams.get('error')).toBe(error)
    expect(back.searchParams.get('state')).toBe('st-123')
  })

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const clientId = await registerClient(h.base)
    const back = await consent(h, authorizeQuery(clientId, pkcePair().challenge))
    const answer = await token(h.base, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      client_id: clientId,
      code_verifier: pkcePair().verifier,
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe('invalid_grant')
  })

  it('refuses a redirect_uri at the token endpoint that differs from the authorization request', async () => {
    const clientId = await registerClient(h.base)
    const { verifier, challenge } = pkcePair()
    const back = await consent(h, authorizeQuery(clientId, challenge))
    const answer = await token(h.base, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:9/other',
      client_id: clientId,
      code_verifier: verifier,
    })
    expect(answer.body.error).toBe('invalid_grant')
  })

  it('takes a code once: a second exchange fails and revokes the tokens of the first', async () => {
    const clientId = await registerClient(h.base)
    const { verifier, challenge } = pkcePair()
    const back = await consent(h, authorizeQuery(clientId, challenge))
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      client_id: clientId,
      code_verifier: verifier,
    }
    const first = await token(h.base, form)
    expect(first.status).toBe(200)
    const second = await token(h.base, form)
    expect(second.status).toBe(400)
    expect(second.body.error).toBe('invalid_grant')
    const call = await send(h.base, 'GET', '/v1/tools/catalog', { key: first.body.access_token })
    expect(call.status).toBe(401)
  })

  it('refuses a code after its 5 minutes', async () => {
    const clientId = await registerClient(h.base)
    const { verifier, challenge } = pkcePair()
    const back = await consent(h, authorizeQuery(clientId, challenge))
    h.advance(5 * 60_000 + 1)
    const answer = await token(h.base, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      client_id: clientId,
      code_verifier: verifier,
    })
    expect(answer.body.error).toBe('invalid_grant')
  })

  it('answers invalid_client for an unknown client and unsupported_grant_type for others', async () => {
    const unknown = await token(h.base, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'nobody',
      code_verifier: pkcePair().verifier,
    })
    expect(unknown.status).toBe(401)
    expect(unknown.body.error).toBe('invalid_client')
    const grant = await token(h.base, { grant_type: 'password', client_id: 'nobody' })
    expect(grant.body.error).toBe('unsupported_grant_type')
  })
})

describe('tokens over time (fake clock)', () => {
  it('rotates refresh tokens: the old one fails afterwards and its reuse revokes the grant', async () => {
    const { clientId, tokens } = await signIn(h)
    const refreshed = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token)
    expect(refreshed.body.access_token).not.toBe(tokens.access_token)
    const fresh = refreshed.body

    const reused = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe('invalid_grant')

    // The reuse ended the whole family: the fresh pair is dead too.
    const afterReuse = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: fresh.refresh_token,
      client_id: clientId,
    })
    expect(afterReuse.body.error).toBe('invalid_grant')
    const call = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog', {
      key: fresh.access_token,
    })
    expect(call.status).toBe(401)
    expect(call.body.error.code).toBe('unauthorized')
  })

  it('ends an access token after one hour; a refresh gives a working one', async () => {
    const { clientId, tokens } = await signIn(h)
    h.advance(HOUR - 1)
    expect(
      (await send(h.base, 'GET', '/v1/tools/catalog', { key: tokens.access_token })).status,
    ).toBe(200)
    h.advance(1)
    const expired = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog', {
      key: tokens.access_token,
    })
    expect(expired.status).toBe(401)
    expect(expired.body.error.message).toContain('expired')
    const refreshed = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(refreshed.status).toBe(200)
    const call = await send(h.base, 'GET', '/v1/tools/catalog', {
      key: refreshed.body.access_token,
    })
    expect(call.status).toBe(200)
  })

  it('ends a refresh token after 30 days unused', async () => {
    const { clientId, tokens } = await signIn(h)
    h.advance(30 * DAY)
    const answer = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe('invalid_grant')
  })

  it('keeps a refresh token working just before its 30 days', async () => {
    const { clientId, tokens } = await signIn(h)
    h.advance(30 * DAY - 1)
    const answer = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(answer.status).toBe(200)
  })

  it('refuses a refresh that asks for more scopes than granted', async () => {
    const { clientId, tokens } = await signIn(h)
    const answer = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      scope: 'tools:read tools:execute',
    })
    expect(answer.body.error).toBe('invalid_scope')
    // The refused request did not use the token up.
    const again = await token(h.base, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    })
    expect(again.status).toBe(200)
  })

  it('lets a token with tools:execute call a tool', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const { tokens } = await signIn(h, 'tools:read tools:execute')
    const call = await send<{ status: string }>(
      h.base,
      'POST',
      `/api/v1/sites/${tool.siteHost}/call/${tool.name}`,
      { key: tokens.access_token, json: { query: 'writing' } },
    )
    expect(call.status).toBe(200)
    expect(call.body.status).toBe('succeeded')
  })

  it('refuses X-Service-End-User with an OAuth token: 403 forbidden', async () => {
    const { tokens } = await signIn(h)
    const answer = await send<ErrorAnswerBody>(h.base, 'GET', '/v1/tools/catalog', {
      key: tokens.access_token,
      headers: { 'x-service-end-user': 'alice' },
    })
    expect(answer.status).toBe(403)
    expect(answer.body.error.code).toBe('forbidden')
  })

  it('keeps the OAuth token off owner-only routes', async () => {
    const { tokens } = await signIn(h)
    const answer = await send<ErrorAnswerBody>(h.base, 'POST', '/app-api/tools.list', {
      key: tokens.access_token,
      json: {},
    })
    expect(answer.status).toBe(403)
  })
})
