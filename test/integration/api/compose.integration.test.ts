import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { LOCAL_TENANT } from '../../../src/main/core'
import { FREE_GRANT_CREDITS } from '../../../src/main/store/ledgerRepository'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { searchRecords } from '../../fixtures/sites/directory'
import { gate, startHarness, type Harness } from '../../fixtures/harness/harness'
import { searchRequests, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { addNoteTool, connectHttp, startNotesSite, type NotesSite } from '../mcp/mcpClients'

/**
 * The compose call (interface.md "C" `POST /api/v1/compose/v1/call`, issue 26 item 3) through the running
 * service: a real core on a SQLite file, the directory fixture and a notes site on 127.0.0.1.
 */
let h: Harness
let tool: ToolSpec
let notes: NotesSite
let write: ToolSpec
let sentBefore = 0

beforeEach(async () => {
  h = await startHarness()
  ;({ tool } = await makeSearchTool(h.core, h.site))
  notes = await startNotesSite()
  write = addNoteTool(notes)
  h.core.store.tools.save(write)
  sentBefore = searchRequests(h.site).length
})

afterEach(async () => {
  await notes.close()
  await h.close()
})

const PATH = '/api/v1/compose/v1/call'
const sent = () => searchRequests(h.site).slice(sentBefore)
const queryOf = (t: ToolSpec) => Object.keys(t.inputs.properties).find((k) => /query/i.test(k))!
const composeCall = (
  json: unknown,
  options: { key?: string | null; headers?: Record<string, string>; query?: string } = {},
) =>
  send<Record<string, unknown>>(h.base, 'POST', `${PATH}${options.query ?? ''}`, {
    ...(options.key === null ? {} : { key: options.key ?? h.key }),
    json,
    ...(options.headers ? { headers: options.headers } : {}),
  })
const search = (query: string) => ({
  app: tool.siteHost,
  tool: tool.name,
  inputs: { [queryOf(tool)]: query },
})
const charged = async () =>
  (await send<{ charged: number }>(h.base, 'GET', '/v1/usage', { key: h.key })).body.charged
const expected = (query: string) =>
  searchRecords(h.site.records, { query, verified: false, page: 1, perPage: 12 })

/** The compose failure envelope: `{ok: false, code, error: {code, message, …}}`. */
const failure = (code: string, extra: Record<string, unknown> = {}) =>
  expect.objectContaining({
    ok: false,
    code,
    error: expect.objectContaining({ code, message: expect.any(String) }),
    ...extra,
  })

describe('one call', () => {
  it("answers 200 {ok: true, data, runId} with the site's result and bills one credit", async () => {
    const answer = await composeCall(search('writing'))
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ ok: true, data: expect.anything(), runId: expect.any(String) })
    const data = answer.body.data as { data: Array<{ _id: string }> }
    expect(data.data.map((r) => r._id)).toEqual(expected('writing').data.map((r) => r._id))
    expect(sent()).toHaveLength(1)
    expect(await charged()).toBe(1)
    // The run is an ordinary run of the workspace: it can be read back.
    const run = await send<{ status: string }>(
      h.base,
      'GET',
      `/api/v1/runs/${String(answer.body.runId)}`,
      { key: h.key },
    )
    expect(run.body.status).toBe('succeeded')
  })

  const siteFaults = [
    { fault: 'not_found', status: 404, code: 'upstream_not_found', site: 404 },
    { fault: 'conflict', status: 409, code: 'upstream_conflict', site: 409 },
    { fault: 'server_error', status: 502, code: 'upstream_unavailable', site: 500 },
    { fault: 'forbidden', status: 400, code: 'upstream_error', site: 403 },
    { fault: 'rate_limited', status: 400, code: 'upstream_error', site: 429 },
  ] as const
  for (const c of siteFaults)
    it(`answers the site's ${c.site} as ${c.status} ${c.code}, sent once, not billed`, async () => {
      h.site.setFault(c.fault)
      const answer = await composeCall(search('writing'))
      expect(answer.status).toBe(c.status)
      expect(answer.body).toEqual(
        failure(c.code, {
          runId: expect.any(String),
          error: expect.objectContaining({ code: c.code, httpStatus: c.site }),
        }),
      )
      expect(answer.body).not.toHaveProperty('outcome')
      expect(sent()).toHaveLength(1)
      expect(await charged()).toBe(0)
    })

  it('answers 504 upstream_timeout with outcome unknown past timeoutMs, and never sends again', async () => {
    const held = gate()
    h.setApiHook(() => held.promise)
    try {
      const answer = await composeCall({ ...search('writing'), timeoutMs: 5000 })
      expect(answer.status).toBe(504)
      expect(answer.body).toEqual(
        failure('upstream_timeout', { outcome: 'unknown', runId: expect.any(String) }),
      )
    } finally {
      held.open()
    }
    await h.core.engine.idle()
    expect(sent()).toHaveLength(1)
  })

  it('answers a missing key 401 in the envelope, before anything is sent', async () => {
    const answer = await composeCall(search('writing'), { key: null })
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual(failure('unauthorized'))
    expect(sent()).toEqual([])
  })

  it('refuses a tool the app lacks (404), an unknown input (422) and a bad body (400 or 422)', async () => {
    const missing = await composeCall({ app: tool.siteHost, tool: 'local__nothing', inputs: {} })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(failure('not_found'))
    const otherApp = await composeCall({ ...search('writing'), app: 'elsewhere.example' })
    expect(otherApp.status).toBe(404)
    const unknown = await composeCall({ ...search('writing'), inputs: { nope: 1 } })
    expect(unknown.status).toBe(422)
    expect(unknown.body).toEqual(failure('unknown_argument'))
    const extra = await composeCall({ ...search('writing'), retry: true })
    expect(extra.status).toBe(422)
    expect(extra.body).toEqual(failure('unknown_argument'))
    const neither = await composeCall({ inputs: {} })
    expect(neither.status).toBe(400)
    expect(neither.body).toEqual(failure('invalid_input'))
    const both = await composeCall({ ...search('writing'), steps: [search('writing')] })
    expect(both.status).toBe(400)
    const short = await composeCall({ ...search('writing'), timeoutMs: 10 })
    expect(short.status).toBe(400)
    expect(sent()).toEqual([])
  })

  it('needs allow_mutation for a tool that writes, then writes once', async () => {
    const body = { app: write.siteHost, tool: write.name, inputs: { text: 'hello' } }
    const refused = await composeCall(body)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(failure('forbidden'))
    expect(notes.posts).toEqual([])
    const done = await composeCall({ ...body, allow_mutation: true })
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ ok: true, data: { note: { id: 'note_1', text: 'hello' } } })
    expect(notes.posts).toEqual([{ text: 'hello' }])
  })

  it('honours tool scopes: a tool outside ?apps= is 403 not_in_scope, nothing sent', async () => {
    const answer = await composeCall(search('writing'), { query: '?apps=other.example' })
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual(failure('not_in_scope'))
    const inside = await composeCall(search('writing'), { query: `?apps=${tool.siteHost}` })
    expect(inside.status).toBe(200)
    expect(sent()).toHaveLength(1)
  })

  it('joins the first run for a repeated Idempotency-Key and refuses it with another body', async () => {
    const headers = { 'idempotency-key': 'compose-once' }
    const first = await composeCall(search('writing'), { headers })
    const again = await composeCall(search('writing'), { headers })
    expect(first.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(sent()).toHaveLength(1)
    expect(await charged()).toBe(1)
    const other = await composeCall(search('image'), { headers })
    expect(other.status).toBe(409)
    expect(other.body).toEqual(failure('idempotency_conflict'))
    expect(sent()).toHaveLength(1)
  })

  it('checks the balance before anything is sent (402 quota_exceeded)', async () => {
    h.core.store.ledger.charge(LOCAL_TENANT, 'test:all', FREE_GRANT_CREDITS, 'spent', Date.now())
    const answer = await composeCall(search('writing'))
    expect(answer.status).toBe(402)
    expect(answer.body).toEqual(failure('quota_exceeded'))
    expect(sent()).toEqual([])
  })

  it("lets an org key's end user call the org's tools; a personal key with the header is 403", async () => {
    const org = h.core.store.keys.create(
      { id: 'key_compose_org', tenant: LOCAL_TENANT, label: 'org', kind: 'org' },
      Date.now(),
    ).key
    const endUser = { 'x-service-end-user': 'customer-7' }
    const ok = await composeCall(search('writing'), { key: org, headers: endUser })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ ok: true })
    const personal = await composeCall(search('writing'), { headers: endUser })
    expect(personal.status).toBe(403)
    expect(personal.body).toEqual(failure('forbidden'))
    expect(sent()).toHaveLength(1)
  })
})

describe('steps', () => {
  it('runs calls in order, each taking earlier results by JSON path, and lists what ran', async () => {
    const first = expected('writing').data[0]!
    const answer = await composeCall({
      steps: [
        search('writing'),
        {
          app: write.siteHost,
          tool: write.name,
          inputs: { text: { $from: 'steps[0].data.data[0].toolName' } },
          allow_mutation: true,
        },
      ],
    })
    expect(answer.status).toBe(200)
    expect(notes.posts).toEqual([{ text: first.toolName }])
    expect(answer.body).toEqual({
      ok: true,
      data: { note: { id: 'note_1', text: first.toolName } },
      runId: expect.any(String),
      steps: [
        expect.objectContaining({ step: 0, status: 'succeeded', runId: expect.any(String) }),
        expect.objectContaining({ step: 1, status: 'succeeded', runId: answer.body.runId }),
      ],
    })
    expect(await charged()).toBe(2)
  })

  it('stops at the first failure and says exactly what ran', async () => {
    const answer = await composeCall({
      steps: [
        search('writing'),
        { ...search('image'), inputs: { [queryOf(tool)]: { $from: 'steps[0].data.nothing' } } },
        { app: write.siteHost, tool: write.name, inputs: { text: 'never' }, allow_mutation: true },
      ],
    })
    expect(answer.status).toBe(422)
    expect(answer.body).toEqual(failure('invalid_input', { steps: expect.any(Array) }))
    expect((answer.body.steps as Array<{ status: string }>).map((s) => s.status)).toEqual([
      'succeeded',
      'refused',
      'not_run',
    ])
    expect(sent()).toHaveLength(1)
    expect(notes.posts).toEqual([])
  })

  it("reports a site's failure in a later step with the earlier step's result kept", async () => {
    const answer = await composeCall({
      steps: [
        { app: write.siteHost, tool: write.name, inputs: { text: 'first' }, allow_mutation: true },
        search('writing'),
      ],
    })
    expect(answer.status).toBe(200)
    h.site.setFault('not_found')
    const failed = await composeCall({
      steps: [
        { app: write.siteHost, tool: write.name, inputs: { text: 'second' }, allow_mutation: true },
        search('writing'),
        search('image'),
      ],
    })
    expect(failed.status).toBe(404)
    const steps = failed.body.steps as Array<{ status: string; data?: unknown; code?: string }>
    expect(steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'not_run'])
    expect(steps[0]!.data).toEqual({ note: { id: 'note_2', text: 'second' } })
    expect(steps[1]!.code).toBe('upstream_not_found')
    expect(notes.posts).toHaveLength(2)
  })

  it('refuses a $from that reads no earlier step, and more than 10 steps, before sending', async () => {
    const forward = await composeCall({
      steps: [{ ...search('x'), inputs: { [queryOf(tool)]: { $from: 'steps[1].data' } } }],
    })
    expect(forward.status).toBe(400)
    expect(forward.body).toEqual(failure('invalid_input'))
    const many = await composeCall({ steps: Array.from({ length: 11 }, () => search('x')) })
    expect(many.status).toBe(400)
    expect(sent()).toEqual([])
  })
})

describe('where it is described', () => {
  it('is in the OpenAPI document with its body and envelopes', async () => {
    interface Doc {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>
      components: { schemas: Record<string, unknown> }
    }
    const doc = (await send<Doc>(h.base, 'GET', '/openapi.json', { key: h.key })).body
    const op = doc.paths[PATH]?.post
    expect(op).toBeDefined()
    expect(Object.keys(op!.responses)).toEqual(
      expect.arrayContaining(['200', '404', '409', '502', '504']),
    )
    expect(doc.components.schemas.ComposeResult).toBeDefined()
  })

  it('is the MCP tool service_compose, with a failed call as an isError result', async () => {
    const client = await connectHttp(h.base, { key: h.key })
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain('service_compose')
      const ok = (await client.callTool({
        name: 'service_compose',
        arguments: search('writing'),
      })) as CallToolResult
      expect(ok.isError).toBeFalsy()
      expect(ok.structuredContent).toMatchObject({ ok: true, runId: expect.any(String) })
      h.site.setFault('conflict')
      const failed = (await client.callTool({
        name: 'service_compose',
        arguments: search('writing'),
      })) as CallToolResult
      expect(failed.isError).toBe(true)
      expect(failed.structuredContent).toMatchObject({ ok: false, code: 'upstream_conflict' })
      await expect(
        client.callTool({ name: 'service_compose', arguments: { app: tool.siteHost } }),
      ).rejects.toThrow(/required/)
    } finally {
      await client.close()
    }
  })
})
