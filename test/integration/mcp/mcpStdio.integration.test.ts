import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createCore, LOCAL_TENANT } from '../../../src/main/core'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import {
  searchRecords,
  startDirectorySite,
  type DirectorySite,
} from '../../fixtures/sites/directory'
import { callTool, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { addNoteTool, browseFlow, startNotesSite, structured } from './mcpClients'

let home: string
let site: DirectorySite
let tool: ToolSpec
let client: Client | null = null

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-mcp-stdio-'))
  site = await startDirectorySite()
  // The tool is saved by one core, then served by another process on the same data dir.
  const core = createCore({ home, rendererDir: null })
  ;({ tool } = await makeSearchTool(core, site))
  await core.close()
})

afterEach(async () => {
  await client?.close()
  client = null
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

/** `node bin/sitecall.mjs mcp` as a desktop MCP client starts it, on the temp data dir. */
async function connectStdio(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/sitecall.mjs', 'mcp', ...args],
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), SITECALL_HOME: home },
    stderr: 'pipe',
  })
  client = new Client({ name: 'sitecall-stdio-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/**
 * Resolves once no live process holds the data dir's lock: the SDK's close() ends stdin, then
 * signals, and returns without waiting for the exit once it sent SIGKILL (a loaded machine).
 */
async function lockReleased(): Promise<void> {
  for (;;) {
    let pid: number
    try {
      pid = (JSON.parse(readFileSync(join(home, 'sitecall.lock'), 'utf8')) as { pid: number }).pid
    } catch {
      return
    }
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('sitecall mcp (stdio bridge)', () => {
  it('lists the data dir’s verified tools and calls one to a succeeded run', async () => {
    const mcp = await connectStdio()
    const { tools } = await mcp.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([tool.name, 'service_run']))
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const result = (await mcp.callTool({
      name: tool.name,
      arguments: { [query]: 'writing' },
    })) as CallToolResult
    expect(result.isError).toBeFalsy()
    const run = result.structuredContent as unknown as Run
    expect(run.status).toBe('succeeded')
    const expected = searchRecords(site.records, { query: 'writing', page: 1, perPage: 12 })
    expect((run.result as { data: Array<{ _id: string }> }).data.map((r) => r._id)).toEqual(
      expected.data.map((r) => r._id),
    )
  })

  it('browses, verifies and calls a new tool, and resumes an approval, over stdio', async () => {
    const notes = await startNotesSite()
    try {
      const seed = createCore({ home, rendererDir: null })
      const write = addNoteTool(notes)
      seed.store.tools.save(write)
      await seed.close()
      const mcp = await connectStdio()
      const flow = await browseFlow(mcp, site.url)
      expect(flow.verifyRun.status).toBe('succeeded')
      expect(flow.listedName).toBe(flow.candidate.name)
      expect(flow.call.status).toBe('succeeded')

      const waiting = structured<Run>(
        await mcp.callTool({ name: write.name, arguments: { text: 'via stdio' } }),
      )
      expect(waiting.status).toBe('input_required')
      const approval = waiting.requirements.find((r) => r.kind === 'approval')!
      const resumed = structured<Run>(
        await mcp.callTool({
          name: 'service_resume',
          arguments: {
            runId: waiting.runId,
            stateRevision: waiting.stateRevision,
            answers: [{ requirementId: approval.id, approve: true }],
          },
        }),
      )
      expect(resumed.status).toBe('succeeded')
      expect(notes.posts).toEqual([{ text: 'via stdio' }])
    } finally {
      await notes.close()
    }
  })

  it('refuses a quarantined tool and a candidate in the same words as REST surface A', async () => {
    const seed = createCore({ home, rendererDir: null })
    const candidate: ToolSpec = {
      ...tool,
      id: randomUUID(),
      name: `${tool.name}_2`,
      capabilityId: `${tool.capabilityId}_2`,
      status: 'candidate',
    }
    seed.store.tools.save(candidate)
    seed.store.tools.setStatus(tool.id, 'quarantined', Date.now())
    await seed.close()
    const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
    const args = { [query]: 'code' }
    const mcp = await connectStdio()
    const overStdio = async (name: string, callArgs: Record<string, unknown>) => {
      const error = (await mcp
        .callTool({ name, arguments: callArgs })
        .catch((e: unknown) => e)) as McpError
      expect(error).toBeInstanceOf(McpError)
      return {
        code: (error.data as { code?: unknown }).code,
        message: error.message.replace(/^MCP error -?\d+: /, ''),
      }
    }
    const stdio = {
      quarantined: await overStdio(tool.name, args),
      pinned: await overStdio('service_run', {
        intent: tool.intent,
        capabilityId: tool.capabilityId,
        inputs: args,
      }),
      candidate: await overStdio(candidate.name, args),
    }
    await mcp.close()
    client = null
    await lockReleased()
    // The same calls over REST, on a core of the same data dir once the bridge has ended.
    const rest = createCore({ home, port: 0, rendererDir: null })
    try {
      const base = await rest.listen()
      const { key } = rest.store.keys.create(
        { id: 'key_stdio_rest', tenant: LOCAL_TENANT, label: 'rest' },
        Date.now(),
      )
      const overRest = async (t: ToolSpec) => {
        const answer = await callTool<ErrorAnswerBody>(base, key, t, args)
        return { code: answer.body.error.code, message: answer.body.error.message }
      }
      const quarantined = await overRest(tool)
      expect(quarantined.code).toBe('tool_quarantined')
      expect(stdio.quarantined).toEqual(quarantined)
      expect(stdio.pinned).toEqual(quarantined)
      const refusedCandidate = await overRest(candidate)
      expect(refusedCandidate.code).toBe('not_found')
      expect(stdio.candidate).toEqual(refusedCandidate)
    } finally {
      await rest.close()
    }
  })

  it('serves only the listed apps with --apps', async () => {
    const mcp = await connectStdio(['--apps', 'example.com'])
    const { tools } = await mcp.listTools()
    expect(tools.map((t) => t.name)).not.toContain(tool.name)
    expect(tools.map((t) => t.name)).toContain('service_inspect')
  })
})
