import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { searchRecords } from '../../fixtures/sites/directory'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { browseFlow, connectHttp, structured } from './mcpClients'

let h: Harness
let client: Client

beforeEach(async () => {
  h = await startHarness()
  client = await connectHttp(h.base, { key: h.key })
})

afterEach(async () => {
  await client.close()
  await h.close()
})

describe('MCP browse sessions over Streamable HTTP (real Chromium)', () => {
  it('browses the directory, finishes with a candidate, verifies it and calls the new tool', async () => {
    const flow = await browseFlow(client, h.site.url)
    expect(flow.candidate.status).toBe('candidate')
    expect(flow.verifyRun).toMatchObject({ status: 'succeeded', toolId: flow.candidate.id })
    expect(h.core.store.tools.get(flow.candidate.id)?.status).toBe('verified')
    expect(flow.listedName).toBe(flow.candidate.name)
    expect(flow.call.status).toBe('succeeded')
    const expected = searchRecords(h.site.records, { query: 'code', page: 1, perPage: 12 })
    expect((flow.call.result as { data: Array<{ _id: string }> }).data.map((r) => r._id)).toEqual(
      expected.data.map((r) => r._id),
    )
  })

  it('answers a finished session as session_expired (410 → -32000)', async () => {
    const { sessionId } = structured<{ sessionId: string }>(
      await client.callTool({ name: 'service_browse_open', arguments: { url: `${h.site.url}/` } }),
    )
    await client.callTool({ name: 'close', arguments: { sessionId } })
    const error = await client
      .callTool({ name: 'snapshot', arguments: { sessionId } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(McpError)
    expect((error as McpError).code).toBe(-32000)
    expect((error as McpError).data).toMatchObject({ code: 'session_expired' })
  })
})
