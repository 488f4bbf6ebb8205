import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate } from '../../fixtures/harness/harness'
import { callTool, searchRequests, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
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

const execute = (key: string, inputs: Record<string, string>) =>
  send<{ run: Run } & ErrorAnswerBody>(h.base, 'POST', `/v1/tools/${tool.id}/execute`, {
    key: h.key,
    json: { intent: tool.intent, inputs },
    headers: { 'idempotency-key': key },
  })

describe('Idempotency-Key on site tool calls', () => {
  it('makes one run, one site request and one charge of 50 identical calls sent at once', async () => {
    // The site holds the one request until the calls had time to pile up on the same run.
    const held = gate()
    h.setApiHook(() => held.promise)
    const calls = Array.from({ length: 50 }, () =>
      callTool<Run>(h.base, h.key, tool, { query: 'writing' }, { 'idempotency-key': 'same-50' }),
    )
    while (sentByRuns().length === 0) await delay(20)
    await delay(300)
    held.open()
    const answers = await Promise.all(calls)
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200))
    const ids = new Set(answers.map((a) => a.body.runId))
    expect(ids.size).toBe(1)
    expect(answers.every((a) => a.body.status === 'succeeded')).toBe(true)
    expect(runsOf(h.core, tool.id)).toHaveLength(1)
    expect(sentByRuns()).toHaveLength(1)
    expect(charges(h.core)).toEqual([{ ref: `run:${[...ids][0]}`, amount: -1 }])
  })

  it('answers a repeat after the run finished with the same run and sends nothing again', async () => {
    const first = await callTool<Run>(
      h.base,
      h.key,
      tool,
      { query: 'image', perPage: 5 },
      { 'idempotency-key': 'k1' },
    )
    // The same inputs in another key order, with another projection, are the same input.
    const again = await callTool<Run>(
      h.base,
      h.key,
      tool,
      { perPage: 5, query: 'image', select: ['count'] },
      { 'idempotency-key': 'k1' },
    )
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.body.runId).toBe(first.body.runId)
    expect(sentByRuns()).toHaveLength(1)
  })

  it('answers 409 idempotency_conflict for the same key with different input', async () => {
    await callTool(h.base, h.key, tool, { query: 'image' }, { 'idempotency-key': 'k2' })
    const other = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'video' },
      { 'idempotency-key': 'k2' },
    )
    expect(other.status).toBe(409)
    expect(other.body).toEqual({
      error: { code: 'idempotency_conflict', message: expect.any(String) },
    })
    expect(sentByRuns()).toHaveLength(1)
  })

  it('takes keys up to 200 characters and refuses 201 with 400', async () => {
    const ok = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'a' },
      { 'idempotency-key': 'k'.repeat(200) },
    )
    expect(ok.status).toBe(200)
    const long = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'a' },
      { 'idempotency-key': 'k'.repeat(201) },
    )
    expect(long.status).toBe(400)
    expect(long.body).toEqual({ error: { code: 'invalid_input', message: expect.any(String) } })
    expect(sentByRuns()).toHaveLength(1)
  })
})

describe('operation keys of the account API', () => {
  it.each([
    ['8 characters', 'abcd1234'],
    ['128 characters', 'k'.repeat(128)],
    ['every allowed sign', 'op.key_1:2-3'],
  ])('accepts %s', async (_, key) => {
    const answer = await execute(key, { p0: 'writing' })
    expect(answer.status).toBe(200)
    expect(answer.body.run.status).toBe('succeeded')
  })

  it.each([
    ['7 characters', 'abc1234'],
    ['129 characters', 'k'.repeat(129)],
    ['a slash', 'op/key/1234'],
    ['a space', 'op key 1234'],
  ])('refuses %s with 400 and sends nothing', async (_, key) => {
    const answer = await execute(key, { p0: 'writing' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: { code: 'invalid_input', message: expect.any(String) } })
    expect(sentByRuns()).toHaveLength(0)
    expect(charges(h.core)).toEqual([])
  })

  it('answers a repeated operation key with the same run, one execution and one credit', async () => {
    const first = await execute('op-repeat-1', { p0: 'writing' })
    const again = await execute('op-repeat-1', { p0: 'writing' })
    expect(again.body.run.runId).toBe(first.body.run.runId)
    expect(sentByRuns()).toHaveLength(1)
    expect(charges(h.core)).toEqual([{ ref: 'execute:op-repeat-1', amount: -1 }])
    const conflict = await execute('op-repeat-1', { p0: 'image' })
    expect(conflict.status).toBe(409)
    expect(conflict.body).toEqual({
      error: { code: 'idempotency_conflict', message: expect.any(String) },
    })
    expect(charges(h.core)).toHaveLength(1)
  })
})
