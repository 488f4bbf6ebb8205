import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunEffect } from '../../../src/main/store/runRepository'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate } from '../../fixtures/harness/harness'
import { callTool, searchRequests, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import {
  charges,
  orderPosts,
  saveOrderTool,
  startEngineHarness,
  type EngineHarness,
} from './engineHarness'

type RunWithEffects = Run & { effects?: RunEffect[] }

let h: EngineHarness
let search: ToolSpec

beforeEach(async () => {
  h = await startEngineHarness()
  ;({ tool: search } = await makeSearchTool(h.core, h.directory))
})

afterEach(async () => {
  await h.close()
})

const cancel = (runId: string) =>
  send<RunWithEffects>(h.base, 'POST', `/api/v1/runs/${runId}/cancel`, { key: h.key })
const getRun = (runId: string) =>
  send<RunWithEffects>(h.base, 'GET', `/api/v1/runs/${runId}`, { key: h.key })

describe('POST /api/v1/runs/{runId}/cancel', () => {
  it('cancels a run waiting for input; answering it then is a conflict', async () => {
    const order = await saveOrderTool(h.core, h.orders)
    const asked = await callTool<Run>(h.base, h.key, order, {
      item: 'Lamp',
      quantity: 1,
      shipping: 'standard',
    })
    expect(asked.body.status).toBe('input_required')
    const cancelled = await cancel(asked.body.runId)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({
      runId: asked.body.runId,
      status: 'cancelled',
      requirements: [],
      effects: [],
    })
    const answer = await send(h.base, 'POST', `/api/v1/runs/${asked.body.runId}/responses`, {
      key: h.key,
      json: {
        stateRevision: cancelled.body.stateRevision,
        answers: [{ requirementId: asked.body.requirements[0]!.id, approve: true }],
      },
    })
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual({ error: { code: 'conflict', message: expect.any(String) } })
    expect(orderPosts(h.orders)).toEqual([])
  })

  it('cancels a working run against a slow site and keeps the request it sent as an effect', async () => {
    const held = gate()
    h.setApiHook(() => held.promise)
    const before = searchRequests(h.directory).length
    const call = callTool<RunWithEffects>(h.base, h.key, search, { query: 'writing' })
    while (searchRequests(h.directory).length === before) await delay(20)
    const [working] = h.core.store.runs.withStatus(['working'])
    expect(working).toBeDefined()
    const cancelled = await cancel(working!.runId)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe('cancelled')
    // The caller of the cancelled call is told too.
    const answered = await call
    expect(answered.status).toBe(200)
    expect(answered.body).toMatchObject({ runId: working!.runId, status: 'cancelled' })
    held.open()
    await h.core.engine.idle()
    const after = await getRun(working!.runId)
    expect(after.body.status).toBe('cancelled')
    expect(after.body.effects).toEqual([
      {
        method: 'POST',
        url: `${h.directory.url}/api/search`,
        status: null,
        at: expect.any(String),
      },
    ])
    // A cancelled run is never billed.
    expect(charges(h.core)).toEqual([])
  })

  it('cancels an approved write in flight and names both requests it sent, the unanswered write too', async () => {
    const order = await saveOrderTool(h.core, h.orders)
    const asked = await callTool<Run>(h.base, h.key, order, {
      item: 'Desk',
      quantity: 1,
      shipping: 'standard',
    })
    h.orders.switches.delayMs = 1500
    const approving = send(h.base, 'POST', `/api/v1/runs/${asked.body.runId}/responses`, {
      key: h.key,
      json: {
        stateRevision: asked.body.stateRevision,
        answers: [{ requirementId: asked.body.requirements[0]!.id, approve: true }],
      },
    })
    while (orderPosts(h.orders).length === 0) await delay(20)
    const cancelled = await cancel(asked.body.runId)
    expect(cancelled.body.status).toBe('cancelled')
    // Known at once: the dependency page that answered before the cancel.
    expect(cancelled.body.effects).toEqual([
      { method: 'GET', url: `${h.orders.url}/orders`, status: 200, at: expect.any(String) },
    ])
    await approving
    await h.core.engine.idle()
    const after = await getRun(asked.body.runId)
    expect(after.body.status).toBe('cancelled')
    expect(after.body.effects!.map((e) => [e.method, e.url, e.status])).toEqual([
      ['GET', `${h.orders.url}/orders`, 200],
      ['POST', `${h.orders.url}/api/orders`, null],
    ])
  })

  it('answers 409 conflict for a finished run', async () => {
    const done = await callTool<Run>(h.base, h.key, search, { query: 'writing' })
    expect(done.body.status).toBe('succeeded')
    const answer = await cancel(done.body.runId)
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual({ error: { code: 'conflict', message: expect.any(String) } })
    expect((await getRun(done.body.runId)).body.status).toBe('succeeded')
  })

  it('answers 404 not_found for an unknown run', async () => {
    const answer = await cancel('lrun_01NOPE')
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } })
  })
})
