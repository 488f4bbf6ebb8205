import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createBrowserPool, type BrowserPool } from '../../../src/main/engine/browserPool'
import { executeHttp, sendWithUndici } from '../../../src/main/engine/httpExecutor'
import { createRenderedExecutor } from '../../../src/main/engine/renderedExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'
import {
  relatedRecords,
  startDirectorySite,
  type DirectorySite,
} from '../../fixtures/sites/directory'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { saveTestLogin } from '../logins/loginHelpers'

const CHROMIUM = '/usr/bin/chromium'

/** A tool as the compiler would save it; `overrides` set the request and result. */
function tool(siteHost: string, overrides: Partial<ToolSpec> & { url: string }): ToolSpec {
  const { url, ...rest } = overrides
  return {
    id: crypto.randomUUID(),
    siteHost,
    name: `site__read_${Math.random().toString(36).slice(2, 8)}`,
    capabilityId: `${siteHost}/read`,
    intent: 'read',
    description: 'read',
    version: '2026.11.23',
    mutating: false,
    status: 'verified',
    inputs: { type: 'object', properties: {}, required: [] },
    steps: [
      { id: 'target', request: { method: 'GET', url, headers: {}, body: null }, extract: [] },
    ],
    output: { type: 'object' },
    verify: { status: [200, 299], mimeType: 'application/json', required: [] },
    via: 'http',
    evidence: {
      traceId: 'trc_X',
      targetExchangeId: 'exc_1',
      exchangeIds: ['exc_1'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
    ...rest,
  }
}

/** The orders list of the signed-in person: needs the session cookie of the saved login. */
function ordersTool(site: OrdersSite, via: 'http' | 'rendered' = 'http'): ToolSpec {
  return tool(site.host, {
    url: `${site.url}/api/orders`,
    via,
    login: { cookies: ['parcel_session'], values: [] },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [
        { path: 'orders', type: 'array' },
        { path: 'orders[].item', type: 'string' },
      ],
    },
  })
}

/** Signs alice in over HTTP and returns her login as a recording would save it. */
async function aliceLogin(site: OrdersSite): Promise<StorageState> {
  const res = await fetch(`${site.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=alice&password=wonderland',
    redirect: 'manual',
  })
  const line = res.headers.getSetCookie().find((c) => c.startsWith('parcel_session='))
  if (!line) throw new Error(`sign-in failed: ${res.status}`)
  const value = decodeURIComponent(line.split(';')[0]!.split('=')[1]!)
  return {
    cookies: [
      {
        name: 'parcel_session',
        value,
        domain: '127.0.0.1',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [],
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20))
}

describe('rendered executor in a real Chromium', () => {
  let directory: DirectorySite
  let pool: BrowserPool<BrowserContext>

  beforeAll(async () => {
    directory = await startDirectorySite()
    pool = createBrowserPool({ chromiumPath: () => CHROMIUM })
  })
  afterAll(async () => {
    await pool?.close()
    await directory?.close()
  })

  it('reads a client-rendered page as {title, text, links} from the rendered DOM', async () => {
    const record = directory.records[0]!
    const slug = record.slug.current
    const related = relatedRecords(directory.records, slug)!.related
    expect(related.length).toBeGreaterThan(0)
    const pageRead = tool(directory.host, {
      url: `${directory.url}/tool/{{input.p0}}`,
      inputs: {
        type: 'object',
        properties: { slug: { type: 'string', 'x-slot': 'p0', 'x-in': 'path', 'x-path': '1' } },
        required: ['slug'],
      },
      result: { kind: 'document', page: true },
      verify: {
        status: [200, 299],
        mimeType: 'text/html',
        required: [
          { path: 'title', type: 'string' },
          { path: 'links', type: 'array' },
        ],
      },
      via: 'rendered',
    })
    const execute = createRenderedExecutor({ pool })
    const scope = { 'input.p0': slug }
    const outcome = await execute(pageRead, scope, { login: null }, new AbortController().signal)
    expect(outcome.ok).toBe(true)
    const view = (outcome as { result: { title: string; text: string; links: unknown[] } }).result
    expect(view.title).toContain(record.toolName)
    expect(view.text).toContain(record.toolName)
    // The related tools exist only after the page's script fetched them.
    const relatedHref = `${directory.url}/tool/${encodeURIComponent(related[0]!.slug.current)}`
    expect(view.links).toContainEqual({ text: related[0]!.toolName, href: relatedHref })
    const plain = await executeHttp(pageRead, scope, sendWithUndici, new AbortController().signal)
    expect(plain.ok).toBe(true)
    expect((plain as { result: { links: unknown[] } }).result.links).not.toContainEqual({
      text: related[0]!.toolName,
      href: relatedHref,
    })
    expect(pool.stats()).toMatchObject({ leased: 0, waiting: 0 })
  })

  it('judges a rendered sign-in page and an unreachable site like the HTTP path', async () => {
    const orders = await startOrdersSite()
    const execute = createRenderedExecutor({ pool })
    const signal = new AbortController().signal
    try {
      // Without a login /orders redirects to the sign-in form.
      const page = tool(orders.host, {
        url: `${orders.url}/orders`,
        result: { kind: 'document', page: true },
        verify: { status: [200, 299], mimeType: 'text/html', required: [] },
      })
      expect(await execute(page, {}, { login: null }, signal)).toMatchObject({
        ok: false,
        code: 'session_or_permission',
      })
      // With the saved login the orders API answers through the page's fetch.
      const read = await execute(
        ordersTool(orders),
        {},
        { login: await aliceLogin(orders) },
        signal,
      )
      expect(read).toMatchObject({ ok: true })
      // A page read behind the JS challenge: the page's script clears it and the page renders.
      orders.switches.fault = 'bot_check'
      const login = await aliceLogin(orders).catch(() => null)
      expect(login).toBeNull()
      orders.switches.fault = null
      const saved = await aliceLogin(orders)
      orders.switches.fault = 'bot_check'
      const behind = await execute(page, {}, { login: saved }, signal)
      expect(behind).toMatchObject({ ok: true, result: { title: 'Orders – Parcel & Co.' } })
      expect(await execute(page, {}, { login: null }, signal)).toMatchObject({
        ok: false,
        code: 'session_or_permission',
      })
      orders.switches.fault = null
    } finally {
      await orders.close()
    }
    const gone = tool(orders.host, { url: `${orders.url}/api/orders` })
    expect(await execute(gone, {}, { login: null }, signal)).toMatchObject({
      ok: false,
      code: 'network_error',
    })
    const offSite = tool(orders.host, { url: 'http://127.0.0.2:9/api/orders' })
    expect(await execute(offSite, {}, { login: null }, signal)).toMatchObject({
      ok: false,
      code: 'destination_denied',
    })
  })

  it('maps a page that does not load within the limit to render_failed', async () => {
    const orders = await startOrdersSite()
    try {
      orders.switches.delayMs = 600_000
      const execute = createRenderedExecutor({ pool, pageLoadTimeoutMs: 1_000 })
      // A fetch that never answers within the limit, on a read: the site is unreachable.
      const read = await execute(
        ordersTool(orders),
        {},
        { login: await aliceLogin(orders) },
        new AbortController().signal,
      )
      expect(read).toMatchObject({ ok: false, code: 'network_error' })
      const page = tool(orders.host, {
        url: `${orders.url}/api/orders`,
        result: { kind: 'document', page: true },
        verify: { status: [200, 299], mimeType: 'text/html', required: [] },
      })
      const slow = await execute(page, {}, { login: null }, new AbortController().signal)
      expect(slow).toMatchObject({ ok: false, code: 'render_failed' })
      expect((slow as { message: string }).message).toContain('within 1 s')
    } finally {
      await orders.close()
    }
  })
})

describe('browser capacity with a real Chromium', () => {
  it('refuses at once without waiting, after waitMs with waiting, drops an aborted waiter, and closes', async () => {
    const orders = await startOrdersSite()
    const pool = createBrowserPool({ chromiumPath: () => CHROMIUM, capacity: 1, waitMs: 500 })
    try {
      orders.switches.delayMs = 600_000
      const execute = createRenderedExecutor({ pool })
      const login = await aliceLogin(orders)
      const holding = execute(
        ordersTool(orders, 'rendered'),
        {},
        { login },
        new AbortController().signal,
      )
      await until(() => orders.state.requestCount('/api/orders') > 0)
      expect(pool.stats().leased).toBe(1)

      const refused = await pool
        .acquire(new AbortController().signal, { wait: false })
        .catch((e: unknown) => e)
      expect(refused).toMatchObject({ code: 'browser_capacity', waited: false })

      const waited = await execute(
        ordersTool(orders, 'rendered'),
        {},
        { login },
        new AbortController().signal,
      )
      expect(waited).toMatchObject({
        ok: false,
        code: 'browser_capacity',
        waited: true,
        retryAfterSeconds: 30,
      })

      const leaving = new AbortController()
      const waiter = pool.acquire(leaving.signal, { wait: true })
      expect(pool.stats().waiting).toBe(1)
      leaving.abort(new Error('caller went away'))
      await expect(waiter).rejects.toThrow('caller went away')
      expect(pool.stats().waiting).toBe(0)

      const queued = pool
        .acquire(new AbortController().signal, { wait: true })
        .catch((e: unknown) => e)
      await pool.close()
      expect(await queued).toMatchObject({ message: expect.stringContaining('closed') })
      // The held run ends once its context is gone, and the slot is free again.
      const ended = await holding
      expect(ended.ok).toBe(false)
      expect(pool.stats()).toEqual({ leased: 0, waiting: 0, running: false })
    } finally {
      await pool.close()
      await orders.close()
    }
  })
})

describe('rendered runs through the core', () => {
  let home: string
  let core: Core
  let base: string
  let key: string
  let orders: OrdersSite

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-rendered-'))
    orders = await startOrdersSite()
    core = createCore({
      home,
      port: 0,
      headless: true,
      rendererDir: null,
      keychain: null,
      env: { ...process.env, SITECALL_CHROMIUM: CHROMIUM },
      browserCapacity: 1,
      browserWaitMs: 500,
    })
    base = await core.listen()
    key = core.store.keys.create(
      { id: 'key_rendered', tenant: LOCAL_TENANT, label: 't' },
      Date.now(),
    ).key
    await saveTestLogin(core, LOCAL_TENANT, orders.host, await aliceLogin(orders))
  })
  afterAll(async () => {
    await orders?.close()
    await core?.close()
    rmSync(home, { recursive: true, force: true })
  })

  const call = (t: ToolSpec) =>
    fetch(`${base}/api/v1/sites/${t.siteHost}/call/${t.name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    })

  it('retries a read that met a bot check once in the browser, which passes it', async () => {
    const read = ordersTool(orders)
    core.store.tools.save(read)
    orders.switches.fault = 'bot_check'
    try {
      const { state: login } = await core.logins.load(LOCAL_TENANT, orders.host)
      expect(login).not.toBeNull()
      const plain = await executeHttp(read, {}, sendWithUndici, new AbortController().signal, {
        login,
      })
      expect(plain).toMatchObject({ ok: false, code: 'challenge' })

      const res = await call(read)
      const run = (await res.json()) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(res.status).toBe(200)
      expect(run).toMatchObject({ status: 'succeeded', via: 'rendered' })
      expect(run.result.orders.map((o: { item: string }) => o.item)).toContain('Blue ceramic mug')
      const polled = await fetch(`${base}/api/v1/runs/${run.runId}`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(await polled.json()).toMatchObject({ status: 'succeeded', via: 'rendered' })
    } finally {
      orders.switches.fault = null
    }
  })

  it('answers 503 browser_capacity with Retry-After when the call waited for a browser', async () => {
    const slow = ordersTool(orders, 'rendered')
    core.store.tools.save(slow)
    orders.switches.delayMs = 600_000
    try {
      const before = orders.state.requestCount('/api/orders')
      const first = call(slow)
      await until(() => orders.state.requestCount('/api/orders') > before)
      const res = await call(slow)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('30')
      const body = (await res.json()) as { error: { code: string; runId: string } }
      expect(body.error.code).toBe('browser_capacity')
      expect(body.error.runId).toMatch(/^lrun_/)
      orders.switches.delayMs = 0
      void first.catch(() => {})
    } finally {
      orders.switches.delayMs = 0
    }
  })
})
