import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchRecords } from '../../fixtures/sites/directory'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec, ToolSummary } from '../../../src/shared/toolSpec'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, searchRequests, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

let h: Harness

beforeEach(async () => {
  h = await startHarness()
})

afterEach(async () => {
  await h.close()
})

const expected = (query: string) =>
  searchRecords(h.site.records, { query, verified: false, page: 1, perPage: 12 })

const refusal = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: expect.any(String), ...extra },
})

/** `POST /v1/tools/{id}/execute` with an operation key unless `key` is null. */
function execute(tool: ToolSpec, body: unknown, key: string | null = 'op-key-0001') {
  return send<{ run: Run; tool: ToolSummary }>(h.base, 'POST', `/v1/tools/${tool.id}/execute`, {
    key: h.key,
    json: body,
    headers: key === null ? {} : { 'idempotency-key': key },
  })
}

describe('GET /v1/tools/catalog', () => {
  it('lists the traces and the tools with their inputs and verification status', async () => {
    const { tool, trace } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await send<{ traces: unknown[]; tools: ToolSummary[] }>(
      h.base,
      'GET',
      '/v1/tools/catalog',
      { key: h.key },
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      traces: [
        {
          id: trace.id,
          intent: trace.intent,
          startUrl: trace.startUrl,
          createdAt: trace.createdAt,
          exchangeCount: 1,
        },
      ],
      tools: [
        {
          id: tool.id,
          name: tool.name,
          siteHost: h.site.host,
          capabilityId: tool.capabilityId,
          description: tool.description,
          intent: tool.intent,
          status: 'candidate',
          mutating: false,
          via: 'http',
          inputs: tool.inputs,
          updatedAt: tool.updatedAt,
        },
      ],
    })
  })

  it('answers 401 unauthorized without a key', async () => {
    const answer = await send(h.base, 'GET', '/v1/tools/catalog')
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual(refusal('unauthorized'))
  })
})

describe('POST /v1/tools/{id}/execute', () => {
  it('answers 400 invalid_input without an Idempotency-Key and sends nothing', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await execute(tool, { inputs: { p0: 'writing' } }, null)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(refusal('invalid_input'))
    expect(searchRequests(h.site)).toHaveLength(1)
    expect(h.core.store.runs.list()).toEqual([])
  })

  it('verifies a candidate by its first succeeded execution, after which surface A accepts it', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const before = await callTool(h.base, h.key, tool, { query: 'image' })
    expect(before.status).toBe(404)

    const answer = await execute(tool, { intent: tool.intent, inputs: { p0: 'writing' } })
    expect(answer.status).toBe(200)
    expect(answer.body.run).toMatchObject({
      runId: expect.stringMatching(/^lrun_/),
      status: 'succeeded',
      result: expected('writing'),
      error: null,
      toolId: tool.id,
    })
    expect(answer.body.tool).toMatchObject({ id: tool.id, status: 'verified' })
    expect(h.core.store.tools.get(tool.id)!.status).toBe('verified')

    const after = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ status: 'succeeded', result: expected('image') })
  })

  it('leaves a candidate unverified when its execution fails', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    h.site.setFault('server_error')
    const answer = await execute(tool, { inputs: { p0: 'writing' } })
    expect(answer.status).toBe(200)
    expect(answer.body.run).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } })
    expect(answer.body.tool.status).toBe('candidate')
    expect(h.core.store.tools.get(tool.id)!.status).toBe('candidate')
    expect((await callTool(h.base, h.key, tool, { query: 'image' })).status).toBe(404)
  })

  it('converts string slot values by their declared type', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await execute(tool, { inputs: { p0: 'writing', p2: '2', p3: '5' } })
    expect(answer.body.run.status).toBe('succeeded')
    expect(JSON.parse(searchRequests(h.site)[1]!.body)).toEqual({
      query: 'writing',
      verified: false,
      page: 2,
      perPage: 5,
    })
    expect(answer.body.run.result).toEqual(
      searchRecords(h.site.records, { query: 'writing', verified: false, page: 2, perPage: 5 }),
    )
  })

  it('answers 422 unknown_argument for a slot the tool lacks, listing the valid slots', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await execute(tool, { inputs: { p0: 'writing', p9: 'x' } })
    expect(answer.status).toBe(422)
    expect(answer.body).toEqual(
      refusal('unknown_argument', { message: expect.stringContaining('p0, p1, p2, p3') }),
    )
    expect(h.core.store.runs.list()).toEqual([])
  })

  it('answers 400 invalid_input for a slot value that does not convert to its integer type', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await execute(tool, { inputs: { p0: 'writing', p2: 'abc' } })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(
      refusal('invalid_input', { message: expect.stringContaining('p2') }),
    )
    expect(h.core.store.runs.list()).toEqual([])
  })

  it('answers 422 unknown_argument for a body field execute does not take', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const answer = await execute(tool, { inputs: { p0: 'writing' }, query: 'writing' })
    expect(answer.status).toBe(422)
    expect(answer.body).toEqual(refusal('unknown_argument'))
  })

  it('returns the same run for a repeated operation key and calls the site once', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    const first = await execute(tool, { inputs: { p0: 'writing' } }, 'op-key-repeat')
    const second = await execute(tool, { inputs: { p0: 'writing' } }, 'op-key-repeat')
    expect(first.body.run.status).toBe('succeeded')
    expect(second.status).toBe(200)
    expect(second.body.run).toEqual(first.body.run)
    expect(searchRequests(h.site)).toHaveLength(2)
  })

  it('answers 409 idempotency_conflict for an operation key reused with other inputs', async () => {
    const { tool } = await makeSearchTool(h.core, h.site, { status: 'candidate' })
    await execute(tool, { inputs: { p0: 'writing' } }, 'op-key-reused')
    const answer = await execute(tool, { inputs: { p0: 'image' } }, 'op-key-reused')
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual(refusal('idempotency_conflict'))
    expect(searchRequests(h.site)).toHaveLength(2)
  })

  it('answers 404 not_found for an unknown tool id', async () => {
    const answer = await send(
      h.base,
      'POST',
      '/v1/tools/00000000-0000-4000-8000-000000000000/execute',
      {
        key: h.key,
        json: { inputs: { p0: 'writing' } },
        headers: { 'idempotency-key': 'op-key-0002' },
      },
    )
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
  })
})

describe('GET /api/v1/sites/{site_host}', () => {
  it("lists the site's tools with their inputs and status", async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const answer = await send(h.base, 'GET', `/api/v1/sites/${h.site.host}`, { key: h.key })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      site_host: h.site.host,
      tools: [
        {
          id: tool.name,
          capabilityId: tool.capabilityId,
          description: tool.description,
          inputs: tool.inputs,
          mutating: false,
          status: 'verified',
        },
      ],
    })
  })

  it('answers 404 not_found for a site without tools', async () => {
    const answer = await send(h.base, 'GET', '/api/v1/sites/unknown.example', { key: h.key })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
  })
})

describe('GET /api/v1/runs/{runId}', () => {
  it('answers 200 with a finished run', async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const call = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    const answer = await send<Run>(h.base, 'GET', `/api/v1/runs/${call.body.runId}`, {
      key: h.key,
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(call.body)
  })

  it('answers 404 not_found for an unknown run', async () => {
    const answer = await send(h.base, 'GET', '/api/v1/runs/lrun_01JUNKNOWNRUN0000000000000', {
      key: h.key,
    })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
  })

  it("answers 404 not_found for another workspace's run", async () => {
    const { tool } = await makeSearchTool(h.core, h.site)
    const call = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    const other = h.core.store.keys.create(
      { id: 'key_other', tenant: 'someone-else', label: 'other' },
      Date.now(),
    ).key
    const answer = await send(h.base, 'GET', `/api/v1/runs/${call.body.runId}`, { key: other })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(refusal('not_found'))
  })
})
