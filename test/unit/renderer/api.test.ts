import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AppError, createClient, createHttpTransport } from '../../../src/renderer/api'

interface Seen {
  method: string
  url: string
  authorization: string | undefined
  body: unknown
}

const readBody = async (request: IncomingMessage) => {
  let text = ''
  for await (const chunk of request) text += String(chunk)
  return text ? (JSON.parse(text) as unknown) : null
}

let server: Server
let base: string
const seen: Seen[] = []

// The far end stands in for `/app-api`: an AppResult per method, or the REST envelope on no token.
beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const { method = '', url = '', headers } = request
      seen.push({ method, url, authorization: headers.authorization, body })
      response.setHeader('content-type', 'application/json')
      if (headers.authorization !== 'Bearer owner-token') {
        response.statusCode = 401
        response.end(JSON.stringify({ error: { code: 'unauthorized', message: 'No token.' } }))
      } else if (url === '/app-api/tools.list') {
        response.end(JSON.stringify({ ok: true, value: [{ id: 't1', name: 'dir__search' }] }))
      } else {
        const error = { code: 'not_found', message: 'No tool t9.', id: 't9' }
        response.end(JSON.stringify({ ok: false, error }))
      }
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((done) => server.close(() => done())))

const client = (token: string | null) =>
  createClient(createHttpTransport(fetch, () => token, { baseUrl: base }))

describe('the web transport of the app contract', () => {
  it('posts to /app-api/<method> with the bearer token and unwraps {ok:true,value}', async () => {
    seen.length = 0
    const tools = await client('owner-token').invoke('tools.list', {})
    expect(tools).toEqual([{ id: 't1', name: 'dir__search' }])
    expect(seen).toEqual([
      { method: 'POST', url: '/app-api/tools.list', authorization: 'Bearer owner-token', body: {} },
    ])
  })

  it('throws an AppError with the code, message and details of {ok:false,error}', async () => {
    const failure = client('owner-token').invoke('tools.get', { id: 't9' })
    await expect(failure).rejects.toBeInstanceOf(AppError)
    await expect(failure).rejects.toMatchObject({
      code: 'not_found',
      message: 'No tool t9.',
      details: { id: 't9' },
    })
    expect(seen.at(-1)?.body).toEqual({ id: 't9' })
  })

  it('throws the code of a refusal sent as the REST error envelope', async () => {
    await expect(client(null).invoke('tools.list', {})).rejects.toMatchObject({
      code: 'unauthorized',
    })
  })

  it('reports an unreachable server as unavailable', async () => {
    const transport = createHttpTransport(fetch, () => 'owner-token', {
      baseUrl: 'http://127.0.0.1:1',
    })
    await expect(createClient(transport).invoke('app.info', {})).rejects.toMatchObject({
      code: 'unavailable',
    })
  })

  it('reopens the event stream with the current token once the browser gave up on it', () => {
    vi.useFakeTimers()
    try {
      const opened: Array<{
        url: string
        readyState: number
        onmessage: ((m: MessageEvent<string>) => void) | null
        onerror: ((e: Event) => void) | null
        close: () => void
      }> = []
      let token = 'first-token'
      const transport = createHttpTransport(fetch, () => token, {
        baseUrl: base,
        openEvents: (url) => {
          const source = { url, readyState: 1, onmessage: null, onerror: null, close() {} }
          opened.push(source)
          return source
        },
      })
      const received: unknown[] = []
      transport.on('runs.updated', (data) => received.push(data))
      expect(opened.map((o) => o.url)).toEqual([`${base}/app-api/events?token=first-token`])
      // A passing drop: the browser reconnects by itself, nothing to do.
      opened[0]!.onerror!(new Event('error'))
      vi.advanceTimersByTime(5_000)
      expect(opened).toHaveLength(1)
      // The token ran out: the browser's retry got a 401 and closed the stream for good.
      token = 'fresh-token'
      opened[0]!.readyState = 2
      opened[0]!.onerror!(new Event('error'))
      vi.advanceTimersByTime(5_000)
      expect(opened.map((o) => o.url)).toEqual([
        `${base}/app-api/events?token=first-token`,
        `${base}/app-api/events?token=fresh-token`,
      ])
      const message = { data: JSON.stringify({ event: 'runs.updated', data: { n: 1 } }) }
      opened[1]!.onmessage!(message as MessageEvent<string>)
      expect(received).toEqual([{ n: 1 }])
    } finally {
      vi.useRealTimers()
    }
  })
})
