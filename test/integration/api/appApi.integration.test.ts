import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchRecords } from '../../fixtures/sites/directory'
import type { AppResult, KeySummary } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec, ToolSummary } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, send } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

let h: Harness
let tool: ToolSpec
let trace: Trace
const streams: AbortController[] = []

beforeEach(async () => {
  h = await startHarness()
  ;({ tool, trace } = await makeSearchTool(h.core, h.site))
})

afterEach(async () => {
  // An open event stream would keep the server from closing.
  streams.splice(0).forEach((s) => s.abort())
  await h.close()
})

/** `POST /app-api/<method>` with the owner token (or `token`) and a JSON input. */
function app<T = unknown>(method: string, input: unknown, token = h.core.ownerToken) {
  return send<AppResult<T>>(h.base, 'POST', `/app-api/${method}`, { key: token, json: input })
}

interface AppEvent {
  event: string
  data: { run: Run }
}

/** Opens `GET /app-api/events?token=…` and reads its server-sent events with a stream reader. */
async function openEvents(token: string) {
  const controller = new AbortController()
  streams.push(controller)
  const res = await fetch(`${h.base}/app-api/events?token=${encodeURIComponent(token)}`, {
    signal: controller.signal,
  })
  const events: AppEvent[] = []
  let buffer = ''
  const decoder = new TextDecoder()
  const reader = res.body!.getReader()
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    /** Reads until an event satisfies `done`; resolves with every event read so far. */
    async until(done: (event: AppEvent) => boolean): Promise<AppEvent[]> {
      while (!events.some(done)) {
        const chunk = await reader.read()
        if (chunk.done) throw new Error('The event stream ended.')
        buffer += decoder.decode(chunk.value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          for (const line of frame.split('\n'))
            if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as AppEvent)
        }
      }
      return events
    },
    /** The first chunk: the stream's opening comment. */
    async first(): Promise<string> {
      const chunk = await reader.read()
      return decoder.decode(chunk.value)
    },
  }
}

const summary = (status = 'verified') => ({
  id: tool.id,
  name: tool.name,
  siteHost: h.site.host,
  capabilityId: tool.capabilityId,
  description: tool.description,
  intent: tool.intent,
  status,
  mutating: false,
  via: 'http',
  inputs: tool.inputs,
  updatedAt: tool.updatedAt,
})

describe('POST /app-api/<method>', () => {
  it('answers tools.list with {ok:true,value} for the owner token', async () => {
    const answer = await app<ToolSummary[]>('tools.list', {})
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ ok: true, value: [summary()] })
  })

  it('refuses an API key with 403 forbidden', async () => {
    const answer = await app('tools.list', {}, h.key)
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } })
  })

  it('refuses a call without a token with 401 unauthorized', async () => {
    const answer = await send(h.base, 'POST', '/app-api/tools.list', { json: {} })
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } })
  })

  it('answers an unknown method with {ok:false,error:{code:not_found}}', async () => {
    const answer = await app('tools.format', {})
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      ok: false,
      error: { code: 'not_found', message: expect.any(String) },
    })
  })

  it('answers input that fails the method schema with {ok:false,error:{code:invalid_input}}', async () => {
    const answer = await app('tools.get', {})
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: expect.any(String) },
    })
  })

  it('answers tools.get with the tool and the exchange its evidence names', async () => {
    const answer = await app('tools.get', { id: tool.id })
    expect(answer.body).toEqual({
      ok: true,
      value: { tool, target: trace.exchanges[0], replaces: null },
    })
  })

  it('runs a tool by semantic inputs with tools.run', async () => {
    const answer = await app<Run>('tools.run', { id: tool.id, inputs: { query: 'code' } })
    expect(answer.body).toMatchObject({
      ok: true,
      value: {
        status: 'succeeded',
        result: searchRecords(h.site.records, {
          query: 'code',
          verified: false,
          page: 1,
          perPage: 12,
        }),
      },
    })
  })

  it('shows a created key once and lists only its prefix afterwards', async () => {
    const created = await app<{ key: string; summary: KeySummary }>('keys.create', {
      label: 'agent',
    })
    if (!created.body.ok) throw new Error(created.body.error.message)
    const { key, summary: made } = created.body.value
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/)
    expect(made).toEqual({
      id: expect.stringMatching(/^key_/),
      label: 'agent',
      prefix: key.slice(0, 13),
      createdAt: expect.any(Number),
      revokedAt: null,
      lastUsedAt: null,
    })

    const listed = await app<KeySummary[]>('keys.list', {})
    if (!listed.body.ok) throw new Error(listed.body.error.message)
    // The harness's key and the new one, each as a summary without the key itself.
    expect(listed.body.value).toHaveLength(2)
    expect(listed.body.value).toContainEqual(made)
    for (const k of listed.body.value)
      expect(Object.keys(k).sort()).toEqual([
        'createdAt',
        'id',
        'label',
        'lastUsedAt',
        'prefix',
        'revokedAt',
      ])
    const text = JSON.stringify(listed.body)
    expect(text).not.toContain(key)
    expect(text).not.toContain(h.key)

    // The key shown once is a working surface-A key.
    const call = await callTool<Run>(h.base, key, tool, { query: 'image' })
    expect(call.status).toBe(200)
    expect(call.body.status).toBe('succeeded')
  })
})

describe('GET /app-api/events', () => {
  it('streams runs.updated as a read starts working and succeeds', async () => {
    const stream = await openEvents(h.core.ownerToken)
    expect(stream.status).toBe(200)
    expect(stream.contentType).toBe('text/event-stream')
    expect(await stream.first()).toContain(': connected')

    const call = await callTool<Run>(h.base, h.key, tool, { query: 'image' })
    expect(call.body.status).toBe('succeeded')
    const runId = call.body.runId
    const events = await stream.until(
      (e) => e.data.run.runId === runId && e.data.run.status === 'succeeded',
    )
    const mine = events.filter((e) => e.data.run.runId === runId)
    // A read is stored `working` as it is accepted (one transaction per state change, issue 12).
    expect(mine.map((e) => e.event)).toEqual(['runs.updated', 'runs.updated'])
    expect(mine.map((e) => e.data.run.status)).toEqual(['working', 'succeeded'])
    expect(mine[1]!.data.run).toEqual(call.body)
  })

  it('refuses an API key as the stream token with 403 forbidden', async () => {
    const answer = await send(h.base, 'GET', `/app-api/events?token=${h.key}`)
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } })
  })

  it('refuses a stream without a token with 401 unauthorized', async () => {
    const answer = await send(h.base, 'GET', '/app-api/events')
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } })
  })
})
