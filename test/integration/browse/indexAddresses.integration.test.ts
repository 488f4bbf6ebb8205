import { createServer, type Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { closeServer, listenLocal, portOf } from '../../fixtures/harness/localServer'

let h: Harness
let allowed: Server
let inside: Server
/** Requests the local app that was not allowed received: the guard refuses before connecting. */
let insideHits = 0

beforeEach(async () => {
  h = await startHarness()
  h.core.store.localSites.remove('local', '127.0.0.1')
  insideHits = 0
  inside = createServer((_req, res) => {
    insideHits++
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal secret page</p>')
  })
  await listenLocal(inside)
  allowed = createServer((req, res) => {
    if (req.url === '/redirect')
      return res.writeHead(302, { location: `http://127.0.0.1:${portOf(inside)}/` }).end()
    if (req.url === '/metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>allowed</p>')
  })
  await listenLocal(allowed)
  h.core.store.localSites.add('local', `127.0.0.1:${portOf(allowed)}`, Date.now())
})

afterEach(async () => {
  await h.close()
  await closeServer(allowed)
  await closeServer(inside)
})

const index = (path: string, url: string, key = h.key) =>
  fetch(`${h.base}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': `idx-${Math.random().toString(36).slice(2)}`,
    },
    body: JSON.stringify({ url, intent: 'list the orders' }),
  })

describe('indexing checks where its browser connects (issue 13 item 3)', () => {
  it('an allowed site redirecting to a local app not allowed: 403, the app never asked', async () => {
    const answer = await index('/v1/index', `http://127.0.0.1:${portOf(allowed)}/redirect`)
    expect(answer.status).toBe(403)
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      'destination_denied',
    )
    expect(insideHits).toBe(0)
    expect(h.core.store.traces.list()).toEqual([])
  })

  it('an index job redirected to the metadata address fails destination_denied', async () => {
    const started = await index('/api/v1/index', `http://127.0.0.1:${portOf(allowed)}/metadata`)
    expect(started.status).toBe(202)
    const { id } = (await started.json()) as { id: string }
    type Job = { status: string; reason: string | null; message: string | null }
    let job: Job = { status: 'queued', reason: null, message: null }
    for (let i = 0; i < 120 && job.status !== 'failed' && job.status !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      const read = await fetch(`${h.base}/api/v1/index/${id}`, {
        headers: { authorization: `Bearer ${h.key}` },
      })
      job = (await read.json()) as Job
    }
    expect(job).toMatchObject({ status: 'failed', reason: 'destination_denied' })
    expect(job.message).toContain('169.254.169.254')
    expect(h.core.store.tools.list()).toEqual([])
  })
})
