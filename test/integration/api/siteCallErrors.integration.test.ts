import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchRecords } from '../../fixtures/sites/directory'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate, startHarness, type Harness } from '../../fixtures/harness/harness'
import {
  callTool,
  pollRun,
  rawGet,
  searchRequests,
  send,
  type ErrorAnswerBody,
} from '../../fixtures/harness/http'
import { makeSearchTool, RECORDED_SEARCH } from '../../fixtures/harness/searchTool'

let h: Harness
let tool: ToolSpec

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  await h.close()
})

const expected = (query: string) =>
  searchRecords(h.site.records, { query, verified: false, page: 1, perPage: 12 })

/** The error body of interface.md "Error body" with exactly these fields; `message` is human text. */
const refusal = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: expect.any(String), ...extra },
})

/** Nothing reached the site beyond the helper's recording, and no run was persisted. */
function expectNothingSent() {
  expect(searchRequests(h.site)).toHaveLength(1)
  expect(h.core.store.runs.list()).toEqual([])
}

describe('surface A authentication', () => {
  it('answers 401 unauthorized without an Authorization header', async () => {
    const answer = await callTool(h.base, undefined, tool, { query: 'image' })
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual(refusal('unauthorized'))
    expectNothingSent()
  })

  it('answers 401 unauthorized for an unknown svc_live_ key', async () => {
    const answer = await callTool(h.base, 'svc_live_notAKeyThisServiceEverMinted0000000000', tool, {
      query: 'image',
    })
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual(refusal('unauthorized'))
    expectNothingSent()
  })

  it('answers 403 revoked for a revoked key', async () => {
    expect(h.core.store.keys.revoke(h.keyId, Date.now())).toBe(true)
    const answer = await callTool(h.base, h.key, tool, { query: 'image' })
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual(refusal('revoked'))
    expectNothingSent()
  })

  it('answers 403 forbidden for X-Service-End-User sent with a personal (non-org) key', async () => {
    // Spec "Authentication" 2: the end-user header with a non-org key gives 403 forbidden.
    const answer = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { 'x-service-end-user': 'user-42' },
    )
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual(refusal('forbidden'))
    expectNothingSent()
  })
})

describe('surface A tool lookup', () => {
  it('answers 404 not_found for a tool the site does not have', async () => {
    const answer = await callTool(
      h.base,
      h.key,
      { siteHost: tool.siteHost, name: 'local__post_nothing' },
      { query: 'image' },
    )
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
    expectNothingSent()
  })

  it('answers 404 not_found for a site with no tools', async () => {
    const answer = await callTool(
      h.base,
      h.key,
      { siteHost: 'unknown.example', name: tool.name },
      { query: 'image' },
    )
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
    expectNothingSent()
  })

  it('answers 404 not_found while the tool is still a candidate', async () => {
    h.core.store.tools.setStatus(tool.id, 'candidate', Date.now())
    const answer = await callTool(h.base, h.key, tool, { query: 'image' })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
    expectNothingSent()
  })

  it('answers 409 tool_quarantined for a quarantined tool', async () => {
    h.core.store.tools.setStatus(tool.id, 'quarantined', Date.now())
    const answer = await callTool(h.base, h.key, tool, { query: 'image' })
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual(refusal('tool_quarantined'))
    expectNothingSent()
  })
})

describe('surface A request shape', () => {
  it('answers 400 bad_request for a body that is not JSON', async () => {
    const answer = await send(h.base, 'POST', `/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
      key: h.key,
      headers: { 'content-type': 'application/json' },
      raw: '{"query": "image"',
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('bad_request'))
    expectNothingSent()
  })

  it('answers 400 bad_request for a JSON body that is not an object', async () => {
    const answer = await callTool(h.base, h.key, tool, ['image'])
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('bad_request'))
    expectNothingSent()
  })

  it('answers 400 bad_request for a missing body, with or without a JSON content type', async () => {
    const path = `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
    const bare = await send(h.base, 'POST', path, { key: h.key })
    expect(bare.status).toBe(400)
    expect(bare.body).toEqual(refusal('bad_request'))
    const typed = await send(h.base, 'POST', path, {
      key: h.key,
      headers: { 'content-type': 'application/json' },
    })
    expect(typed.status).toBe(400)
    expect(typed.body).toEqual(refusal('bad_request'))
    expectNothingSent()
  })

  it('answers 422 unknown_argument listing the valid arguments', async () => {
    const answer = await callTool(h.base, h.key, tool, { query: 'image', sort: 'rating' })
    expect(answer.status).toBe(422)
    expect(answer.body).toEqual({
      error: {
        code: 'unknown_argument',
        message: `${tool.name} does not take "sort". Valid arguments: query, verified, page, perPage, select, deadlineMs.`,
        valid: ['query', 'verified', 'page', 'perPage', 'select', 'deadlineMs'],
      },
    })
    expectNothingSent()
  })

  it('answers 400 invalid_input for a query of the wrong type', async () => {
    const answer = await callTool(h.base, h.key, tool, { query: 5 })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(
      refusal('invalid_input', { message: expect.stringContaining('query') }),
    )
    expectNothingSent()
  })

  it('answers 202 input_required with a value requirement when the required query is missing', async () => {
    // Issue 4 "Requirements": a missing required slot waits for a value instead of failing.
    const answer = await callTool(h.base, h.key, tool, { page: 2 })
    expect(answer.status).toBe(202)
    expect(answer.body).toMatchObject({
      status: 'input_required',
      requirements: [{ kind: 'value', slot: 'query', message: expect.stringContaining('query') }],
    })
    // The run waits, persisted; the site has seen nothing of it.
    expect(searchRequests(h.site)).toHaveLength(1)
    expect(h.core.store.runs.list().map((r) => r.status)).toEqual(['input_required'])
  })

  it('answers 400 invalid_input for a select that is not a list of path strings', async () => {
    const answer = await callTool(h.base, h.key, tool, { query: 'image', select: 'count' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('invalid_input'))
    expectNothingSent()
  })

  it('answers 400 invalid_input for an Idempotency-Key longer than 200 characters', async () => {
    const answer = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { 'idempotency-key': 'k'.repeat(201) },
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('invalid_input'))
    expectNothingSent()
  })
})

describe('surface A deadline', () => {
  it('answers 400 invalid_input for an x-service-deadline-ms below 5000', async () => {
    const answer = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { 'x-service-deadline-ms': '1000' },
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('invalid_input'))
    expectNothingSent()
  })

  it('answers 400 invalid_input for a body deadlineMs above 300000', async () => {
    const answer = await callTool(h.base, h.key, tool, { query: 'image', deadlineMs: 999_999 })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('invalid_input'))
    expectNothingSent()
  })

  it('lets a valid x-service-deadline-ms header win over an invalid body deadlineMs', async () => {
    const answer = await callTool<Run>(
      h.base,
      h.key,
      tool,
      { query: 'image', deadlineMs: 999_999 },
      { 'x-service-deadline-ms': '7000' },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('succeeded')
    expect(h.core.store.runs.get(answer.body.runId)!.deadlineMs).toBe(7000)
  })

  it('answers 504 run_timeout with runId, deadlineMs and poll, and the run goes on to succeed', async () => {
    const held = gate()
    h.setApiHook(() => held.promise)
    const answer = await callTool<ErrorAnswerBody>(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { 'x-service-deadline-ms': '5000' },
    )
    expect(answer.status).toBe(504)
    const runId = answer.body.error.runId as string
    expect(answer.body).toEqual({
      error: {
        code: 'run_timeout',
        message: expect.any(String),
        runId: expect.stringMatching(/^lrun_/),
        deadlineMs: 5000,
        poll: `/api/v1/runs/${runId}`,
      },
    })
    // The poll path answers 202 while the site still holds the request.
    const pending = await send<Run>(h.base, 'GET', answer.body.error.poll as string, { key: h.key })
    expect(pending.status).toBe(202)
    expect(pending.body).toMatchObject({ runId, status: 'working' })
    held.open()
    const done = await pollRun(h.base, h.key, runId)
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ runId, status: 'succeeded', result: expected('image') })
    expect(h.core.store.runs.get(runId)!.billed).toBe(true)
    expect(searchRequests(h.site)).toHaveLength(2)
  })
})

describe('surface A success', () => {
  it("answers 200 with a succeeded run that carries the site's result", async () => {
    const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      runId: expect.stringMatching(/^lrun_/),
      status: 'succeeded',
      capabilityId: tool.capabilityId,
      result: expected('image'),
      error: null,
      requirements: [],
      via: 'http',
      signIn: null,
      toolId: tool.id,
      stateRevision: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(expected('image').count).toBeGreaterThan(0)
    // The site got the recorded request with the new query and the recorded defaults.
    const sent = searchRequests(h.site)
    expect(sent).toHaveLength(2)
    expect(JSON.parse(sent[1]!.body)).toEqual({ ...RECORDED_SEARCH, query: 'image' })
    expect(h.core.store.runs.get(answer.body.runId)!.billed).toBe(true)
  })

  it('keeps only the selected parts of the result and lists paths that match nothing in selectMissing', async () => {
    const answer = await callTool<Run & { selectMissing?: string[] }>(h.base, h.key, tool, {
      query: 'image',
      select: ['count', 'data[].{toolName,slug}', 'pagination.next'],
      deadlineMs: 60_000,
    })
    expect(answer.status).toBe(200)
    const full = expected('image')
    expect(answer.body.status).toBe('succeeded')
    expect(answer.body.result).toEqual({
      count: full.count,
      data: full.data.map((r) => ({ toolName: r.toolName, slug: r.slug })),
    })
    expect(answer.body.selectMissing).toEqual(['pagination.next'])
  })

  it('omits selectMissing when every selected path matches', async () => {
    const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image', select: ['count'] })
    expect(answer.status).toBe(200)
    expect(answer.body.result).toEqual({ count: expected('image').count })
    expect(answer.body).not.toHaveProperty('selectMissing')
  })
})

describe('surface A idempotency', () => {
  it('returns the same run for a repeated Idempotency-Key and calls the site once', async () => {
    const headers = { 'idempotency-key': 'repeat-me-1' }
    const first = await callTool<Run>(h.base, h.key, tool, { query: 'image' }, headers)
    const second = await callTool<Run>(h.base, h.key, tool, { query: 'image' }, headers)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body.runId).toBe(first.body.runId)
    expect(second.body).toEqual(first.body)
    expect(searchRequests(h.site)).toHaveLength(2)
    expect(h.core.store.runs.list()).toHaveLength(1)
  })

  it('joins the run still in flight when a call with the same Idempotency-Key times out', async () => {
    const held = gate()
    const arrived = gate()
    h.setApiHook(() => {
      arrived.open()
      return held.promise
    })
    const headers = { 'idempotency-key': 'in-flight-1' }
    const first = callTool<Run>(h.base, h.key, tool, { query: 'image' }, headers)
    await arrived.promise
    // The repeat cannot finish while the site holds the first request: it joins and times out.
    const second = await callTool<ErrorAnswerBody>(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { ...headers, 'x-service-deadline-ms': '5000' },
    )
    expect(second.status).toBe(504)
    expect(second.body.error.code).toBe('run_timeout')
    held.open()
    const settled = await first
    expect(settled.status).toBe(200)
    expect(settled.body.status).toBe('succeeded')
    expect(second.body.error.runId).toBe(settled.body.runId)
    expect(searchRequests(h.site)).toHaveLength(2)
  })

  it('answers 409 idempotency_conflict for the same Idempotency-Key with another query', async () => {
    const headers = { 'idempotency-key': 'conflict-1' }
    const first = await callTool<Run>(h.base, h.key, tool, { query: 'image' }, headers)
    expect(first.status).toBe(200)
    const second = await callTool(h.base, h.key, tool, { query: 'video' }, headers)
    expect(second.status).toBe(409)
    expect(second.body).toEqual(refusal('idempotency_conflict'))
    expect(searchRequests(h.site)).toHaveLength(2)
  })
})

describe('local server safety', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const answer = await send(h.base, 'GET', '/api/v1/nothing-here', { key: h.key })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({
      error: { code: 'not_found', message: 'No route GET /api/v1/nothing-here.' },
    })
  })

  it('refuses a Host that is not a loopback name with 403 forbidden', async () => {
    const path = `/api/v1/sites/${tool.siteHost}`
    const headers = { authorization: `Bearer ${h.key}` }
    const own = await rawGet(h.base, path, { ...headers, host: new URL(h.base).host })
    expect(own.status).toBe(200)
    const rebound = await rawGet(h.base, path, { ...headers, host: 'evil.example' })
    expect(rebound).toEqual({ status: 403, body: refusal('forbidden') })
  })

  it('refuses a foreign Origin with 403 forbidden and sends nothing to the site', async () => {
    const answer = await callTool(
      h.base,
      h.key,
      tool,
      { query: 'image' },
      { origin: 'http://evil.example' },
    )
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual(refusal('forbidden'))
    expectNothingSent()
  })

  it("accepts the app's own Origin", async () => {
    const answer = await callTool<Run>(h.base, h.key, tool, { query: 'image' }, { origin: h.base })
    expect(answer.status).toBe(200)
    expect(answer.body.status).toBe('succeeded')
  })
})
