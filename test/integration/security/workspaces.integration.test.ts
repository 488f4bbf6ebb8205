import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../helpers/harness'
import { makeSearchTool } from '../helpers/searchTool'
import { connectHttp } from '../mcp/mcpClients'

let h: Harness
let tool: ToolSpec
let traceId: string
let foreignKeys: Array<{ key: string; endUser: string | null }>

beforeEach(async () => {
  h = await startHarness()
  ;({
    tool,
    trace: { id: traceId },
  } = await makeSearchTool(h.core, h.site))
  const mint = (id: string, kind: 'personal' | 'org') =>
    h.core.store.keys.create({ id, tenant: 'acme', label: id, kind }, Date.now()).key
  foreignKeys = [
    { key: mint('key_acme', 'personal'), endUser: null },
    { key: mint('key_acme_org', 'org'), endUser: 'customer-7' },
  ]
})

afterEach(async () => {
  await h.close()
})

/** Every catalogued route of the OpenAPI document, with path parameters filled from the owner's data. */
async function routes(): Promise<Array<{ method: string; path: string }>> {
  const doc = (await (await fetch(`${h.base}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>
  }
  const fill: Record<string, string> = {
    site_host: tool.siteHost,
    siteHost: tool.siteHost,
    site: tool.siteHost,
    tool: tool.name,
    toolId: tool.id,
    id: tool.id,
    traceId,
    name: 'SHOP_PASSWORD',
  }
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      path: path.replace(/\{([^}]+)\}/g, (_m, p: string) => encodeURIComponent(fill[p] ?? 'x')),
    })),
  )
}

/** Bodies that would use the owner's data if the route let them through. */
const bodies = (): Record<string, unknown> => ({
  '/v1/tools/search': { intent: 'search the AI tools directory by keyword' },
  '/v1/tool-router': { intent: 'search the AI tools directory by keyword' },
  '/api/v1/runs': { intent: 'search the AI tools directory by keyword', inputs: {} },
  '/v1/tools/prepare': { traceId },
  '/mcp': {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
  },
})

describe('workspaces (issue 13 item 2)', () => {
  it('a key of another workspace finds nothing of the owner on any route', async () => {
    const owned = [tool.id, tool.name, traceId]
    let walked = 0
    const leaks: string[] = []
    for (const { method, path } of await routes()) {
      // Public, workspace-free documents: OAuth endpoints, the demo shop, metadata, OpenAPI.
      if (/^\/(oauth|demo|\.well-known|openapi\.json)/.test(path)) continue
      for (const { key, endUser } of foreignKeys) {
        const bare = path.split('?')[0]!
        const body =
          method === 'GET' || method === 'DELETE'
            ? undefined
            : JSON.stringify(bodies()[bare] ?? { query: 'writing', url: h.site.url, intent: 'x' })
        const answer = await fetch(`${h.base}${path}${method === 'GET' ? '?intent=search' : ''}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            accept: 'application/json, text/event-stream',
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(endUser ? { 'x-service-end-user': endUser } : {}),
          },
          ...(body ? { body } : {}),
          signal: AbortSignal.timeout(20_000),
        })
        const text = await answer.text().catch(() => '')
        for (const secret of owned)
          if (text.includes(secret)) leaks.push(`${method} ${path} (${endUser ?? 'no end user'})`)
        expect(answer.status, `${method} ${path}`).not.toBe(500)
        walked++
      }
    }
    expect([...new Set(leaks)]).toEqual([])
    expect(walked).toBeGreaterThan(40)
    // MCP: the official client cannot even connect with such a key.
    const mcp = await connectHttp(h.base, { key: foreignKeys[0]!.key }).then(
      () => 'connected',
      (e: unknown) => String(e),
    )
    expect(mcp).toContain('forbidden')
    // Nothing ran the owner's tool for the other workspace.
    expect(h.core.store.runs.list({ toolId: tool.id })).toEqual([])
  })

  it("the owner's org key still acts for its end users on the owner's tools", async () => {
    const org = h.core.store.keys.create(
      { id: 'key_local_org', tenant: 'local', label: 'org', kind: 'org' },
      Date.now(),
    ).key
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const answer = await fetch(`${h.base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${org}`,
        'content-type': 'application/json',
        'x-service-end-user': 'customer-7',
      },
      body: JSON.stringify({ [query]: 'writing' }),
    })
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { status: string }).status).toBe('succeeded')
  })
})
