import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import { FREE_GRANT_CREDITS } from '../../../src/main/store/ledgerRepository'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate } from '../../fixtures/harness/harness'
import {
  callTool,
  pollRun,
  searchRequests,
  send,
  type ErrorAnswerBody,
} from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { charges, runsOf, startEngineHarness, type EngineHarness } from './engineHarness'

let h: EngineHarness
let tool: ToolSpec
let sentBefore = 0

beforeEach(async () => {
  h = await startEngineHarness()
  ;({ tool } = await makeSearchTool(h.core, h.directory))
  sentBefore = searchRequests(h.directory).length
})

afterEach(async () => {
  await h.close()
})

const sentByRuns = () => searchRequests(h.directory).slice(sentBefore)
const usage = () =>
  send<{ balance: number; freeGrant: number; charged: number; paidRemaining: number }>(
    h.base,
    'GET',
    '/v1/usage',
    { key: h.key },
  )
const execute = (key: string, inputs: Record<string, string>) =>
  send<{ run: Run } & ErrorAnswerBody>(h.base, 'POST', `/v1/tools/${tool.id}/execute`, {
    key: h.key,
    json: { intent: tool.intent, inputs },
    headers: { 'idempotency-key': key },
  })
/** Spends the whole balance with one ledger charge, as a month of calls would. */
const spendEverything = () =>
  h.core.store.ledger.charge(
    LOCAL_TENANT,
    'test:spend-all',
    FREE_GRANT_CREDITS,
    'spent',
    Date.now(),
  )

describe('the billing ledger', () => {
  it('starts with the one-time free grant of 10,000 credits', async () => {
    const answer = await usage()
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ freeGrant: 10_000, balance: 10_000, charged: 0 })
  })

  it('charges a succeeded surface-A run one credit, once, also when its key is repeated', async () => {
    const headers = { 'idempotency-key': 'bill-once' }
    const first = await callTool<Run>(h.base, h.key, tool, { query: 'writing' }, headers)
    const again = await callTool<Run>(h.base, h.key, tool, { query: 'writing' }, headers)
    expect(again.body.runId).toBe(first.body.runId)
    expect(charges(h.core)).toEqual([{ ref: `run:${first.body.runId}`, amount: -1 }])
    expect((await usage()).body).toMatchObject({ balance: 9_999, charged: 1 })
  })

  it('never charges a failed run', async () => {
    h.directory.setFault('server_error')
    const failed = await callTool<Run>(h.base, h.key, tool, { query: 'writing' })
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } })
    expect(charges(h.core)).toEqual([])
    expect((await usage()).body.balance).toBe(10_000)
  })

  it('answers 402 quota_exceeded before anything is sent or persisted when the balance is 0', async () => {
    expect(spendEverything()).toBe(true)
    expect((await usage()).body.balance).toBe(0)
    const answer = await callTool(h.base, h.key, tool, { query: 'writing' })
    expect(answer.status).toBe(402)
    expect(answer.body).toEqual({ error: { code: 'quota_exceeded', message: expect.any(String) } })
    expect(sentByRuns()).toEqual([])
    expect(runsOf(h.core, tool.id)).toEqual([])
    const executed = await execute('exec-broke-1', { p0: 'writing' })
    expect(executed.status).toBe(402)
    expect(executed.body.error.code).toBe('quota_exceeded')
    expect(sentByRuns()).toEqual([])
  })

  // insufficient_paid_credits is for a call that costs more than the paid balance. Every call
  // costs 1 credit (interface.md "Limits": pricing), and credits are whole: any paid credit covers a call,
  // so this code cannot arise today. This shows the boundary on both sides instead.
  it('lets one paid credit pay a call once the free grant is spent, and refuses at none', async () => {
    spendEverything()
    h.core.store.ledger.purchase(LOCAL_TENANT, 'purchase:1', 1, Date.now())
    expect((await usage()).body).toMatchObject({ balance: 1, paidRemaining: 1 })
    const paid = await callTool<Run>(h.base, h.key, tool, { query: 'writing' })
    expect(paid.body.status).toBe('succeeded')
    expect((await usage()).body).toMatchObject({ balance: 0, paidRemaining: 0 })
    const refused = await callTool(h.base, h.key, tool, { query: 'writing' })
    expect(refused.status).toBe(402)
    expect((refused.body as ErrorAnswerBody).error.code).toBe('quota_exceeded')
    expect(sentByRuns()).toHaveLength(1)
  })

  it('charges execute one credit per admitted operation key, also when the run fails', async () => {
    const ok = await execute('exec-ok-0001', { p0: 'writing' })
    expect(ok.body.run.status).toBe('succeeded')
    h.directory.setFault('server_error')
    const failed = await execute('exec-fail-001', { p0: 'writing' })
    expect(failed.status).toBe(200)
    expect(failed.body.run).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } })
    await execute('exec-fail-001', { p0: 'writing' })
    expect(charges(h.core)).toEqual([
      { ref: 'execute:exec-ok-0001', amount: -1 },
      { ref: 'execute:exec-fail-001', amount: -1 },
    ])
  })

  it('bills a success that comes after the 504 run_timeout once', async () => {
    const held = gate()
    h.setApiHook(() => held.promise)
    const late = await callTool<ErrorAnswerBody>(
      h.base,
      h.key,
      tool,
      { query: 'writing' },
      { 'x-service-deadline-ms': '5000', 'idempotency-key': 'late-1' },
    )
    expect(late.status).toBe(504)
    const runId = late.body.error.runId as string
    expect(late.body).toEqual({
      error: {
        code: 'run_timeout',
        message: expect.any(String),
        runId,
        deadlineMs: 5000,
        poll: `/api/v1/runs/${runId}`,
      },
    })
    expect(charges(h.core)).toEqual([])
    held.open()
    const final = await pollRun(h.base, h.key, runId)
    expect(final.body.status).toBe('succeeded')
    const repeat = await callTool<Run>(
      h.base,
      h.key,
      tool,
      { query: 'writing' },
      { 'idempotency-key': 'late-1' },
    )
    expect(repeat.body).toMatchObject({ runId, status: 'succeeded' })
    expect(charges(h.core)).toEqual([{ ref: `run:${runId}`, amount: -1 }])
    expect(sentByRuns()).toHaveLength(1)
  }, 20_000)
})

describe('serialization', () => {
  /** Holds every directory /api request until the test releases it; counts those held at once. */
  function holdEach() {
    const held: Array<{ query: string; open: () => void }> = []
    let inside = 0
    let most = 0
    h.setApiHook(async (req) => {
      const waiting = gate()
      inside++
      most = Math.max(most, inside)
      held.push({ query: (JSON.parse(req.body) as { query: string }).query, open: waiting.open })
      await waiting.promise
      inside--
    })
    return { held, most: () => most }
  }
  const until = async (done: () => boolean) => {
    while (!done()) await delay(20)
  }

  it('runs executions of one workspace one at a time, in arrival order', async () => {
    const site = holdEach()
    const calls = ['alpha', 'beta', 'gamma'].map((q, i) => execute(`serial-op-${i}`, { p0: q }))
    await until(() => runsOf(h.core, tool.id).length === 3)
    // Runs are listed newest first: their creation order is the order the calls arrived in.
    const arrival = runsOf(h.core, tool.id)
      .reverse()
      .map((r) => r.inputs.query)
    for (let i = 0; i < 3; i++) {
      await until(() => site.held.length > i)
      expect(site.held.length).toBe(i + 1)
      site.held[i]!.open()
    }
    const answers = await Promise.all(calls)
    expect(answers.map((a) => a.body.run.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    expect(site.held.map((r) => r.query)).toEqual(arrival)
    expect(site.most()).toBe(1)
  })

  it('runs site tool calls in parallel', async () => {
    const site = holdEach()
    const calls = ['alpha', 'beta', 'gamma'].map((q) =>
      callTool<Run>(h.base, h.key, tool, { query: q }),
    )
    // All three reach the site while none has been answered.
    await until(() => site.held.length === 3)
    expect(site.most()).toBe(3)
    for (const r of site.held) r.open()
    const answers = await Promise.all(calls)
    expect(answers.map((a) => a.body.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
  })
})
