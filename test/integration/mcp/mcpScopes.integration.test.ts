import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { connectHttp } from './mcpClients'
import { signIn, startAuthHarness, type AuthHarness } from '../api/oauth/oauthHarness'

let h: AuthHarness
let tool: ToolSpec
const clients: Client[] = []

beforeEach(async () => {
  h = await startAuthHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await h.close()
})

/** The official SDK client over /mcp with an OAuth access token granting `scope`. */
async function connectWith(scope: string): Promise<Client> {
  const { tokens } = await signIn(h, scope)
  const client = await connectHttp(h.base, { key: tokens.access_token })
  clients.push(client)
  return client
}

async function refusal(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(McpError)
  return error as McpError
}

const INDEX_TOOLS = ['service_index', 'service_browse_open', 'snapshot', 'act', 'finish', 'close']

describe('MCP tool calls check the OAuth scope (issue 13 item 1)', () => {
  it('a tools:read token lists no tool it may not call and is refused every call', async () => {
    const client = await connectWith('tools:read')
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([])

    const calls: Array<[string, Record<string, unknown>]> = [
      [tool.name, { [Object.keys(tool.inputs.properties)[0]!]: 'writing' }],
      ['service_run', { intent: 'search the directory', inputs: {} }],
      ['service_resume', { runId: 'run_x', stateRevision: 1, answers: [] }],
      ['service_inspect', { runId: 'run_x' }],
      ['service_compose', { app: h.site.host, tool: tool.name }],
      ['service_index', { url: h.site.url, intent: 'search' }],
      ['service_browse_open', { url: h.site.url }],
      ['snapshot', { sessionId: 'brs_x' }],
    ]
    for (const [name, args] of calls) {
      const error = await refusal(client.callTool({ name, arguments: args }))
      expect(error.code, name).toBe(-32003)
      expect((error.data as { code: string }).code, name).toBe('forbidden')
    }
    // Nothing ran: the site tool's call never reached the engine.
    expect(h.core.store.runs.list({ toolId: tool.id }).length).toBe(0)
  })

  it('tools:execute lists and calls site tools and runs, not indexing or browsing', async () => {
    const client = await connectWith('tools:read tools:execute')
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining([
        tool.name,
        'service_run',
        'service_compose',
        'service_resume',
        'service_inspect',
      ]),
    )
    for (const name of INDEX_TOOLS) expect(names).not.toContain(name)
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const result = await client.callTool({ name: tool.name, arguments: { [query]: 'writing' } })
    expect(result.isError).toBeFalsy()
    const error = await refusal(
      client.callTool({ name: 'service_browse_open', arguments: { url: h.site.url } }),
    )
    expect((error.data as { code: string; details?: unknown }).code).toBe('forbidden')
  })

  it('tools:index lists the index and browse tools only', async () => {
    const client = await connectWith('tools:read tools:index')
    const names = (await client.listTools()).tools.map((t) => t.name).sort()
    expect(names).toEqual([...INDEX_TOOLS].sort())
  })
})
