import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_TENANT } from '../../../src/main/core'
import { isServiceError } from '../../../src/shared/errors'
import { send } from '../../fixtures/harness/http'
import { startIndexCore, startItemsSite, type IndexCore, type ItemsSite } from './indexHarness'

let app: IndexCore
let page: ItemsSite

beforeAll(async () => {
  app = await startIndexCore()
  page = await startItemsSite()
})

afterAll(async () => {
  await page.close()
  await app.close()
})

/** The error a browse call ends with (the test fails if it succeeds). */
async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  )
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`)
  return { code: error.code, status: error.status }
}

describe('POST /v1/browser/stop and DELETE /v1/browser', () => {
  it('stop ends the open browse sessions, keeping their traces; their next use is session_expired', async () => {
    const one = await app.core.browse.open(LOCAL_TENANT, { url: page.url })
    const two = await app.core.browse.open(LOCAL_TENANT, { url: page.url })
    const stopped = await send(app.base, 'POST', '/v1/browser/stop', { key: app.key })
    expect(stopped.status).toBe(200)
    expect(stopped.body).toEqual({
      stopped: true,
      browseSessions: 2,
      indexing: 0,
      recording: false,
      profileKept: true,
    })
    for (const s of [one, two])
      expect(await refusal(app.core.browse.snapshot(LOCAL_TENANT, s.sessionId))).toEqual({
        code: 'session_expired',
        status: 410,
      })
    const again = await send(app.base, 'POST', '/v1/browser/stop', { key: app.key })
    expect(again.body).toMatchObject({ browseSessions: 0 })
  })

  it('delete closes the open browse sessions; their next use is session_expired', async () => {
    const open = await app.core.browse.open(LOCAL_TENANT, { url: page.url })
    const cleared = await send(app.base, 'DELETE', '/v1/browser', { key: app.key })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ cleared: true, browseSessions: 1, profileKept: true })
    expect(
      await refusal(
        app.core.browse.act(LOCAL_TENANT, open.sessionId, { ref: 'e1', action: 'click' }),
      ),
    ).toEqual({ code: 'session_expired', status: 410 })
  })

  it('leaves the sessions of another workspace open', async () => {
    const other = await app.core.browse.open('other-workspace', { url: page.url })
    const stopped = await send(app.base, 'POST', '/v1/browser/stop', { key: app.key })
    expect(stopped.body).toMatchObject({ browseSessions: 0 })
    const snapshot = await app.core.browse.snapshot('other-workspace', other.sessionId)
    expect(snapshot.title).toBe('Items')
    await app.core.browse.close('other-workspace', other.sessionId)
  })

  it('stop cuts short a running POST /v1/index, which answers with what it saw', async () => {
    const held = await startItemsSite({ held: true })
    try {
      const indexing = send<{
        status: string
        result: { status: string; routing: { observed: { stopped: boolean } } }
      }>(app.base, 'POST', '/v1/index', {
        key: app.key,
        headers: { 'idempotency-key': 'stop-index-0001' },
        json: { url: held.url, intent: 'list the items' },
      })
      await held.asked
      const stopped = await send(app.base, 'POST', '/v1/browser/stop', { key: app.key })
      expect(stopped.body).toMatchObject({ stopped: true, indexing: 1 })
      const answer = await indexing
      expect(answer.status).toBe(200)
      expect(answer.body.status).toBe('completed')
      expect(answer.body.result.status).toBe('unavailable')
      expect(answer.body.result.routing.observed.stopped).toBe(true)
    } finally {
      await held.close()
    }
  })

  it('refuses both without credentials', async () => {
    expect((await send(app.base, 'POST', '/v1/browser/stop')).status).toBe(401)
    expect((await send(app.base, 'DELETE', '/v1/browser')).status).toBe(401)
  })
})
