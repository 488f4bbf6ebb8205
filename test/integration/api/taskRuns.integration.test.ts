import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { searchRecords } from '../../fixtures/sites/directory'
import { gate, startHarness, type Harness } from '../../fixtures/harness/harness'
import { pollRun, send, type Answer } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

type TaskRun = Run & {
  routing?: { status: string; toolId: string | null; name: string | null; score: number | null }
  result?: { data?: unknown[]; count?: number; next?: { tool: string; endpoint: string } }
}

let h: Harness
let tool: ToolSpec

const TASK = 'search the AI tools directory for writing tools'

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

function runTask(
  body: unknown,
  headers: Record<string, string> = {},
  key: string | null = h.key,
): Promise<Answer<TaskRun>> {
  return send<TaskRun>(h.base, 'POST', '/api/v1/runs', {
    ...(key !== null ? { key } : {}),
    json: body,
    headers,
  })
}

const expected = (query: string) =>
  searchRecords(h.site.records, { query, verified: false, page: 1, perPage: 12 })

describe('POST /api/v1/runs: routed runs', () => {
  it('routes a task to the verified directory search and answers 200 succeeded with its records', async () => {
    const answer = await runTask({ intent: TASK, inputs: { query: 'writing' } })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'succeeded',
      toolId: tool.id,
      error: null,
      routing: { status: 'matched', toolId: tool.id, name: tool.name },
    })
    expect(answer.body.routing!.score).toBeGreaterThanOrEqual(0.9)
    const want = expected('writing')
    expect(want.count).toBeGreaterThan(0)
    expect(answer.body.result).toEqual(want)
  })

  it('takes slot inputs as strings, converted by their declared types, and keeps select', async () => {
    const answer = await runTask({
      intent: TASK,
      inputs: { p0: 'writing', p3: '2' },
      select: ['count'],
    })
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('succeeded')
    expect(answer.body.result).toEqual({ count: expected('writing').count })
  })

  it('answers 202 input_required when a required input is missing', async () => {
    const answer = await runTask({ intent: TASK })
    expect(answer.status).toBe(202)
    expect(answer.body.status).toBe('input_required')
    expect(answer.body.requirements[0]).toMatchObject({ kind: 'value' })
  })

  it('persists a failed no_capability run naming the index tool when no tool fits', async () => {
    const answer = await runTask({ intent: 'order a pizza with extra cheese' })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'failed',
      error: { code: 'no_capability', message: expect.any(String) },
      result: { next: { tool: 'service_index', endpoint: '/api/v1/index' } },
      routing: { status: 'needs_observation', toolId: null },
    })
    expect(answer.body.runId).toMatch(/^lrun_/)
    const polled = await pollRun(h.base, h.key, answer.body.runId)
    expect(polled.status).toBe(200)
    expect(polled.body).toMatchObject({
      runId: answer.body.runId,
      status: 'failed',
      error: { code: 'no_capability' },
      result: { next: { tool: 'service_index' } },
    })
  })

  it('does not route a write to the read-only search (no_capability), nor outside the domain', async () => {
    const write = await runTask({ intent: 'create a new AI tool in the directory' })
    expect(write.body.error?.code).toBe('no_capability')
    const elsewhere = await runTask({
      intent: TASK,
      inputs: { query: 'writing' },
      domain: 'directory.example',
    })
    expect(elsewhere.body.error?.code).toBe('no_capability')
  })

  it('joins the same run for a repeated Idempotency-Key and refuses it with another task', async () => {
    const headers = { 'idempotency-key': 'task-key-0001' }
    const first = await runTask({ intent: TASK, inputs: { query: 'image' } }, headers)
    const again = await runTask({ intent: TASK, inputs: { query: 'image' } }, headers)
    expect(again.status).toBe(200)
    expect(again.body.runId).toBe(first.body.runId)
    const other = await runTask({ intent: TASK, inputs: { query: 'video' } }, headers)
    expect(other).toMatchObject({ status: 409, body: refusal('idempotency_conflict') })
    const none = { 'idempotency-key': 'task-key-0002' }
    const failed = await runTask({ intent: 'order a pizza' }, none)
    expect((await runTask({ intent: 'order a pizza' }, none)).body.runId).toBe(failed.body.runId)
  })

  it('answers 504 run_timeout past the deadline while the run goes on, then the poll has it', async () => {
    const held = gate()
    h.setApiHook(() => held.promise)
    try {
      const answer = await runTask(
        { intent: TASK, inputs: { query: 'writing' } },
        { 'x-service-deadline-ms': '5000' },
      )
      expect(answer.status).toBe(504)
      expect(answer.body).toEqual(
        refusal('run_timeout', {
          runId: expect.stringMatching(/^lrun_/),
          deadlineMs: 5000,
          poll: expect.stringMatching(/^\/api\/v1\/runs\/lrun_/),
        }),
      )
      held.open()
      const runId = (answer.body as unknown as { error: { runId: string } }).error.runId
      const polled = await pollRun(h.base, h.key, runId)
      expect(polled.body.status).toBe('succeeded')
    } finally {
      held.open()
      h.setApiHook(null)
    }
  })
})

describe('POST /api/v1/runs: refusals', () => {
  it('401 unauthorized without a key', async () => {
    expect(await runTask({ intent: TASK }, {}, null)).toMatchObject({
      status: 401,
      body: refusal('unauthorized'),
    })
  })

  it('400 bad_request for a body that is not a JSON object', async () => {
    const raw = await send(h.base, 'POST', '/api/v1/runs', {
      key: h.key,
      raw: 'not json',
      headers: { 'content-type': 'application/json' },
    })
    expect(raw).toMatchObject({ status: 400, body: refusal('bad_request') })
    expect(await runTask([TASK])).toMatchObject({ status: 400, body: refusal('bad_request') })
  })

  it('400 invalid_input for a bad intent, deadline, select or Idempotency-Key', async () => {
    for (const body of [
      {},
      { intent: '' },
      { intent: 'x'.repeat(2001) },
      { intent: TASK, deadlineMs: 100 },
      { intent: TASK, select: 'count' },
      { intent: TASK, inputs: 'writing' },
    ]) {
      const answer = await runTask(body)
      expect(answer.status, JSON.stringify(body).slice(0, 50)).toBe(400)
      expect(answer.body).toEqual(refusal('invalid_input'))
    }
    expect(await runTask({ intent: TASK }, { 'idempotency-key': 'k'.repeat(201) })).toMatchObject({
      status: 400,
      body: refusal('invalid_input'),
    })
    expect(await runTask({ intent: TASK }, { 'x-service-deadline-ms': '999999' })).toMatchObject({
      status: 400,
      body: refusal('invalid_input'),
    })
  })

  it('422 unknown_argument for a body field or an input the routed tool does not take', async () => {
    const field = await runTask({ intent: TASK, query: 'writing' })
    expect(field.status).toBe(422)
    expect(field.body).toEqual(
      refusal('unknown_argument', {
        valid: ['intent', 'inputs', 'domain', 'select', 'deadlineMs', 'allow_mutation'],
      }),
    )
    const input = await runTask({ intent: TASK, inputs: { colour: 'red' } })
    expect(input.status).toBe(422)
    expect(input.body).toMatchObject(refusal('unknown_argument'))
  })

  it('402 quota_exceeded before a routed run when the balance is spent; no_capability stays free', async () => {
    const usage = h.core.store.ledger.usage(LOCAL_TENANT, Date.now())
    h.core.store.ledger.charge(LOCAL_TENANT, 'test:drain', usage.balance, 'test', Date.now())
    try {
      const refused = await runTask({ intent: TASK, inputs: { query: 'writing' } })
      expect(refused).toMatchObject({ status: 402, body: refusal('quota_exceeded') })
      const none = await runTask({ intent: 'order a pizza' })
      expect(none.body.error?.code).toBe('no_capability')
    } finally {
      h.core.store.ledger.purchase(LOCAL_TENANT, 'test:refill', 1000, Date.now())
    }
  })
})
