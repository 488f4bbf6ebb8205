// The floor under the engine's figures (issue 12): a bare Fastify route that forwards the same
// search to the directory fixture with undici, parses the answer once (as verifying it would) and
// sends the bytes back in a run-shaped body. No auth, store, verification or billing: the cost
// of one more HTTP hop in this process, which every proxy of the site pays before doing anything.
// Measured with the same client and in the same run as the direct call and Sitecall.
import Fastify from 'fastify'
import { Agent, request } from 'undici'
import type { Call } from './clients'
import type { BenchEnv } from './setup'

export interface Forwarder {
  call: Call
  close(): Promise<void>
}

/** Starts the bare forwarder on 127.0.0.1 (port 0) in front of `env`'s fixture. */
export async function startForwarder(env: BenchEnv): Promise<Forwarder> {
  const outbound = new Agent({ keepAliveTimeout: 30_000 })
  const inbound = new Agent({ keepAliveTimeout: 30_000 })
  const app = Fastify()
  const searchUrl = `${env.site.url}/api/search`
  app.post<{ Body: { query?: unknown } }>('/forward', async (req, reply) => {
    const res = await request(searchUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: req.body.query, verified: false, page: 1, perPage: 12 }),
      dispatcher: outbound,
    })
    const text = await res.body.text()
    JSON.parse(text)
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"status":"succeeded","result":${text}}`)
  })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const call: Call = async (query) => {
    const res = await request(`${base}/forward`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query }),
      dispatcher: inbound,
    })
    const body = (await res.body.json()) as { status?: string }
    if (res.statusCode === 200 && body.status === 'succeeded') return { ok: true }
    return { ok: false, reason: `HTTP ${res.statusCode}` }
  }
  return {
    call,
    close: async () => {
      await app.close()
      await Promise.all([outbound.close(), inbound.close()])
    },
  }
}
