// Issue 12 "Done when": every surface calls the engine's one call operation, so a refusal reads
// the same on each: surface A, the account API's execute, MCP (a site tool by name and
// service_run with a pinned capabilityId, through the official SDK client) and the app's handler.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { isServiceError } from '../../../src/shared/errors'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { connectHttp } from '../mcp/mcpClients'

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

/** A refusal as every surface shows it: the spec's string code and the message. */
interface Refusal {
  code: unknown
  message: string
}

const queryOf = (tool: ToolSpec) =>
  Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!

async function viaSurfaceA(tool: ToolSpec): Promise<Refusal> {
  const answer = await callTool<ErrorAnswerBody>(h.base, h.key, tool, { [queryOf(tool)]: 'code' })
  return { code: answer.body.error.code, message: answer.body.error.message }
}

async function viaExecute(tool: ToolSpec): Promise<Refusal> {
  const answer = await send<ErrorAnswerBody>(h.base, 'POST', `/v1/tools/${tool.id}/execute`, {
    key: h.key,
    headers: { 'idempotency-key': `refusal-${tool.id.slice(0, 8)}` },
    json: { inputs: { p0: 'code' } },
  })
  return { code: answer.body.error.code, message: answer.body.error.message }
}

async function viaMcp(name: string, args: Record<string, unknown>): Promise<Refusal> {
  const error = await client.callTool({ name, arguments: args }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(McpError)
  const { data, message } = error as McpError
  // The SDK client prefixes the JSON-RPC message with "MCP error <code>: ".
  return {
    code: (data as { code?: unknown }).code,
    message: message.replace(/^MCP error -?\d+: /, ''),
  }
}

async function viaApp(tool: ToolSpec): Promise<Refusal> {
  const error = await h.core.handlers['tools.run']({
    id: tool.id,
    inputs: { [queryOf(tool)]: 'code' },
  }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(isServiceError(error)).toBe(true)
  const { code, message } = error as { code: unknown; message: string }
  return { code, message }
}

describe('the one call operation', () => {
  it('refuses a quarantined tool with the same code and words on every surface, sending nothing', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    h.core.store.tools.setStatus(tool.id, 'quarantined', Date.now())
    h.site.requests.length = 0
    const refusals = {
      surfaceA: await viaSurfaceA(tool),
      execute: await viaExecute(tool),
      mcpSiteTool: await viaMcp(tool.name, { [queryOf(tool)]: 'code' }),
      mcpServiceRun: await viaMcp('service_run', {
        intent: 'search the directory',
        capabilityId: tool.capabilityId,
        inputs: { [queryOf(tool)]: 'code' },
      }),
      app: await viaApp(tool),
    }
    const expected: Refusal = {
      code: 'tool_quarantined',
      message: `${tool.name} failed its checks 3 times in a row and is rechecked automatically; record the flow again in the app meanwhile.`,
    }
    for (const refusal of Object.values(refusals)) expect(refusal).toEqual(expected)
    expect(h.site.requests).toEqual([])
    expect(h.core.store.runs.list()).toEqual([])
  })

  it('names another verified tool of the site to use meanwhile', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const other: ToolSpec = {
      ...tool,
      id: crypto.randomUUID(),
      name: `${tool.name}_2`,
      capabilityId: `${tool.capabilityId}_2`,
    }
    h.core.store.tools.save(other)
    h.core.store.tools.setStatus(tool.id, 'quarantined', Date.now())
    const words = `${tool.name} failed its checks 3 times in a row and is rechecked automatically; use ${other.name} meanwhile.`
    expect(await viaSurfaceA(tool)).toEqual({ code: 'tool_quarantined', message: words })
    expect(await viaMcp(tool.name, {})).toEqual({ code: 'tool_quarantined', message: words })
  })

  it('refuses an unverified candidate on surface A and MCP alike, and runs it where it may be verified', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const expected: Refusal = {
      code: 'not_found',
      message: `${tool.name} is an unverified candidate: execute it once with POST /v1/tools/${tool.id}/execute.`,
    }
    expect(await viaSurfaceA(tool)).toEqual(expected)
    expect(await viaMcp(tool.name, { [queryOf(tool)]: 'code' })).toEqual(expected)
    expect(h.core.store.runs.list()).toEqual([])
    // The app runs a candidate: its first success verifies it.
    const run = await h.core.handlers['tools.run']({
      id: tool.id,
      inputs: { [queryOf(tool)]: 'code' },
    })
    expect(run.status).toBe('succeeded')
    expect(h.core.store.tools.get(tool.id)!.status).toBe('verified')
  })

  it('answers a settled run, or timed_out with the poll link while the run goes on', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const inputs = { [queryOf(tool)]: 'code' }
    const settled = await h.core.engine.call({
      tool: { siteHost: tool.siteHost, name: tool.name },
      inputs,
      tenant: 'local',
      deadlineMs: 60_000,
    })
    expect(settled).toMatchObject({ kind: 'settled', joined: false, run: { status: 'succeeded' } })
    let release = () => {}
    h.setApiHook(() => new Promise<void>((resolve) => (release = resolve)))
    const late = await h.core.engine.call({
      tool: { id: tool.id },
      inputs,
      tenant: 'local',
      deadlineMs: 50,
    })
    expect(late.kind).toBe('timed_out')
    if (late.kind !== 'timed_out') return
    expect(late.poll).toBe(`/api/v1/runs/${late.runId}`)
    expect(h.core.engine.get(late.runId)!.status).toBe('working')
    release()
    await h.core.engine.idle()
    expect(h.core.engine.get(late.runId)!.status).toBe('succeeded')
  })
})
