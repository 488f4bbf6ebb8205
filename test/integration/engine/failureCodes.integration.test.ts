// Each failure code of the interface's "Why a run failed" from a real signal of a fixture server.
// Already proven elsewhere, not repeated here: the directory fixture's 401, 403, 429 with its
// Retry-After, sign-in page, drift, empty answer (outcome_not_verified), 404, 500, connection reset
// with the read's one retry counted at the site, and connection refused
// (test/integration/api/runFailures.integration.test.ts). Left to their owners: policy_denied
// (the vault, issue 6), browser_capacity and render_failed (the rendered executor).
import { randomUUID } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addressDenied, isPrivateAddress } from '../../../src/main/engine/destination'
import { createRunEngine } from '../../../src/main/engine/runEngine'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'
import { startOrdersSite, type OrdersSite } from '../../fixtures/sites/orders'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { callTool, searchRequests } from '../../fixtures/harness/http'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { saveTestLogin, signInLinkHost } from '../logins/loginHelpers'
import { bearerLogin, listOrdersTool, ordersTool, requestsTo } from './ordersTools'

const TOTP_USER = {
  username: 'bob',
  password: 'builder',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
}

let h: Harness
let orders: OrdersSite

beforeEach(async () => {
  h = await startHarness()
  orders = await startOrdersSite({
    users: [{ username: 'alice', password: 'wonderland' }, TOTP_USER],
  })
})

afterEach(async () => {
  await orders.close()
  await h.close()
})

/** Saves `tool` (verified) in the core and calls it over surface A; returns the finished run. */
async function call(tool: ToolSpec, body: Record<string, unknown> = {}): Promise<Run> {
  if (!h.core.store.tools.get(tool.id)) h.core.store.tools.save(tool)
  const answer = await callTool<Run>(h.base, h.key, tool, body)
  expect(answer.status).toBe(200)
  return answer.body
}

const saveBearerLogin = async () =>
  saveTestLogin(h.core, 'local', orders.host, await bearerLogin(orders))

/** Signs in through the cookie form and returns the storage state a browser would keep. */
async function cookieLogin(): Promise<StorageState> {
  const res = await fetch(`${orders.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=alice&password=wonderland',
    redirect: 'manual',
  })
  const session = /parcel_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')
  if (!session) throw new Error(`No session cookie (HTTP ${res.status}).`)
  return {
    cookies: [
      { name: 'parcel_session', value: session[1]!, domain: '127.0.0.1', path: '/', expires: -1 },
    ],
    origins: [],
  }
}

/** A page read of /orders (the signed-in list page) that takes the session cookie of the login. */
function ordersPageTool(): ToolSpec {
  const tool = ordersTool(orders, {
    name: 'orders__read_orders_page',
    method: 'GET',
    path: '/orders',
  })
  tool.steps[0]!.request.headers = { accept: 'text/html' }
  tool.login = { cookies: ['parcel_session'], values: [] }
  tool.result = { kind: 'document', page: true }
  tool.verify = {
    status: [200, 299],
    mimeType: 'text/html',
    required: [{ path: 'title', type: 'string' }],
  }
  return tool
}

/** "Sign in, then list my orders": the login form's POST, then the JSON list with its cookie. */
function signInThenListTool(): ToolSpec {
  const tool = ordersTool(orders, {
    name: 'orders__sign_in_list',
    method: 'GET',
    path: '/api/orders',
  })
  tool.inputs = {
    type: 'object',
    properties: {
      username: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'username' },
      password: { type: 'string', 'x-slot': 'p1', 'x-in': 'body', 'x-path': 'password' },
    },
    required: ['username', 'password'],
  }
  tool.steps = [
    {
      id: 'd1',
      request: {
        method: 'POST',
        url: `${orders.url}/login`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: { kind: 'form', template: { username: '{{input.p0}}', password: '{{input.p1}}' } },
      },
      extract: [],
    },
    {
      ...tool.steps[0]!,
      request: { ...tool.steps[0]!.request, headers: { accept: 'application/json' } },
    },
  ]
  delete tool.login
  return tool
}

/** The run carries a one-time sign-in link of this core, minted for the orders site. */
const expectSignInToOrders = (run: Run) =>
  expect(signInLinkHost(h.core, h.base, run.signIn?.url)).toBe(orders.host)

describe('session_or_permission and mfa_required', () => {
  it('fails session_or_permission with signIn when the site redirects the page to /login', async () => {
    await saveTestLogin(h.core, 'local', orders.host, await cookieLogin())
    const tool = ordersPageTool()
    expect((await call(tool)).status).toBe('succeeded')
    orders.expireSessions()
    const run = await call(tool)
    expect(run).toMatchObject({
      status: 'failed',
      error: { code: 'session_or_permission', message: expect.stringContaining('/login') },
    })
    expectSignInToOrders(run)
  })

  it('fails session_or_permission with signIn, sending nothing, when no login is saved', async () => {
    const run = await call(listOrdersTool(orders))
    expect(run).toMatchObject({ status: 'failed', error: { code: 'session_or_permission' } })
    expectSignInToOrders(run)
    expect(requestsTo(orders, 'GET', '/api/spa/orders')).toHaveLength(0)
  })

  it('fails mfa_required with signIn when signing in leads to the one-time-code page', async () => {
    const tool = signInThenListTool()
    const alice = await call(tool, { username: 'alice', password: 'wonderland' })
    expect(alice).toMatchObject({ status: 'succeeded', result: { orders: expect.any(Array) } })

    const bob = await call(tool, { username: TOTP_USER.username, password: TOTP_USER.password })
    expect(bob).toMatchObject({
      status: 'failed',
      error: { code: 'mfa_required', message: expect.stringContaining('/login/otp') },
    })
    expectSignInToOrders(bob)
    // The list was never asked for bob: the run stopped at the second factor.
    expect(requestsTo(orders, 'GET', '/api/orders')).toHaveLength(1)
  })
})

describe('rate_limited, challenge, drift, not_found', () => {
  beforeEach(saveBearerLogin)

  it("fails rate_limited with the site's Retry-After in the message, and 60 s when it names none", async () => {
    const tool = listOrdersTool(orders)
    orders.switches.fault = 'rate_limited'
    orders.switches.retryAfterSeconds = 42
    expect(await call(tool)).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limited', message: expect.stringContaining('wait 42 s') },
      signIn: null,
    })
    orders.switches.retryAfterSeconds = null
    expect(await call(tool)).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limited', message: expect.stringContaining('wait 60 s') },
    })
  })

  it('fails a write that meets a bot check with challenge; nothing is written', async () => {
    const write = ordersTool(orders, {
      name: 'orders__create_order',
      method: 'POST',
      path: '/api/spa/orders',
      mutating: true,
      body: { item: 'Lamp', quantity: 1, shipping: 'standard' },
      verify: { required: [{ path: 'order.id', type: 'string' }] },
    })
    h.core.store.tools.save(write)
    const before = orders.state.orders.list('alice', null).length
    orders.switches.fault = 'bot_check'
    const run = await h.core.engine.start(write, {}, { tenant: 'local', allowMutation: true }).done
    expect(run).toMatchObject({ status: 'failed', error: { code: 'challenge' }, signIn: null })
    expect(orders.state.orders.list('alice', null)).toHaveLength(before)
  })

  it('fails a read that meets a bot check with challenge when no browser can retry it', async () => {
    const tool = listOrdersTool(orders)
    h.core.store.tools.save(tool)
    const engine = bareEngine()
    orders.switches.fault = 'bot_check'
    const run = await engine.start(tool, {}, { tenant: 'local' }).done
    expect(run).toMatchObject({ status: 'failed', error: { code: 'challenge' }, via: 'http' })
  })

  it('fails schema_or_auth_drift when the orders answer has renamed fields', async () => {
    orders.switches.fault = 'drift'
    expect(await call(listOrdersTool(orders))).toMatchObject({
      status: 'failed',
      error: { code: 'schema_or_auth_drift', message: expect.stringContaining('orders') },
    })
  })

  it('fails not_found when the site answers 404 for the order asked for', async () => {
    const tool = ordersTool(orders, {
      name: 'orders__get_order',
      method: 'GET',
      path: '/api/spa/orders/{{input.p0}}',
      inputs: { id: { type: 'string', 'x-slot': 'p0', 'x-in': 'path', 'x-path': '3' } },
      verify: { required: [{ path: 'order.id', type: 'string' }] },
    })
    const existing = orders.state.orders.list('alice', null)[0]!.id
    expect(await call(tool, { id: existing })).toMatchObject({
      status: 'succeeded',
      result: { order: { id: existing } },
    })
    expect(await call(tool, { id: 'ord_99999' })).toMatchObject({
      status: 'failed',
      error: { code: 'not_found', message: expect.stringContaining('404') },
    })
  })
})

describe('network_error and lost writes', () => {
  it('never retries a write whose connection was reset: outcome_unknown, the site saw one request', async () => {
    const { tool: search } = await makeSearchTool(h.core, h.site)
    const write: ToolSpec = {
      ...search,
      id: randomUUID(),
      name: 'local__post_search_write',
      mutating: true,
    }
    h.core.store.tools.save(write)
    const before = searchRequests(h.site).length
    h.site.setFault('reset')
    const run = await h.core.engine.start(
      write,
      { query: 'image' },
      { tenant: 'local', allowMutation: true },
    ).done
    expect(run.status).toBe('outcome_unknown')
    expect(run.effects).toEqual([expect.objectContaining({ method: 'POST', status: null })])
    expect(searchRequests(h.site)).toHaveLength(before + 1)
    // A read of the same request is retried once (runFailures counts it too): two more.
    const read = await h.core.engine.start(search, { query: 'image' }, { tenant: 'local' }).done
    expect(read.error?.code).toBe('network_error')
    expect(searchRequests(h.site)).toHaveLength(before + 3)
  })
})

describe('destination_denied', () => {
  beforeEach(saveBearerLogin)

  it('refuses a step whose URL leaves the tool site; the other host receives nothing', async () => {
    const tool = ordersTool(orders, {
      name: 'orders__exfiltrate',
      method: 'POST',
      path: '/api/spa/orders',
      url: `${h.site.url}/api/search`,
      body: { query: 'x' },
    })
    const before = h.site.requests.length
    expect(await call(tool)).toMatchObject({
      status: 'failed',
      error: { code: 'destination_denied', message: expect.stringContaining(h.site.host) },
      signIn: null,
    })
    expect(h.site.requests).toHaveLength(before)
  })

  it('refuses a tool of a public site whose name resolves to a loopback or private address', async () => {
    const asked: string[] = []
    const engine = bareEngine(async (name) => {
      asked.push(name)
      return [{ address: '127.0.0.1', family: 4 }]
    })
    const siteHost = `orders.example.com:${orders.port}`
    const tool = ordersTool(orders, {
      name: 'orders__get_orders',
      method: 'GET',
      path: '/api/spa/orders',
      siteHost,
      url: `http://${siteHost}/api/spa/orders`,
    })
    h.core.store.tools.save(tool)
    await saveTestLogin(h.core, 'local', siteHost, await bearerLogin(orders))
    const run = await engine.start(tool, {}, { tenant: 'local' }).done
    expect(run).toMatchObject({
      status: 'failed',
      error: { code: 'destination_denied', message: expect.stringContaining('127.0.0.1') },
    })
    expect(asked).toEqual(['orders.example.com'])
    expect(run.effects).toEqual([])
  })

  it('lets tools of loopback and private sites reach them, and public addresses through', async () => {
    const never = async (): Promise<never> => {
      throw new Error('a local site is not resolved')
    }
    expect(await addressDenied(`${orders.url}/api/orders`, orders.host, never)).toBeNull()
    expect(await addressDenied('http://localhost:8080/x', 'localhost:8080', never)).toBeNull()
    expect(await addressDenied('http://10.1.2.3/x', '10.1.2.3', never)).toBeNull()
    const publicAnswer = async () => [{ address: '93.184.215.14', family: 4 }]
    expect(
      await addressDenied('https://shop.example.com/x', 'shop.example.com', publicAnswer),
    ).toBeNull()
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::1', family: 6 },
    ]
    expect(await addressDenied('https://shop.example.com/x', 'shop.example.com', mixed)).toContain(
      'fd00::1',
    )
    for (const inside of [
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '127.0.0.53',
      '0.0.0.0',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect([inside, isPrivateAddress(inside)]).toEqual([inside, true])
    for (const outside of [
      '8.8.8.8',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect([outside, isPrivateAddress(outside)]).toEqual([outside, false])
  })
})

/** An engine on the core's store with no browser to fall back to, and the given resolver. */
function bareEngine(lookup?: Parameters<typeof createRunEngine>[0]['lookup']) {
  const ulid = monotonicFactory()
  return createRunEngine({
    runs: h.core.store.runs,
    tools: h.core.store.tools,
    logins: h.core.logins,
    clock: Date.now,
    ulid: () => ulid(),
    ...(lookup ? { lookup } : {}),
  })
}
