import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import type { SearchReceipt } from '../../../src/main/api/routes/search'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { signIn } from './oauth/oauthHarness'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { send, type Answer } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

let h: Harness
let tool: ToolSpec
let n = 0
/** A fresh operation key per call site, so tests never share a ledger entry by accident. */
const freshKey = () => `op-search-${String(++n).padStart(4, '0')}`

const INTENT = 'search the AI tools directory by keyword'

beforeAll(async () => {
  h = await startHarness()
  tool = (await makeSearchTool(h.core, h.site)).tool
})

afterAll(async () => {
  await h.close()
})

const refusal = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: expect.any(String), ...extra },
})

function post(
  path: '/v1/tools/search' | '/v1/tool-router',
  json: unknown,
  key: string | null,
  bearer: string | null = h.key,
): Promise<Answer<SearchReceipt>> {
  return send<SearchReceipt>(h.base, 'POST', path, {
    ...(bearer !== null ? { key: bearer } : {}),
    json,
    headers: key === null ? {} : { 'idempotency-key': key },
  })
}

function get(query: string, key: string | null): Promise<Answer<SearchReceipt>> {
  return send<SearchReceipt>(h.base, 'GET', `/v1/tools?${query}`, {
    key: h.key,
    headers: key === null ? {} : { 'idempotency-key': key },
  })
}

const charged = async () =>
  (await send<{ charged: number }>(h.base, 'GET', '/v1/usage', { key: h.key })).body.charged

describe('search: results', () => {
  it('matches the verified directory search with a calibrated score, its slots and evidence', async () => {
    const answer = await post('/v1/tools/search', { intent: INTENT }, freshKey())
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'completed',
      cost: 1,
      result: { status: 'matched', index_endpoint: '/v1/index' },
    })
    const [match] = answer.body.result.tools
    expect(match).toMatchObject({
      id: tool.id,
      endpoint: `/v1/tools/${tool.id}/execute`,
      inputs: { type: 'object', properties: { p0: { type: 'string', 'x-name': 'query' } } },
      schema: { input: tool.inputs, output: tool.output },
      evidence: { verb: { intent: 'search', tool: 'search' } },
    })
    expect(match!.score).toBeGreaterThanOrEqual(0.9)
    expect(match!.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers needs_observation when no tool fits, pointing at the index endpoint', async () => {
    const answer = await post('/v1/tools/search', { intent: 'order a pizza' }, freshKey())
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'completed',
      cost: 1,
      result: { status: 'needs_observation', tools: [], index_endpoint: '/v1/index' },
    })
  })

  it('limits tools to the domain and its subdomains', async () => {
    const here = await post('/v1/tools/search', { intent: INTENT, domain: '127.0.0.1' }, freshKey())
    expect(here.body.result.status).toBe('matched')
    const elsewhere = await post(
      '/v1/tools/search',
      { intent: INTENT, domain: 'directory.example' },
      freshKey(),
    )
    expect(elsewhere.body.result).toMatchObject({ status: 'needs_observation', tools: [] })
  })

  it('answers candidate with the untested candidate when only it fits', async () => {
    h.core.store.tools.setStatus(tool.id, 'candidate', Date.now())
    try {
      const answer = await post('/v1/tool-router', { intent: INTENT }, freshKey())
      expect(answer.body.result).toMatchObject({
        status: 'candidate',
        tools: [],
        candidate: { id: tool.id, status: 'candidate' },
      })
    } finally {
      h.core.store.tools.setStatus(tool.id, 'verified', Date.now())
    }
  })
})

describe('search: one result and one ledger across the three forms', () => {
  it('costs one credit in all for the same key and inputs, and replays the same receipt', async () => {
    const key = freshKey()
    const before = await charged()
    const first = await post('/v1/tools/search', { intent: INTENT, domain: '127.0.0.1' }, key)
    expect(first.status).toBe(200)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const viaGet = await get(`intent=${encodeURIComponent(INTENT)}&domain=127.0.0.1`, key)
    const viaRouter = await post('/v1/tool-router', { domain: '127.0.0.1', intent: INTENT }, key)
    const again = await post('/v1/tools/search', { intent: INTENT, domain: '127.0.0.1' }, key)
    for (const replay of [viaGet, viaRouter, again]) {
      expect(replay.status).toBe(200)
      expect(replay.body).toEqual(first.body)
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
    }
    expect((await charged()) - before).toBe(1)
  })

  it('refuses the same key with other inputs: 409 idempotency_conflict, nothing charged', async () => {
    const key = freshKey()
    await post('/v1/tools/search', { intent: INTENT }, key)
    const before = await charged()
    const other = await get(`intent=${encodeURIComponent('list my orders')}`, key)
    expect(other.status).toBe(409)
    expect(other.body).toEqual(refusal('idempotency_conflict'))
    const otherDomain = await post('/v1/tool-router', { intent: INTENT, domain: 'x.example' }, key)
    expect(otherDomain.status).toBe(409)
    expect(await charged()).toBe(before)
  })
})

describe('search: refusals', () => {
  it('401 unauthorized without a key or with an unknown one', async () => {
    expect(await post('/v1/tools/search', { intent: INTENT }, freshKey(), null)).toMatchObject({
      status: 401,
      body: refusal('unauthorized'),
    })
    expect(
      await post('/v1/tools/search', { intent: INTENT }, freshKey(), 'svc_live_nope'),
    ).toMatchObject({ status: 401, body: refusal('unauthorized') })
  })

  it('403 revoked for a revoked key', async () => {
    const { key, record } = h.core.store.keys.create(
      { id: 'key_revoked', tenant: LOCAL_TENANT, label: 'revoked' },
      Date.now(),
    )
    h.core.store.keys.revoke(record.id, Date.now())
    expect(await post('/v1/tools/search', { intent: INTENT }, freshKey(), key)).toMatchObject({
      status: 403,
      body: refusal('revoked'),
    })
  })

  it('400 invalid_input for a missing or malformed operation key', async () => {
    for (const key of [null, 'short', 'has space in it', 'x'.repeat(129), 'ünïcode-key']) {
      const answer = await post('/v1/tools/search', { intent: INTENT }, key)
      expect(answer.status, String(key)).toBe(400)
      expect(answer.body).toEqual(refusal('invalid_input'))
    }
    expect((await get(`intent=${encodeURIComponent(INTENT)}`, null)).body).toEqual(
      refusal('invalid_input'),
    )
  })

  it('400 invalid_input for an intent missing, empty, blank, not a string or over 2000 characters', async () => {
    for (const body of [
      {},
      { intent: '' },
      { intent: '   ' },
      { intent: 42 },
      { intent: 'a'.repeat(2001) },
    ]) {
      const answer = await post('/v1/tools/search', body, freshKey())
      expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(400)
      expect(answer.body).toEqual(refusal('invalid_input'))
    }
    expect((await get('domain=127.0.0.1', freshKey())).body).toEqual(refusal('invalid_input'))
    const longest = await post('/v1/tools/search', { intent: 'a'.repeat(2000) }, freshKey())
    expect(longest.status).toBe(200)
  })

  it('400 invalid_input for a domain that is not a bare host', async () => {
    for (const domain of ['https://example.com', 'example.com/path', 'exa mple.com', '', 7]) {
      const answer = await post('/v1/tools/search', { intent: INTENT, domain }, freshKey())
      expect(answer.status, String(domain)).toBe(400)
      expect(answer.body).toEqual(refusal('invalid_input'))
    }
  })

  it('422 unknown_argument for a field the search does not take, listing the valid ones', async () => {
    const answer = await post('/v1/tools/search', { intent: INTENT, limit: 3 }, freshKey())
    expect(answer.status).toBe(422)
    expect(answer.body).toEqual(refusal('unknown_argument', { valid: ['intent', 'domain'] }))
    const query = await get(`intent=x&limit=3`, freshKey())
    expect(query.status).toBe(422)
  })

  it('400 bad_request for a body that is not a JSON object', async () => {
    const raw = await send(h.base, 'POST', '/v1/tools/search', {
      key: h.key,
      raw: '{"intent":',
      headers: { 'content-type': 'application/json', 'idempotency-key': freshKey() },
    })
    expect(raw).toMatchObject({ status: 400, body: refusal('bad_request') })
    const array = await post('/v1/tool-router', [INTENT], freshKey())
    expect(array).toMatchObject({ status: 400, body: refusal('bad_request') })
  })

  it('403 forbidden for a token whose scopes lack tools:read', async () => {
    // Two OAuth access tokens of the same workspace, approved through the consent page: one
    // granted only tools:execute, the other tools:read.
    const narrow = (await signIn(h, 'tools:execute')).tokens.access_token
    const wide = (await signIn(h, 'tools:read')).tokens.access_token
    const ask = (token: string) =>
      send(h.base, 'POST', '/v1/tools/search', {
        key: token,
        json: { intent: INTENT },
        headers: { 'idempotency-key': freshKey() },
      })
    expect(await ask(narrow)).toMatchObject({
      status: 403,
      body: refusal('forbidden', { scope: 'tools:read' }),
    })
    expect((await ask(wide)).status).toBe(200)
  })

  it('402 quota_exceeded once the balance is spent, while a replay stays free', async () => {
    const key = freshKey()
    const first = await post('/v1/tools/search', { intent: INTENT }, key)
    const usage = h.core.store.ledger.usage(LOCAL_TENANT, Date.now())
    h.core.store.ledger.charge(LOCAL_TENANT, 'test:drain', usage.balance, 'test', Date.now())
    const refused = await post('/v1/tools/search', { intent: INTENT }, freshKey())
    expect(refused).toMatchObject({ status: 402, body: refusal('quota_exceeded') })
    const replay = await post('/v1/tools/search', { intent: INTENT }, key)
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual(first.body)
    h.core.store.ledger.purchase(LOCAL_TENANT, 'test:refill', 1000, Date.now())
  })
})
