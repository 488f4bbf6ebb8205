import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { executeHttp, sendWithUndici } from '../../../src/main/engine/httpExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'

/**
 * A shop that issues a new CSRF token (and its cookie) on every page load and accepts a write
 * only with the latest token, the matching cookie and the session cookie of the login.
 */
let server: Server
let origin = ''
let issued = 0
let signedOut = false
const created: Array<{ item: string; requestId: string | undefined }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '')
        .split(';')
        .map((p) => p.trim().split('='))
        .filter((p) => p.length === 2),
    )
    if (req.url === '/orders') {
      if (signedOut || cookies.sid !== 'alice-session') {
        res.writeHead(302, { location: '/login' }).end()
        return
      }
      const token = `tok-${++issued}-abcdef`
      res.writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': [`csrf=${token}; Path=/; HttpOnly`, 'seen=1; Path=/'],
      })
      res.end(`<html><head><meta name="csrf-token" content="${token}"></head><body></body></html>`)
      return
    }
    if (req.url?.startsWith('/api/orders') && req.method === 'POST') {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const latest = `tok-${issued}-abcdef`
        if (req.headers['x-csrf-token'] !== latest || cookies.csrf !== latest) {
          res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"csrf"}')
          return
        }
        const { item } = JSON.parse(body) as { item: string }
        created.push({ item, requestId: req.headers['x-request-id'] as string | undefined })
        res.writeHead(201, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ order: { id: `o${created.length}`, item } }))
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function createOrderTool(): ToolSpec {
  const host = new URL(origin).host
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    siteHost: host,
    name: 'shop__post_orders',
    capabilityId: `${host}/shop__post_orders`,
    intent: 'create an order',
    description: 'create an order',
    version: '2026.11.23',
    mutating: true,
    status: 'candidate',
    inputs: {
      type: 'object',
      properties: { item: { type: 'string', 'x-slot': 'p0', 'x-in': 'body', 'x-path': 'item' } },
      required: ['item'],
    },
    steps: [
      {
        id: 'd1',
        request: { method: 'GET', url: `${origin}/orders`, headers: {}, body: null },
        extract: [{ name: 'csrf_token', from: 'meta', path: 'csrf-token' }],
      },
      {
        id: 'target',
        request: {
          method: 'POST',
          url: `${origin}/api/orders?ts={{gen.now_ms}}`,
          headers: {
            'content-type': 'application/json',
            'x-csrf-token': '{{step.d1.csrf_token}}',
            'x-request-id': '{{gen.uuid}}',
          },
          body: { kind: 'json', template: { item: '{{input.p0}}' } },
        },
        extract: [],
      },
    ],
    login: { cookies: ['sid'], values: [] },
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'order', type: 'object' }],
    },
    via: 'http',
    evidence: {
      traceId: 'trc_X',
      targetExchangeId: 'exc_2',
      exchangeIds: ['exc_1', 'exc_2'],
      score: 1,
      signals: [],
      alternatives: [],
    },
    createdAt: 0,
    updatedAt: 0,
  }
}

const login = (): StorageState => ({
  cookies: [{ name: 'sid', value: 'alice-session', domain: '127.0.0.1', path: '/', expires: -1 }],
  origins: [],
})

describe('dependency steps over HTTP', () => {
  it('fetches a fresh CSRF token and cookie on every run and sends the login cookie', async () => {
    const tool = createOrderTool()
    const signal = new AbortController().signal
    const first = await executeHttp(tool, { 'input.p0': 'teapot' }, sendWithUndici, signal, {
      login: login(),
    })
    const second = await executeHttp(tool, { 'input.p0': 'kettle' }, sendWithUndici, signal, {
      login: login(),
    })
    expect(first).toMatchObject({ ok: true, result: { order: { id: 'o1', item: 'teapot' } } })
    expect(second).toMatchObject({ ok: true, result: { order: { id: 'o2', item: 'kettle' } } })
    expect(issued).toBe(2)
    expect(created[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(created[0]!.requestId).not.toBe(created[1]!.requestId)
  })

  it('fails session_or_permission before sending when the tool needs a login and none is saved', async () => {
    const before = issued
    const outcome = await executeHttp(
      createOrderTool(),
      { 'input.p0': 'teapot' },
      sendWithUndici,
      new AbortController().signal,
    )
    expect(outcome).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
    expect(issued).toBe(before)
  })

  it('fails session_or_permission when the dependency page redirects to sign-in', async () => {
    signedOut = true
    try {
      const outcome = await executeHttp(
        createOrderTool(),
        { 'input.p0': 'teapot' },
        sendWithUndici,
        new AbortController().signal,
        { login: login() },
      )
      expect(outcome).toMatchObject({ ok: false, code: 'session_or_permission', signIn: true })
    } finally {
      signedOut = false
    }
  })

  it('fails schema_or_auth_drift when the page no longer carries the token', async () => {
    const tool = createOrderTool()
    tool.steps[0]!.extract = [{ name: 'csrf_token', from: 'meta', path: 'x-token-gone' }]
    const count = created.length
    const outcome = await executeHttp(
      tool,
      { 'input.p0': 'x' },
      sendWithUndici,
      new AbortController().signal,
      {
        login: login(),
      },
    )
    expect(outcome).toMatchObject({ ok: false, code: 'schema_or_auth_drift' })
    expect(created).toHaveLength(count)
  })
})
