import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { startAuthHarness, type AuthHarness } from './oauth/oauthHarness'

let h: AuthHarness
let key: string
let tool: ToolSpec

beforeEach(async () => {
  h = await startAuthHarness()
  key = h.core.store.keys.create({ id: 'key_scopes', tenant: LOCAL_TENANT, label: 't' }, 0).key
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  await h.close()
})

const createScope = (body: unknown, bearer = key) =>
  send<ErrorAnswerBody & Record<string, unknown>>(h.base, 'POST', '/api/v1/scopes', {
    key: bearer,
    json: body,
  })

describe('POST /api/v1/scopes', () => {
  it('creates a scope (201), replaces it by slug (200) and lists it', async () => {
    const created = await createScope({ slug: 'dir-only', apps: [tool.siteHost] })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ slug: 'dir-only', apps: [tool.siteHost], tools: [] })
    expect(created.body.mcp).toBe('/mcp/dir-only')
    const replaced = await createScope({ slug: 'dir-only', tools: [tool.name] })
    expect(replaced.status).toBe(200)
    const list = await send<{ scopes: Array<{ slug: string; tools: string[] }> }>(
      h.base,
      'GET',
      '/api/v1/scopes',
      { key },
    )
    expect(list.body.scopes).toEqual([
      expect.objectContaining({ slug: 'dir-only', tools: [tool.name] }),
    ])
  })

  it.each([
    ['an empty slug', { slug: '', apps: ['a'] }],
    ['a 41-character slug', { slug: 'a'.repeat(41), apps: ['a'] }],
    ['upper case', { slug: 'Dir', apps: ['a'] }],
    ['an underscore', { slug: 'dir_only', apps: ['a'] }],
    ['apps that are not a list of names', { slug: 'x', apps: 'a,b' }],
    ['no app and no tool', { slug: 'x' }],
    [
      '201 apps and tools',
      {
        slug: 'big',
        apps: Array.from({ length: 101 }, (_, i) => `app${i}.example`),
        tools: Array.from({ length: 100 }, (_, i) => `t${i}`),
      },
    ],
  ])('refuses %s with 400 invalid_scope', async (_label, body) => {
    const answer = await createScope(body)
    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('invalid_scope')
  })

  it('takes exactly 200 apps and tools', async () => {
    const answer = await createScope({
      slug: 'full',
      apps: Array.from({ length: 100 }, (_, i) => `app${i}.example`),
      tools: Array.from({ length: 100 }, (_, i) => `t${i}`),
    })
    expect(answer.status).toBe(201)
  })

  it('refuses unknown fields with 422 unknown_argument listing the valid ones', async () => {
    const answer = await createScope({ slug: 'x', apps: ['a'], color: 'red' })
    expect(answer.status).toBe(422)
    expect(answer.body.error.code).toBe('unknown_argument')
    expect(answer.body.error.message).toContain('slug, apps, tools')
  })

  it("refuses a workspace's 21st scope with 400 too_many_scopes, and replacing one still works", async () => {
    for (let i = 0; i < 20; i++)
      expect((await createScope({ slug: `s${i}`, apps: ['a'] })).status).toBe(201)
    const answer = await createScope({ slug: 's20', apps: ['a'] })
    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('too_many_scopes')
    expect((await createScope({ slug: 's3', apps: ['b'] })).status).toBe(200)
  })

  it('keeps scopes per workspace: an end user of an org key starts with none', async () => {
    const org = h.core.store.keys.create(
      { id: 'key_org', tenant: LOCAL_TENANT, label: 'org', kind: 'org' },
      0,
    ).key
    await createScope({ slug: 'mine', apps: [tool.siteHost] })
    const answer = await callTool(
      h.base,
      org,
      tool,
      { query: 'writing' },
      {
        'x-service-end-user': 'alice',
        'x-service-scope': 'mine',
      },
    )
    expect(answer.status).toBe(404)
    expect((answer.body as unknown as ErrorAnswerBody).error.code).toBe('unknown_scope')
  })
})

describe('tool scopes on site tool calls', () => {
  it('answers 404 unknown_scope for a slug the workspace does not have', async () => {
    const answer = await callTool<ErrorAnswerBody>(
      h.base,
      key,
      tool,
      { query: 'writing' },
      {
        'x-service-scope': 'nope',
      },
    )
    expect(answer.status).toBe(404)
    expect(answer.body.error.code).toBe('unknown_scope')
  })

  it('answers 403 not_in_scope for a tool outside the scope (header) and sends nothing', async () => {
    await createScope({ slug: 'elsewhere', apps: ['other.example'] })
    const before = h.site.requests.length
    const answer = await callTool<ErrorAnswerBody>(
      h.base,
      key,
      tool,
      { query: 'writing' },
      {
        'x-service-scope': 'elsewhere',
      },
    )
    expect(answer.status).toBe(403)
    expect(answer.body.error.code).toBe('not_in_scope')
    expect(h.site.requests.length).toBe(before)
  })

  it('answers 403 not_in_scope for ?apps= naming other sites, and 400 invalid_scope for an empty one', async () => {
    const path = `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
    const outside = await send<ErrorAnswerBody>(h.base, 'POST', `${path}?apps=other.example`, {
      key,
      json: { query: 'writing' },
    })
    expect(outside.status).toBe(403)
    expect(outside.body.error.code).toBe('not_in_scope')
    const empty = await send<ErrorAnswerBody>(h.base, 'POST', `${path}?apps=`, {
      key,
      json: { query: 'writing' },
    })
    expect(empty.status).toBe(400)
    expect(empty.body.error.code).toBe('invalid_scope')
  })

  it('runs a tool inside the scope (by ?scope= naming its site, or by tool name)', async () => {
    await createScope({ slug: 'dir', apps: [tool.siteHost] })
    await createScope({ slug: 'by-name', tools: [tool.name] })
    const path = `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
    for (const slug of ['dir', 'by-name']) {
      const answer = await send<{ status: string }>(h.base, 'POST', `${path}?scope=${slug}`, {
        key,
        json: { query: 'writing' },
      })
      expect(answer.status).toBe(200)
      expect(answer.body.status).toBe('succeeded')
    }
  })
})

describe('DELETE /api/v1/scopes/{slug}', () => {
  it('deletes a scope (204): a call naming it answers 404 unknown_scope after', async () => {
    await createScope({ slug: 'dir-only', apps: [tool.siteHost] })
    const deleted = await send(h.base, 'DELETE', '/api/v1/scopes/dir-only', { key })
    expect(deleted.status).toBe(204)
    const again = await send<ErrorAnswerBody>(h.base, 'DELETE', '/api/v1/scopes/dir-only', { key })
    expect(again.status).toBe(404)
    expect(again.body.error.code).toBe('unknown_scope')
    const called = await callTool(
      h.base,
      key,
      tool,
      { query: 'x' },
      { 'x-service-scope': 'dir-only' },
    )
    expect(called.status).toBe(404)
    expect((called.body as ErrorAnswerBody).error.code).toBe('unknown_scope')
  })

  it('deletes only the calling workspace’s scope', async () => {
    await createScope({ slug: 'dir-only', apps: [tool.siteHost] })
    const other = h.core.store.keys.create({ id: 'key_other', tenant: 'ws_other', label: 'o' }, 0)
    const refused = await send<ErrorAnswerBody>(h.base, 'DELETE', '/api/v1/scopes/dir-only', {
      key: other.key,
    })
    expect(refused.status).toBe(404)
    expect(h.core.store.scopes.list(LOCAL_TENANT).map((s) => s.slug)).toEqual(['dir-only'])
  })
})
