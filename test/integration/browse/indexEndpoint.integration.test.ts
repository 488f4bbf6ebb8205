import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { saveTestLogin } from '../logins/loginHelpers'
import { signInToOrdersDemo, startIndexCore, type IndexCore } from './indexHarness'

interface Match {
  id: string
  name: string
  status: string
  endpoint: string
  inputs: { properties: Record<string, { type: string; default?: unknown }>; required: string[] }
}

interface IndexReceipt {
  status: 'completed' | 'uncertain'
  cost: number
  result: {
    status: 'candidate' | 'unavailable'
    tools: unknown[]
    index_endpoint: string
    candidate?: Match
    reason?: string
    routing: {
      traceId: string
      status: string
      candidate?: Match
      reason?: string
      signIn?: { url: string }
      explanation?: unknown
      observed: { filled: { value: string; field: string | null } | null; usedSavedLogin: boolean }
    }
  }
}

interface Usage {
  charged: number
  balance: number
}

let app: IndexCore
let site: DirectorySite

beforeAll(async () => {
  app = await startIndexCore()
  site = await startDirectorySite()
})

afterAll(async () => {
  await site.close()
  await app.close()
})

const index = (key: string, json: unknown) =>
  send<IndexReceipt>(app.base, 'POST', '/v1/index', {
    key: app.key,
    headers: { 'idempotency-key': key },
    json,
  })

/** Every declared slot with a value: its default, else a word that fits its type. */
function allInputs(match: Match, values: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [slot, schema] of Object.entries(match.inputs.properties))
    out[slot] =
      values[slot] ??
      (schema.default !== undefined
        ? String(schema.default)
        : schema.type === 'integer' || schema.type === 'number'
          ? '1'
          : schema.type === 'boolean'
            ? 'false'
            : 'code')
  return out
}

describe('POST /v1/index on the directory site', () => {
  const intent = 'search the AI tools directory for writing'

  it('types the named value into the one search box, compiles a candidate that executes, and replays for one credit', async () => {
    const before = (await send<Usage>(app.base, 'GET', '/v1/usage', { key: app.key })).body
    const first = await index('index-dir-0001', { url: `${site.url}/`, intent })
    expect(first.status).toBe(200)
    const why = JSON.stringify({
      ...first.body.result,
      routing: undefined,
      observed: first.body.result.routing?.observed,
    })
    expect(first.body, why).toMatchObject({
      status: 'completed',
      cost: 1,
      result: { status: 'candidate', tools: [], index_endpoint: '/v1/index' },
    })
    const { routing } = first.body.result
    expect(routing.traceId).toMatch(/^trc_[0-9A-Z]{26}$/)
    expect(routing.observed.filled).toEqual({ value: 'writing', field: 'query' })
    const candidate = routing.candidate!
    expect(candidate.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(candidate.endpoint).toBe(`/v1/tools/${candidate.id}/execute`)
    expect(first.body.result.candidate?.id).toBe(candidate.id)
    const saved = app.core.store.tools.get(candidate.id)!
    expect(saved.status).toBe('candidate')
    expect(new URL(saved.steps.at(-1)!.request.url.replace(/\{\{[^}]+\}\}/g, 'x')).pathname).toBe(
      '/api/search',
    )
    // The trace is kept and holds the heuristic's fill as a person's action.
    const trace = app.core.store.traces.get(routing.traceId)!
    expect(trace.actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'fill', value: 'writing' })]),
    )

    const replay = await index('index-dir-0001', { url: `${site.url}/`, intent })
    expect(replay.status).toBe(200)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toEqual(first.body)
    const after = (await send<Usage>(app.base, 'GET', '/v1/usage', { key: app.key })).body
    expect(after.charged - before.charged).toBe(1)

    const conflict = await index('index-dir-0001', { url: `${site.url}/`, intent: 'list tools' })
    expect(conflict.status).toBe(409)
    expect((conflict.body as unknown as ErrorAnswerBody).error.code).toBe('idempotency_conflict')

    const searchesBefore = site.requests.filter((r) => r.path === '/api/search').length
    const executed = await send<{ run: { status: string; result: { data: unknown[] } } }>(
      app.base,
      'POST',
      `/v1/tools/${candidate.id}/execute`,
      {
        key: app.key,
        headers: { 'idempotency-key': 'exec-dir-0001' },
        json: { intent, inputs: allInputs(candidate, { p0: 'code' }) },
      },
    )
    expect(executed.status).toBe(200)
    expect(executed.body.run.status).toBe('succeeded')
    expect(executed.body.run.result.data.length).toBeGreaterThan(0)
    expect(site.requests.filter((r) => r.path === '/api/search').length).toBe(searchesBefore + 1)
    expect(app.core.store.tools.get(candidate.id)?.status).toBe('verified')
  })

  it('refuses a request without a key, a bad url, an unknown field, and a missing Idempotency-Key', async () => {
    const noKey = await send<ErrorAnswerBody>(app.base, 'POST', '/v1/index', {
      key: app.key,
      json: { url: `${site.url}/`, intent },
    })
    expect(noKey.status).toBe(400)
    expect(noKey.body.error.code).toBe('invalid_input')
    const badUrl = await index('index-bad-0001', { url: 'ftp://example.com/', intent })
    expect(badUrl.status).toBe(400)
    expect((badUrl.body as unknown as ErrorAnswerBody).error.code).toBe('invalid_input')
    const unknown = await index('index-bad-0002', { url: `${site.url}/`, intent, depth: 2 })
    expect(unknown.status).toBe(422)
    expect((unknown.body as unknown as ErrorAnswerBody).error.code).toBe('unknown_argument')
    const anonymous = await send<ErrorAnswerBody>(app.base, 'POST', '/v1/index', {
      headers: { 'idempotency-key': 'index-bad-0003' },
      json: { url: `${site.url}/`, intent },
    })
    expect(anonymous.status).toBe(401)
  })
})

describe('the orders demo flow of spec B rule 3', () => {
  const intent = 'list my orders'

  it('answers unavailable with signIn at the sign-in wall, then with a saved login indexes, executes and finds the tool', async () => {
    const url = `${app.base}/demo/orders/orders`
    const walled = await index('demo-wall-0001', { url, intent, browser: 'remote' })
    expect(walled.status).toBe(200)
    expect(walled.body).toMatchObject({
      status: 'completed',
      cost: 1,
      result: { status: 'unavailable', routing: { reason: 'sign_in_required' } },
    })
    expect(walled.body.result.routing.signIn?.url).toBe(`${app.base}/demo/orders/login`)
    expect(walled.body.result.reason).toMatch(/sign in/)
    expect(walled.body.result.routing.candidate).toBeUndefined()

    // The demo needs a login: the person signs in once in a browser and the login is saved.
    const host = new URL(app.base).host
    await saveTestLogin(app.core, LOCAL_TENANT, host, await signInToOrdersDemo(app.base))

    const indexed = await index('demo-index-0001', { url, intent, browser: 'remote' })
    expect(indexed.status).toBe(200)
    expect(indexed.body.result.status).toBe('candidate')
    expect(indexed.body.result.routing.observed.usedSavedLogin).toBe(true)
    const candidate = indexed.body.result.routing.candidate!
    const tool = app.core.store.tools.get(candidate.id)!
    expect(tool.siteHost).toBe(host)
    expect(tool.steps.at(-1)!.request.url).toContain('/demo/orders/api/orders')

    const executed = await send<{ run: { status: string; result: unknown } }>(
      app.base,
      'POST',
      `/v1/tools/${candidate.id}/execute`,
      {
        key: app.key,
        headers: { 'idempotency-key': 'demo-exec-0001' },
        json: { intent, inputs: allInputs(candidate) },
      },
    )
    expect(executed.status).toBe(200)
    expect(executed.body.run).toMatchObject({ status: 'succeeded' })
    expect(JSON.stringify(executed.body.run.result)).toContain('orders')

    const found = await send<{ result: { status: string; tools: Match[] } }>(
      app.base,
      'POST',
      '/v1/tools/search',
      { key: app.key, headers: { 'idempotency-key': 'demo-search-0001' }, json: { intent } },
    )
    expect(found.status).toBe(200)
    expect(found.body.result.status).toBe('matched')
    expect(found.body.result.tools.map((t) => t.id)).toContain(candidate.id)
  })
})
