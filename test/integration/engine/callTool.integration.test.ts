// Issue 12 "Done when": every surface calls the engine's one call operation, so a refusal reads
// the same on each: surface A, the account API's execute, a task run (`POST /api/v1/runs`), MCP
// (a site tool by name and service_run with a pinned capabilityId, through the official SDK
// client) and the app's handler; for a candidate, a quarantined tool, a browser at capacity and
// a deadline that passed. The stdio bridge's refusals are compared with REST's in
// test/integration/mcp/mcpStdio.integration.test.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createMcpSession } from '../../../src/main/mcp/mcpServer'
import { isServiceError } from '../../../src/shared/errors'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate, startHarness, type Harness } from '../../fixtures/harness/harness'
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

/** A refusal as every surface shows it: the interface's string code and the message. */
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

async function viaMcp(
  name: string,
  args: Record<string, unknown>,
  mcp: Client = client,
): Promise<Refusal> {
  const error = await mcp.callTool({ name, arguments: args }).then(
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

/** A task the router sends to the directory's search tool (it scores at least 0.9). */
const TASK = 'search the AI tools directory for writing tools'

/** A task run (`POST /api/v1/runs`) refusal as `{code, message}`, with its HTTP status. */
async function viaTask(
  base: string,
  key: string,
  inputs: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Refusal & { status: number }> {
  const answer = await send<ErrorAnswerBody>(base, 'POST', '/api/v1/runs', {
    key,
    json: { intent: TASK, inputs },
    headers,
  })
  return { status: answer.status, code: answer.body.error.code, message: answer.body.error.message }
}

/** The SDK client on an MCP server of `core` over an in-memory pair, waiting `deadlineMs` a call. */
async function connectInMemory(core: Core, deadlineMs: number): Promise<Client> {
  const session = createMcpSession(
    {
      tools: core.store.tools,
      engine: core.engine,
      events: core.events,
      browse: core.browse,
      indexing: core.indexing,
      routers: core.routers,
      deadlineMs,
    },
    { tenant: LOCAL_TENANT, owner: false, scopes: [], usageUrl: null },
  )
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await session.server.connect(serverSide)
  const mcp = new Client({ name: 'sitecall-test', version: '1.0.0' })
  await mcp.connect(clientSide)
  return mcp
}

/** Resolves once `check` holds, polling every 20 ms; throws after `ms`. */
async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('Timed out waiting.')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('refusals after the run started read the same on every surface', () => {
  it('run_timeout past a deadline: surface A, a task run, an MCP site tool and service_run', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const inputs = { [queryOf(tool)]: 'code' }
    const held = gate()
    h.setApiHook(() => held.promise)
    const mcp = await connectInMemory(h.core, 5_000)
    const deadline = { 'x-service-deadline-ms': '5000' }
    try {
      const [surfaceA, task, mcpSiteTool, mcpServiceRun] = await Promise.all([
        callTool<ErrorAnswerBody>(h.base, h.key, tool, inputs, deadline),
        viaTask(h.base, h.key, inputs, deadline),
        viaMcp(tool.name, inputs, mcp),
        viaMcp('service_run', { intent: TASK, capabilityId: tool.capabilityId, inputs }, mcp),
      ])
      const expected: Refusal = {
        code: 'run_timeout',
        message: 'The run passed its 5000 ms deadline and goes on: poll it.',
      }
      expect(surfaceA.status).toBe(504)
      expect({ code: surfaceA.body.error.code, message: surfaceA.body.error.message }).toEqual(
        expected,
      )
      expect(task).toEqual({ status: 504, ...expected })
      expect(mcpSiteTool).toEqual(expected)
      expect(mcpServiceRun).toEqual(expected)
    } finally {
      held.open()
      h.setApiHook(null)
      await mcp.close()
    }
    // Each run went on past its deadline and succeeded.
    await h.core.engine.idle()
    const runs = h.core.store.runs.list()
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
  }, 60_000)

  it('browser_capacity when no browser frees up: every surface, the app and execute included', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sitecall-capacity-'))
    // One browser slot, queued for 100 ms at most: the second rendered run is refused.
    const core = createCore({
      home,
      port: 0,
      rendererDir: null,
      keychain: null,
      env: { ...process.env, SITECALL_CHROMIUM: '/usr/bin/chromium' },
      browserCapacity: 1,
      browserWaitMs: 100,
    })
    let mcp: Client | null = null
    const held = gate()
    try {
      const base = await core.listen()
      const { key } = core.store.keys.create(
        { id: 'key_capacity', tenant: LOCAL_TENANT, label: 'capacity' },
        Date.now(),
      )
      core.store.localSites.add(LOCAL_TENANT, '127.0.0.1', Date.now())
      const made = (await makeSearchTool(core, h.site)).tool
      const tool: ToolSpec = { ...made, via: 'rendered' }
      core.store.tools.save(tool)
      const inputs = { [queryOf(tool)]: 'code' }
      let seen = 0
      h.setApiHook(() => {
        seen++
        return held.promise
      })
      // The first run takes the only slot and waits at the site.
      const first = callTool<Run>(base, key, tool, inputs)
      await until(() => seen > 0)
      mcp = await connectHttp(base, { key })
      const surfaceA = await callTool<ErrorAnswerBody>(base, key, tool, inputs)
      const task = await viaTask(base, key, inputs)
      const executed = await send<{ run: Run }>(base, 'POST', `/v1/tools/${tool.id}/execute`, {
        key,
        headers: { 'idempotency-key': 'capacity-execute' },
        json: { inputs: { p0: 'code' } },
      })
      const mcpSiteTool = await viaMcp(tool.name, inputs, mcp)
      const mcpServiceRun = await viaMcp(
        'service_run',
        { intent: TASK, capabilityId: tool.capabilityId, inputs },
        mcp,
      )
      const app = await core.handlers['tools.run']({ id: tool.id, inputs })
      // The wait is in the words ("stayed busy for 0 s"); each refusal is its own run's.
      const words = (r: { code?: unknown; message?: string } | null | undefined) => ({
        code: r?.code,
        message: r?.message?.replace(/for \d+ s:/, 'for N s:'),
      })
      const expected = {
        code: 'browser_capacity',
        message: 'All 1 browser slots stayed busy for N s: retry after 30 s.',
      }
      expect(surfaceA.status).toBe(503)
      expect(surfaceA.headers.get('retry-after')).toBe('30')
      expect(task.status).toBe(503)
      // The account API's execution answers its ended run (spec B), the app its run.
      expect(executed.status).toBe(200)
      expect(executed.body.run.status).toBe('failed')
      expect(app.status).toBe('failed')
      const refusals = {
        surfaceA: words(surfaceA.body.error),
        task: words(task),
        execute: words(executed.body.run.error),
        mcpSiteTool: words(mcpSiteTool),
        mcpServiceRun: words(mcpServiceRun),
        app: words(app.error),
      }
      for (const refusal of Object.values(refusals)) expect(refusal).toEqual(expected)
      held.open()
      const done = await first
      expect(done.body.status).toBe('succeeded')
    } finally {
      held.open()
      h.setApiHook(null)
      await mcp?.close()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    }
  }, 90_000)
})
