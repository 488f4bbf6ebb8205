import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Run } from '../../../src/shared/run'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { addNoteTool, connectHttp, startNotesSite, type NotesSite } from './mcpClients'

let h: Harness
let notes: NotesSite
let client: Client

beforeEach(async () => {
  h = await startHarness()
  notes = await startNotesSite()
  client = await connectHttp(h.base, { key: h.key })
})

afterEach(async () => {
  await client.close()
  await notes.close()
  await h.close()
})

const runOf = (result: unknown) => (result as CallToolResult).structuredContent as unknown as Run

describe('MCP: a mutating tool waits for approval and service_resume continues it', () => {
  it('lists the write as destructive, asks an approval, and sends it only once approved', async () => {
    const tool = addNoteTool(notes)
    h.core.store.tools.save(tool)
    const listed = (await client.listTools()).tools.find((t) => t.name === tool.name)
    expect(listed?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })

    const waiting = runOf(await client.callTool({ name: tool.name, arguments: { text: 'hi' } }))
    expect(waiting.status).toBe('input_required')
    const approval = waiting.requirements.find((r) => r.kind === 'approval')
    expect(approval).toBeDefined()
    expect(notes.posts).toEqual([])

    const stale = await client
      .callTool({
        name: 'service_resume',
        arguments: {
          runId: waiting.runId,
          stateRevision: waiting.stateRevision + 5,
          answers: [{ requirementId: approval!.id, approve: true }],
        },
      })
      .catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(McpError)
    expect((stale as McpError).data).toMatchObject({ code: 'stale_revision' })

    const resumed = await client.callTool({
      name: 'service_resume',
      arguments: {
        runId: waiting.runId,
        stateRevision: waiting.stateRevision,
        answers: [{ requirementId: approval!.id, approve: true }],
      },
    })
    expect(resumed.isError).toBeFalsy()
    expect(runOf(resumed)).toMatchObject({
      runId: waiting.runId,
      status: 'succeeded',
      result: { note: { id: 'note_1', text: 'hi' } },
    })
    expect(notes.posts).toEqual([{ text: 'hi' }])

    const inspected = await client.callTool({
      name: 'service_inspect',
      arguments: { runId: waiting.runId },
    })
    expect(runOf(inspected)).toMatchObject({ runId: waiting.runId, status: 'succeeded' })
    const missing = await client
      .callTool({ name: 'service_inspect', arguments: { runId: 'lrun_nope' } })
      .catch((e: unknown) => e)
    expect((missing as McpError).code).toBe(-32004)
    expect((missing as McpError).data).toMatchObject({ code: 'not_found' })
  })

  it('answers a declined approval as a failed run with isError, nothing sent', async () => {
    const tool = addNoteTool(notes)
    h.core.store.tools.save(tool)
    const waiting = runOf(await client.callTool({ name: tool.name, arguments: { text: 'no' } }))
    const approval = waiting.requirements.find((r) => r.kind === 'approval')!
    const declined = await client.callTool({
      name: 'service_resume',
      arguments: {
        runId: waiting.runId,
        stateRevision: waiting.stateRevision,
        answers: [{ requirementId: approval.id, approve: false }],
      },
    })
    expect(declined.isError).toBe(true)
    expect(runOf(declined)).toMatchObject({ status: 'failed', error: { code: 'declined' } })
    expect(notes.posts).toEqual([])
  })
})
