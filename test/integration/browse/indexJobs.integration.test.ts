import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IndexJob } from '../../../src/main/browse/indexJobs'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { startIndexCore, startItemsSite, type IndexCore, type ItemsSite } from './indexHarness'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** The core's clock: tests move it by hand (the 24-hour window of interface.md "Limits"). */
let now = Date.UTC(2026, 8, 28, 9, 0, 0)
let app: IndexCore
const sites: ItemsSite[] = []

beforeAll(async () => {
  app = await startIndexCore({ clock: () => now })
})

afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()))
  await app.close()
})

async function site(options: { held?: boolean } = {}): Promise<ItemsSite> {
  const started = await startItemsSite(options)
  sites.push(started)
  return started
}

const startJob = (json: unknown) =>
  send<IndexJob & ErrorAnswerBody>(app.base, 'POST', '/api/v1/index', { key: app.key, json })

const readJob = (id: string) =>
  send<IndexJob & ErrorAnswerBody>(app.base, 'GET', `/api/v1/index/${id}`, { key: app.key })

/** Polls the job until it left `queued` and `running`. */
async function finished(id: string): Promise<IndexJob> {
  for (;;) {
    const { body } = await readJob(id)
    if (body.status !== 'queued' && body.status !== 'running') return body
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('index jobs (POST /api/v1/index, GET /api/v1/index/{jobId})', () => {
  it('runs a job to done with the compiled candidate, joins a site being indexed, and refuses a fourth running job with index_busy', async () => {
    const [a, b, c, d] = await Promise.all([
      site({ held: true }),
      site({ held: true }),
      site({ held: true }),
      site(),
    ])
    const first = await startJob({ url: a.url, intent: 'list the items' })
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({
      status: expect.stringMatching(/^(queued|running)$/),
      indexed: 0,
      url: a.url,
      site: new URL(a.url).host,
      intent: 'list the items',
      reason: null,
    })
    expect(first.body.id).toMatch(/^idx_[0-9A-Z]{26}$/)
    await a.asked
    const joined = await startJob({ url: `${a.url}?again=1` })
    expect(joined.status).toBe(200)
    expect(joined.body.id).toBe(first.body.id)

    const second = await startJob({ url: b.url, intent: 'list the items' })
    const third = await startJob({ url: c.url, intent: 'list the items' })
    expect([second.status, third.status]).toEqual([202, 202])
    const busy = await startJob({ url: d.url, intent: 'list the items' })
    expect(busy.status).toBe(429)
    expect(busy.body.error).toMatchObject({ code: 'index_busy', limit: 3 })
    expect(busy.body.error.jobs).toEqual(
      [first, second, third].map((j) => `/api/v1/index/${j.body.id}`),
    )
    expect((await readJob(first.body.id)).body.status).toBe('running')

    for (const held of [a, b, c]) held.release()
    const done = await finished(first.body.id)
    expect(done).toMatchObject({ status: 'done', indexed: 1, reason: null })
    expect(done.traceId).toMatch(/^trc_/)
    expect(done.tools).toHaveLength(1)
    const tool = app.core.store.tools.get(done.tools[0]!.id)!
    expect(tool.status).toBe('candidate')
    expect(tool.steps.at(-1)!.request.url).toBe(`${a.url}api/items`)
    expect(done.tools[0]!.endpoint).toBe(`/v1/tools/${tool.id}/execute`)
    await Promise.all([finished(second.body.id), finished(third.body.id)])

    // With the three done, the fourth site may be indexed.
    const fourth = await startJob({ url: d.url, intent: 'list the items' })
    expect(fourth.status).toBe(202)
    expect(await finished(fourth.body.id)).toMatchObject({ status: 'done', indexed: 1 })
  })

  it('answers 404 for an unknown job and refuses bad bodies', async () => {
    const missing = await readJob('idx_01J00000000000000000000000')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('not_found')
    const badUrl = await startJob({ url: 'not a url' })
    expect(badUrl.status).toBe(400)
    expect(badUrl.body.error.code).toBe('invalid_input')
    const unknown = await startJob({ url: 'http://127.0.0.1:9/', depth: 3 })
    expect(unknown.status).toBe(422)
    expect(unknown.body.error.code).toBe('unknown_argument')
  })

  it('fails a job whose page does not load with site_unreachable', async () => {
    const gone = await site()
    await gone.close()
    const job = await startJob({ url: gone.url, intent: 'list the items' })
    expect(await finished(job.body.id)).toMatchObject({
      status: 'failed',
      indexed: 0,
      reason: 'site_unreachable',
    })
  })
})

describe('the day limit of index jobs (5 in any 24 hours)', () => {
  it('refuses a sixth job with index_limit and lets the rolling window free places', async () => {
    // The first describe block started 5 jobs at the start time.
    const start = now
    const target = await site()
    now = start + HOUR
    const sixth = await startJob({ url: target.url, intent: 'list the items' })
    expect(sixth.status).toBe(429)
    expect(sixth.body.error).toMatchObject({ code: 'index_limit', limit: 5 })
    expect(sixth.headers.get('retry-after')).toBe(String((DAY - HOUR) / 1000))

    // A day after the first five, all of them have left the window.
    now = start + DAY
    const later: IndexJob[] = []
    for (let i = 0; i < 3; i++) {
      const job = await startJob({ url: target.url, intent: 'list the items' })
      expect(job.status).toBe(202)
      later.push(await finished(job.body.id))
    }
    now = start + DAY + 2 * HOUR
    for (let i = 0; i < 2; i++) {
      const job = await startJob({ url: target.url, intent: 'list the items' })
      expect(job.status).toBe(202)
      later.push(await finished(job.body.id))
    }
    const full = await startJob({ url: target.url, intent: 'list the items' })
    expect(full.status).toBe(429)
    expect(full.body.error.code).toBe('index_limit')
    // The window rolls: once the three of start+DAY are 24 hours old, three places free again.
    now = start + 2 * DAY
    const again = await startJob({ url: target.url, intent: 'list the items' })
    expect(again.status).toBe(202)
    await finished(again.body.id)
    expect(later.every((j) => j.status === 'done' && j.indexed === 1)).toBe(true)
  })
})
