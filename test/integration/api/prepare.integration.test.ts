import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppResult, RecordingResult } from '../../../src/shared/appApi'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import { importHar } from '../../../src/main/recorder/har'
import { directorySearchHar } from '../../fixtures/harness/directoryHar'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'

let h: Harness
let trace: Trace
let searchId: string
let pageId: string

beforeAll(async () => {
  h = await startHarness()
  trace = importHar(await directorySearchHar(h.site.url, 'writing'), {
    traceId: 'trc_01PREPARETESTTRACE0000000',
    intent: 'search the AI tools directory',
    now: Date.now(),
  })
  h.core.store.traces.save(trace)
  searchId = trace.exchanges.find((e) => e.url.endsWith('/api/search'))!.id
  pageId = trace.exchanges.find((e) => e.resourceType === 'document')!.id
})
afterAll(() => h.close())

const prepare = <T = { candidate?: ToolSpec; explanation?: unknown }>(
  body: unknown,
  key: string | null = 'prepare-key-0001',
) =>
  send<T>(h.base, 'POST', '/v1/tools/prepare', {
    key: h.key,
    json: body,
    headers: key === null ? {} : { 'idempotency-key': key },
  })

const body = (extra: Record<string, unknown> = {}) => ({
  trace_id: trace.id,
  request_id: searchId,
  intent: 'search the AI tools directory by keyword',
  ...extra,
})

describe('POST /v1/tools/prepare', () => {
  it('compiles exactly the named request into a stored candidate that then executes', async () => {
    const answer = await prepare(body(), 'prepare-key-first')
    expect(answer.status).toBe(200)
    const candidate = answer.body.candidate!
    expect(Object.keys(answer.body)).toEqual(['candidate'])
    expect(candidate).toMatchObject({
      status: 'candidate',
      intent: 'search the AI tools directory by keyword',
      evidence: { traceId: trace.id, targetExchangeId: searchId },
    })
    expect(candidate.steps.at(-1)!.request).toMatchObject({
      method: 'POST',
      url: `${h.site.url}/api/search`,
    })
    expect(h.core.store.tools.get(candidate.id)).toMatchObject({ name: candidate.name })

    const run = await send<{ run: { status: string } }>(
      h.base,
      'POST',
      `/v1/tools/${candidate.id}/execute`,
      { key: h.key, headers: { 'idempotency-key': 'prepare-verify-1' }, json: {} },
    )
    expect(run.status).toBe(200)
    expect(run.body.run.status).toBe('succeeded')
  })

  it('answers a repeated Idempotency-Key with the first result, and refuses it with another body', async () => {
    const charged = () => h.core.store.ledger.usage('local', Date.now()).charged
    const before = charged()
    const first = await prepare(body(), 'prepare-key-replay')
    const again = await prepare(body(), 'prepare-key-replay')
    expect(again.body.candidate!.id).toBe(first.body.candidate!.id)
    // One credit for the compilation; the repeat is free (interface.md "What the service does" 7).
    expect(charged()).toBe(before + 1)
    const other = await prepare<ErrorAnswerBody>(
      body({ intent: 'something else' }),
      'prepare-key-replay',
    )
    expect(other.status).toBe(409)
    expect(other.body.error.code).toBe('idempotency_conflict')
  })

  it('accepts observed dependency ids of the same trace', async () => {
    const answer = await prepare(body({ dependency_ids: [pageId] }), 'prepare-key-deps')
    expect(answer.status).toBe(200)
    expect(answer.body.candidate!.evidence.targetExchangeId).toBe(searchId)
  })

  it('refuses unknown traces, unknown request ids, bad keys and bad bodies with docs/interface.md codes', async () => {
    const cases: Array<[unknown, string | null, number, string, RegExp?]> = [
      [body({ trace_id: 'trc_nope' }), 'prepare-key-e1', 404, 'not_found'],
      [
        body({ request_id: 'exc_999' }),
        'prepare-key-e2',
        422,
        'invalid_input',
        new RegExp(`holds ${trace.exchanges.length} exchanges`),
      ],
      [body({ dependency_ids: ['exc_999'] }), 'prepare-key-e3', 422, 'invalid_input'],
      [body(), null, 400, 'invalid_input', /Idempotency-Key/],
      [body(), 'short', 400, 'invalid_input'],
      [body(), 'bad key with spaces', 400, 'invalid_input'],
      [body({ colour: 'red' }), 'prepare-key-e4', 422, 'unknown_argument', /colour/],
      [
        { trace_id: trace.id, request_id: searchId },
        'prepare-key-e5',
        400,
        'invalid_input',
        /intent/,
      ],
      [body({ dependency_ids: 'exc_1' }), 'prepare-key-e6', 400, 'invalid_input'],
      [[1, 2], 'prepare-key-e7', 400, 'bad_request'],
    ]
    for (const [input, key, status, code, message] of cases) {
      const answer = await prepare<ErrorAnswerBody>(input, key)
      expect([answer.status, answer.body.error?.code], JSON.stringify(input)).toEqual([
        status,
        code,
      ])
      if (message) expect(answer.body.error.message).toMatch(message)
    }
  })

  it('needs a key like the other /v1 routes', async () => {
    const answer = await send<ErrorAnswerBody>(h.base, 'POST', '/v1/tools/prepare', {
      json: body(),
      headers: { 'idempotency-key': 'prepare-key-anon' },
    })
    expect(answer.status).toBe(401)
    expect(answer.body.error.code).toBe('unauthorized')
  })
})

describe('app API compile.prepare', () => {
  it('compiles the chosen exchange for "use this request instead"', async () => {
    const answer = await send<AppResult<RecordingResult>>(
      h.base,
      'POST',
      '/app-api/compile.prepare',
      {
        key: h.core.ownerToken,
        json: { traceId: trace.id, exchangeId: searchId },
      },
    )
    expect(answer.body.ok).toBe(true)
    if (!answer.body.ok) return
    expect(answer.body.value.traceId).toBe(trace.id)
    expect(answer.body.value.explanation).toBeNull()
    expect(answer.body.value.candidate!.evidence.targetExchangeId).toBe(searchId)
    // Without an intent of its own it keeps the trace's.
    expect(answer.body.value.candidate!.intent).toBe('search the AI tools directory')

    const missing = await send<AppResult<RecordingResult>>(
      h.base,
      'POST',
      '/app-api/compile.prepare',
      {
        key: h.core.ownerToken,
        json: { traceId: trace.id, exchangeId: 'exc_999' },
      },
    )
    expect(missing.body).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })
})
