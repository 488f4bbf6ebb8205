import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  createBrowseSessions,
  type BrowseLimits,
  type BrowseSessions,
  type Snapshot,
} from '../../../src/main/browse/browseSessions'
import { createCore, LOCAL_TENANT } from '../../../src/main/core'
import { startRecording } from '../../../src/main/recorder'
import { createStore, type Store } from '../../../src/main/store/store'
import { isServiceError, type ServiceError } from '../../../src/shared/errors'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'

const CHROMIUM = '/usr/bin/chromium'
const TENANT = 'local'
const INTENT = 'search the AI tools directory by keyword'

let dir: string
let store: Store
let site: DirectorySite
/** Added to real time by the sessions' clock: the idle rule is tested by moving it. */
let offset = 0
const clock = () => Date.now() + offset
const ulid = monotonicFactory()
const opened: BrowseSessions[] = []

function browse(limits: Partial<BrowseLimits> = {}): BrowseSessions {
  const sessions = createBrowseSessions({
    store,
    clock,
    ulid: () => ulid(),
    uuid: randomUUID,
    chromiumPath: () => CHROMIUM,
    startRecording,
    limits,
  })
  opened.push(sessions)
  return sessions
}

/** The ref of the line `<role> "<name>" … [ref=eN]` in a snapshot. */
function refOf(snapshot: Snapshot, role: string, name: string): string {
  const line = snapshot.text
    .split('\n')
    .find((l) => l.includes(`${role} ${JSON.stringify(name)}`) && l.includes('[ref='))
  const ref = line && /\[ref=(e\d+)\]/.exec(line)?.[1]
  if (!ref) throw new Error(`No ${role} "${name}" with a ref in:\n${snapshot.text}`)
  return ref
}

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  )
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`)
  return error
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitecall-browse-'))
  store = createStore(join(dir, 'sitecall.db'))
  site = await startDirectorySite()
})

afterEach(async () => {
  offset = 0
  site.setFault(null)
  await Promise.all(opened.splice(0).map((b) => b.closeAll()))
})

afterAll(async () => {
  await site.close()
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('browse sessions on the directory site', () => {
  it('learns the search from an agent that fills the box and clicks Search', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/`, intent: INTENT })
    expect(first.sessionId).toMatch(/^bs_[0-9A-Z]{26}$/)
    expect(first.title).toBe('AI Tools Directory')
    expect(first.text).toMatch(/heading "Find the right AI tool" \[level=1\]/)
    const box = refOf(first, 'searchbox', 'Search AI tools')
    const button = refOf(first, 'button', 'Search')
    expect(first.refs).toEqual(expect.arrayContaining([box, button]))

    const filled = await sessions.act(TENANT, first.sessionId, {
      ref: box,
      action: 'fill',
      value: 'writing',
    })
    expect(filled.text).toContain(`searchbox "Search AI tools" [ref=${box}]: writing`)
    const results = await sessions.act(TENANT, first.sessionId, {
      ref: refOf(filled, 'button', 'Search'),
      action: 'click',
    })
    expect(results.text).toMatch(/paragraph: \d+ results/)
    expect(results.text).toMatch(/listitem:\n\s+- link "[^"]+" \[ref=e\d+\]:\n\s+- \/url: \/tool\//)

    const routed = await sessions.finish(TENANT, first.sessionId, {})
    expect(routed.status).toBe('candidate')
    expect(routed.explanation).toBeNull()
    const tool = routed.candidate!
    const target = tool.steps[tool.steps.length - 1]!.request
    expect(target.method).toBe('POST')
    expect(new URL(target.url.replace(/\{\{[^}]+\}\}/g, 'x')).pathname).toBe('/api/search')
    expect(tool.inputs.properties['query']).toMatchObject({ 'x-in': 'body' })
    expect(store.tools.get(tool.id)?.status).toBe('candidate')

    // The recorder took the agent's Playwright input as the person's actions, with the value.
    const trace = store.traces.get(routed.traceId)!
    expect(trace.intent).toBe(INTENT)
    expect(trace.actions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'fill', value: 'writing', fieldName: 'query' }),
        expect.objectContaining({ kind: 'click', role: 'button', name: 'Search' }),
      ]),
    )
    const finished = await refusal(sessions.snapshot(TENANT, first.sessionId))
    expect(finished).toMatchObject({ code: 'session_expired', status: 410 })
  })

  it('submits with Enter, compiles with the intent given to finish, and follows navigate', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    const box = refOf(first, 'searchbox', 'Search AI tools')
    await sessions.act(TENANT, first.sessionId, { ref: box, action: 'fill', value: 'code' })
    const results = await sessions.act(TENANT, first.sessionId, {
      ref: `@${box}`,
      action: 'press',
      value: 'Enter',
    })
    expect(results.text).toMatch(/paragraph: \d+ results/)
    const moved = await sessions.act(TENANT, first.sessionId, {
      ref: '',
      action: 'navigate',
      value: '/search?query=image',
    })
    expect(moved.url).toBe(`${site.url}/search?query=image`)
    expect(moved.text).toContain('heading "Search results" [level=1]')
    const routed = await sessions.finish(TENANT, first.sessionId, { intent: INTENT })
    expect(routed.status).toBe('candidate')
    expect(store.traces.get(routed.traceId)?.intent).toBe(INTENT)
  })

  it('refuses a ref that is not in the latest snapshot with stale_ref', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    const missing = await refusal(
      sessions.act(TENANT, first.sessionId, { ref: 'e999', action: 'click' }),
    )
    expect(missing).toMatchObject({ code: 'stale_ref', status: 409, details: { ref: 'e999' } })
    // The session survives a refused act.
    expect((await sessions.snapshot(TENANT, first.sessionId)).refs).toEqual(first.refs)
  })

  it('refuses a ref whose element the page removed after the snapshot with stale_ref', async () => {
    // "Load" starts a request the test holds; when it is answered the page removes "Target".
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let removed!: () => void
    const gone = new Promise<void>((resolve) => (removed = resolve))
    const page = createServer((req, res) => {
      if (req.url === '/hold') return void held.then(() => res.writeHead(204).end())
      if (req.url === '/removed') {
        removed()
        return void res.writeHead(204).end()
      }
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<!doctype html><title>Changing</title>
<button id="load" onclick="fetch('/hold').then(() => { document.getElementById('target').remove(); fetch('/removed') })">Load</button>
<button id="target">Target</button>`)
    })
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
    const { port } = page.address() as AddressInfo
    try {
      const sessions = browse({ settleMs: 300 })
      const first = await sessions.open(TENANT, { url: `http://127.0.0.1:${port}/` })
      const loading = await sessions.act(TENANT, first.sessionId, {
        ref: refOf(first, 'button', 'Load'),
        action: 'click',
      })
      const target = refOf(loading, 'button', 'Target')
      release()
      await gone
      const error = await refusal(
        sessions.act(TENANT, first.sessionId, { ref: target, action: 'click' }),
      )
      expect(error).toMatchObject({ code: 'stale_ref', status: 409, details: { ref: target } })
    } finally {
      release()
      page.closeAllConnections()
      await new Promise<void>((resolve) => page.close(() => resolve()))
    }
  })

  it('answers browser_network_failed when the result of an action does not load, and stays open', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    const box = refOf(first, 'searchbox', 'Search AI tools')
    await sessions.act(TENANT, first.sessionId, { ref: box, action: 'fill', value: 'writing' })
    site.setFault('reset')
    const failed = await refusal(
      sessions.act(TENANT, first.sessionId, {
        ref: refOf(first, 'button', 'Search'),
        action: 'click',
      }),
    )
    expect(failed).toMatchObject({
      code: 'browser_network_failed',
      status: 502,
      details: { sessionId: first.sessionId, outcome: 'unknown', retrySafe: false },
    })
    expect(failed.details['failed']).toEqual([expect.stringMatching(/^POST .*\/api\/search: /)])
    site.setFault(null)
    const after = await sessions.snapshot(TENANT, first.sessionId)
    expect(after.text).toContain('Search failed. Try again.')
  })

  it('allows 3 open sessions per workspace and hides them from other workspaces', async () => {
    const sessions = browse()
    const open = await Promise.all(
      [1, 2, 3].map(() => sessions.open(TENANT, { url: `${site.url}/` })),
    )
    const fourth = await refusal(sessions.open(TENANT, { url: `${site.url}/` }))
    expect(fourth).toMatchObject({ code: 'too_many_sessions', status: 429 })
    const other = await refusal(sessions.snapshot('someone-else', open[0]!.sessionId))
    expect(other).toMatchObject({ code: 'session_expired', status: 410 })
    const closeOther = await refusal(sessions.close('someone-else', open[0]!.sessionId))
    expect(closeOther).toMatchObject({ code: 'session_expired', status: 410 })
    // Closing one frees its slot.
    await sessions.close(TENANT, open[0]!.sessionId)
    const again = await sessions.open(TENANT, { url: `${site.url}/` })
    expect(again.sessionId).not.toBe(open[0]!.sessionId)
  })

  it('ends a session idle for more than 2 minutes and keeps what it recorded', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    // Just under the limit: the real time a slow machine spends between the calls must not
    // push the session over it.
    offset += 2 * 60_000 - 5_000
    await sessions.snapshot(TENANT, first.sessionId)
    const before = store.traces.list().length
    offset += 2 * 60_000 + 1
    const idle = await refusal(sessions.snapshot(TENANT, first.sessionId))
    expect(idle).toMatchObject({
      code: 'session_expired',
      status: 410,
      details: { sessionId: first.sessionId },
    })
    await expect.poll(() => store.traces.list().length, { timeout: 20_000 }).toBe(before + 1)
    // Its slot is free again.
    const slots = await Promise.all([1, 2, 3].map(() => sessions.open(TENANT, { url: site.url })))
    expect(slots).toHaveLength(3)
  })

  it('sweeps idle sessions by its timer too', async () => {
    const sessions = browse({ sweepMs: 50 })
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    const before = store.traces.list().length
    offset += 2 * 60_000 + 1
    await expect.poll(() => store.traces.list().length, { timeout: 20_000 }).toBe(before + 1)
    offset = 0
    const swept = await refusal(sessions.snapshot(TENANT, first.sessionId))
    expect(swept).toMatchObject({ code: 'session_expired', status: 410 })
  })

  it('answers session_expired after close, and close drops the recording', async () => {
    const sessions = browse()
    const first = await sessions.open(TENANT, { url: `${site.url}/` })
    const before = store.traces.list().length
    await sessions.close(TENANT, first.sessionId)
    for (const call of [
      sessions.snapshot(TENANT, first.sessionId),
      sessions.act(TENANT, first.sessionId, { ref: 'e1', action: 'click' }),
      sessions.finish(TENANT, first.sessionId, {}),
      sessions.close(TENANT, first.sessionId),
    ])
      expect(await refusal(call)).toMatchObject({ code: 'session_expired', status: 410 })
    expect(store.traces.list().length).toBe(before)
  })

  it('refuses a blank sessionId with invalid_argument and an unknown one with session_expired', async () => {
    const sessions = browse()
    for (const id of ['', '   ', 42, null, 'bs_nope']) {
      const error = await refusal(sessions.snapshot(TENANT, id as string))
      expect(error).toMatchObject({ code: 'invalid_argument', status: 400 })
    }
    const unknown = await refusal(sessions.snapshot(TENANT, `bs_${ulid()}`))
    expect(unknown).toMatchObject({ code: 'session_expired', status: 410 })
  })

  it('answers site_unreachable when the page does not load within the load limit', async () => {
    const hanging = createServer(() => {
      // Never answers: the page never loads.
    })
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const { port } = hanging.address() as AddressInfo
    try {
      const sessions = browse({ loadMs: 1_500 })
      const url = `http://127.0.0.1:${port}/slow`
      const error = await refusal(sessions.open(TENANT, { url }))
      expect(error).toMatchObject({ code: 'site_unreachable', status: 504, details: { url } })
    } finally {
      hanging.closeAllConnections()
      await new Promise<void>((resolve) => hanging.close(() => resolve()))
    }
  })

  it('answers page_unresponsive when the page does not answer the snapshot in time', async () => {
    const busy = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<!doctype html><title>Busy</title>
<button onclick="setTimeout(() => { const end = Date.now() + 15000; while (Date.now() < end) {} }, 250)">Freeze</button>`)
    })
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const { port } = busy.address() as AddressInfo
    try {
      // The page freezes 250 ms after the click (time for a loaded machine to finish the click);
      // the snapshot follows the settle (half a second of quiet counted from the click's end),
      // inside the 15 s freeze.
      const sessions = browse({ snapshotMs: 1_000, settleMs: 2_500 })
      const first = await sessions.open(TENANT, { url: `http://127.0.0.1:${port}/` })
      const freeze = refOf(first, 'button', 'Freeze')
      const error = await refusal(
        sessions.act(TENANT, first.sessionId, { ref: freeze, action: 'click' }),
      )
      expect(error).toMatchObject({ code: 'page_unresponsive', status: 504 })
    } finally {
      busy.closeAllConnections()
      await new Promise<void>((resolve) => busy.close(() => resolve()))
    }
  })

  it('is wired into the core, which ends open sessions when it closes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sitecall-browse-core-'))
    const core = createCore({
      home,
      port: 0,
      rendererDir: null,
      env: { ...process.env, SITECALL_CHROMIUM: CHROMIUM },
    })
    try {
      const first = await core.browse.open(LOCAL_TENANT, { url: `${site.url}/` })
      expect(first.refs.length).toBeGreaterThan(0)
      await core.close()
      const after = await refusal(core.browse.snapshot(LOCAL_TENANT, first.sessionId))
      expect(after).toMatchObject({ code: 'session_expired', status: 410 })
    } finally {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    }
  })
})
