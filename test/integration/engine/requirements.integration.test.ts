import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { REQUIREMENT_WINDOW_MS } from '../../../src/main/engine/requirements'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { callTool, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import {
  createdOrders,
  fakeClock,
  orderPosts,
  runsOf,
  saveOrderTool,
  startEngineHarness,
  type EngineHarness,
  type FakeClock,
} from './engineHarness'

type Waiting = Run & {
  requirements: Array<Run['requirements'][number] & { request?: unknown }>
}

let h: EngineHarness
let clock: FakeClock
let orderTool: ToolSpec

beforeEach(async () => {
  clock = fakeClock()
  h = await startEngineHarness({ clock })
  orderTool = await saveOrderTool(h.core, h.orders)
})

afterEach(async () => {
  await h.close()
})

const respond = (runId: string, body: unknown) =>
  send<Run & ErrorAnswerBody>(h.base, 'POST', `/api/v1/runs/${runId}/responses`, {
    key: h.key,
    json: body,
  })

/** Everything the orders site saw from the engine (the dependency page and the write). */
const ordersTraffic = () =>
  h.orders.state.requests.filter((r) => r.path === '/orders' || r.path.startsWith('/api/orders'))

async function askOrder(inputs: Record<string, unknown>) {
  const answer = await callTool<Waiting>(h.base, h.key, orderTool, inputs)
  expect(answer.status).toBe(202)
  return answer.body
}

/** The exact refusal envelope: `{error: {code, message}}` and nothing else. */
function expectError(answer: { status: number; body: unknown }, status: number, code: string) {
  expect(answer.status).toBe(status)
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } })
}

describe('approval of a write through surface A', () => {
  it('asks before sending, showing the exact request, and continues the same run once approved', async () => {
    const run = await askOrder({ item: 'Teapot "Brown Betty"', quantity: 2, shipping: 'express' })
    expect(run.status).toBe('input_required')
    expect(run.stateRevision).toBe(1)
    expect(run.requirements).toEqual([
      {
        id: expect.any(String),
        kind: 'approval',
        message: expect.stringContaining(orderTool.siteHost),
        expiresAt: new Date(clock.now() + REQUIREMENT_WINDOW_MS).toISOString(),
        request: {
          method: 'POST',
          url: `${h.orders.url}/api/orders`,
          body: { item: 'Teapot "Brown Betty"', quantity: 2, shipping: 'express' },
        },
      },
    ])
    expect(ordersTraffic()).toEqual([])

    const done = await respond(run.runId, {
      stateRevision: 1,
      answers: [{ requirementId: run.requirements[0]!.id, approve: true }],
    })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ runId: run.runId, status: 'succeeded', requirements: [] })
    expect(runsOf(h.core, orderTool.id)).toHaveLength(1)
    const posts = orderPosts(h.orders)
    expect(posts).toHaveLength(1)
    // What the site got is what the approval showed.
    expect(posts[0]!.body).toEqual((run.requirements[0]!.request as { body: unknown }).body)
    expect(createdOrders(h.orders, 'Teapot "Brown Betty"')).toHaveLength(1)
  })

  it('fails the run declined and sends nothing when the approval is declined', async () => {
    const run = await askOrder({ item: 'Kettle', quantity: 1, shipping: 'standard' })
    const declined = await respond(run.runId, {
      stateRevision: run.stateRevision,
      answers: [{ requirementId: run.requirements[0]!.id, approve: false }],
    })
    expect(declined.status).toBe(200)
    expect(declined.body).toMatchObject({
      runId: run.runId,
      status: 'failed',
      error: { code: 'declined', message: expect.any(String) },
    })
    expect(ordersTraffic()).toEqual([])
    expect(createdOrders(h.orders, 'Kettle')).toEqual([])
  })
})

describe('choice and value requirements', () => {
  it('takes a unique prefix as that option, without asking', async () => {
    const run = await askOrder({ item: 'Mug', quantity: 1, shipping: 'Ex' })
    expect(run.requirements.map((r) => r.kind)).toEqual(['approval'])
    expect((run.requirements[0]!.request as { body: unknown }).body).toEqual({
      item: 'Mug',
      quantity: 1,
      shipping: 'express',
    })
  })

  it('offers the options when a value matches none, and sends the chosen one', async () => {
    const run = await askOrder({ item: 'Bowl', quantity: 3, shipping: 'teleport' })
    const choice = run.requirements.find((r) => r.kind === 'choice')!
    expect(choice).toMatchObject({
      slot: 'shipping',
      options: [
        { id: expect.any(String), label: 'standard' },
        { id: expect.any(String), label: 'express' },
        { id: expect.any(String), label: 'overnight' },
      ],
    })
    const approval = run.requirements.find((r) => r.kind === 'approval')!
    const done = await respond(run.runId, {
      stateRevision: run.stateRevision,
      answers: [
        { requirementId: choice.id, optionId: choice.options![2]!.id },
        { requirementId: approval.id, approve: true },
      ],
    })
    expect(done.body).toMatchObject({ runId: run.runId, status: 'succeeded' })
    expect(orderPosts(h.orders).map((p) => p.body)).toEqual([
      { item: 'Bowl', quantity: 3, shipping: 'overnight' },
    ])
  })

  it('offers the several options a prefix fits', async () => {
    const run = await askOrder({ item: 'Plate', quantity: 1, shipping: '' })
    const choice = run.requirements.find((r) => r.kind === 'choice')!
    expect(choice.options!.map((o) => o.label)).toEqual(['standard', 'express', 'overnight'])
    expect(choice.message).toContain('several')
  })

  it('asks for a missing required value and runs the same read once it is given', async () => {
    const { tool } = await makeSearchTool(h.core, h.directory)
    const asked = await callTool<Waiting>(h.base, h.key, tool, {})
    expect(asked.status).toBe(202)
    expect(asked.body.requirements).toEqual([
      {
        id: expect.any(String),
        kind: 'value',
        slot: 'query',
        message: expect.any(String),
        expiresAt: expect.any(String),
      },
    ])
    const before = h.directory.requests.length
    const done = await respond(asked.body.runId, {
      stateRevision: asked.body.stateRevision,
      answers: [{ requirementId: asked.body.requirements[0]!.id, value: 'writing' }],
    })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ runId: asked.body.runId, status: 'succeeded' })
    expect(h.directory.requests.slice(before).map((r) => JSON.parse(r.body).query)).toEqual([
      'writing',
    ])
    expect(runsOf(h.core, tool.id)).toHaveLength(1)
  })
})

describe('answer errors', () => {
  it('answers 409 conflict when the run is not waiting', async () => {
    const run = await askOrder({ item: 'Cup', quantity: 1, shipping: 'standard' })
    const answer = { requirementId: run.requirements[0]!.id, approve: true }
    await respond(run.runId, { stateRevision: 1, answers: [answer] })
    expectError(await respond(run.runId, { stateRevision: 3, answers: [answer] }), 409, 'conflict')
  })

  it('answers 409 stale_revision for an old stateRevision', async () => {
    const run = await askOrder({ item: 'Cup', quantity: 1, shipping: 'standard' })
    const answer = { requirementId: run.requirements[0]!.id, approve: true }
    expectError(
      await respond(run.runId, { stateRevision: 0, answers: [answer] }),
      409,
      'stale_revision',
    )
    expect(ordersTraffic()).toEqual([])
  })

  it('answers 409 stale_requirement for a requirement a partial answer replaced', async () => {
    const run = await askOrder({ item: 'Cup', quantity: 1, shipping: 'teleport' })
    expect(run.requirements).toHaveLength(2)
    const [choice] = run.requirements
    const partial = await respond(run.runId, {
      stateRevision: 1,
      answers: [{ requirementId: choice!.id, optionId: choice!.options![0]!.id }],
    })
    expect(partial.status).toBe(202)
    expect(partial.body).toMatchObject({ status: 'input_required', stateRevision: 2 })
    expect(partial.body.requirements.map((r) => r.kind)).toEqual(['approval'])
    // The approval left open now shows the request with the chosen option in it.
    expect(partial.body.requirements[0]!.request).toMatchObject({
      body: { item: 'Cup', quantity: 1, shipping: choice!.options![0]!.label },
    })
    expectError(
      await respond(run.runId, {
        stateRevision: 2,
        answers: [{ requirementId: choice!.id, optionId: choice!.options![0]!.id }],
      }),
      409,
      'stale_requirement',
    )
  })

  it('answers 422 unknown_requirement, invalid_option and invalid_answer', async () => {
    const run = await askOrder({ item: 'Cup', quantity: 1, shipping: 'teleport' })
    const [choice, approval] = run.requirements
    const at = { stateRevision: run.stateRevision }
    expectError(
      await respond(run.runId, { ...at, answers: [{ requirementId: 'req_nope', approve: true }] }),
      422,
      'unknown_requirement',
    )
    expectError(
      await respond(run.runId, { ...at, answers: [{ requirementId: choice!.id, optionId: 'x' }] }),
      422,
      'invalid_option',
    )
    expectError(
      await respond(run.runId, { ...at, answers: [{ requirementId: approval!.id, value: 'yes' }] }),
      422,
      'invalid_answer',
    )
    // None of the refusals moved the run.
    const now = await send<Run>(h.base, 'GET', `/api/v1/runs/${run.runId}`, { key: h.key })
    expect(now.body).toMatchObject({ status: 'input_required', stateRevision: run.stateRevision })
  })

  it('answers 422 invalid_answer for a value of the wrong type', async () => {
    const run = await askOrder({ item: 'Cup', shipping: 'standard' })
    const value = run.requirements.find((r) => r.kind === 'value')!
    expect(value.slot).toBe('quantity')
    expectError(
      await respond(run.runId, {
        stateRevision: run.stateRevision,
        answers: [{ requirementId: value.id, value: 'two' }],
      }),
      422,
      'invalid_answer',
    )
  })

  it('answers 400 for a malformed body', async () => {
    const run = await askOrder({ item: 'Cup', quantity: 1, shipping: 'standard' })
    const path = `/api/v1/runs/${run.runId}/responses`
    const raw = await send(h.base, 'POST', path, {
      key: h.key,
      raw: '{"stateRevision":',
      headers: { 'content-type': 'application/json' },
    })
    expectError(raw, 400, 'bad_request')
    expectError(await respond(run.runId, []), 400, 'bad_request')
    expectError(await respond(run.runId, { stateRevision: 1, answers: [] }), 400, 'invalid_input')
    expectError(
      await respond(run.runId, { stateRevision: 1, answers: [{ approve: true }] }),
      400,
      'invalid_input',
    )
    expectError(
      await respond(run.runId, {
        stateRevision: '1',
        answers: [{ requirementId: run.requirements[0]!.id, approve: true }],
      }),
      400,
      'invalid_input',
    )
  })

  it('answers 404 not_found for an unknown run', async () => {
    expectError(
      await respond('lrun_NOPE', {
        stateRevision: 1,
        answers: [{ requirementId: 'a', approve: true }],
      }),
      404,
      'not_found',
    )
  })
})

describe('the 15-minute answer window', () => {
  it('gives expired_requirement once 15 minutes passed (lazily, on answer) and sends nothing', async () => {
    const run = await askOrder({ item: 'Vase', quantity: 1, shipping: 'standard' })
    clock.advance(REQUIREMENT_WINDOW_MS - 1)
    expect(h.core.engine.expireWaiting()).toBe(0)
    clock.advance(1)
    expectError(
      await respond(run.runId, {
        stateRevision: run.stateRevision,
        answers: [{ requirementId: run.requirements[0]!.id, approve: true }],
      }),
      409,
      'expired_requirement',
    )
    const after = await send<Run>(h.base, 'GET', `/api/v1/runs/${run.runId}`, { key: h.key })
    expect(after.body.status).toBe('expired')
    expect(ordersTraffic()).toEqual([])
  })

  it('expires waiting runs in the sweep, and answering later still gives expired_requirement', async () => {
    const run = await askOrder({ item: 'Vase', quantity: 1, shipping: 'standard' })
    clock.advance(REQUIREMENT_WINDOW_MS)
    expect(h.core.engine.expireWaiting()).toBe(1)
    expect(h.core.engine.expireWaiting()).toBe(0)
    const after = await send<Run>(h.base, 'GET', `/api/v1/runs/${run.runId}`, { key: h.key })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ status: 'expired', requirements: [] })
    expectError(
      await respond(run.runId, {
        stateRevision: after.body.stateRevision,
        answers: [{ requirementId: run.requirements[0]!.id, approve: true }],
      }),
      409,
      'expired_requirement',
    )
    expect(ordersTraffic()).toEqual([])
  })
})
