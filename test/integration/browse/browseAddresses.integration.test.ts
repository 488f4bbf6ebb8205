import { createServer, type Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { closeServer, listenLocal, portOf } from '../../fixtures/harness/localServer'
import { connectHttp } from '../mcp/mcpClients'

let h: Harness
let allowed: Server
let inside: Server
/** Requests the local app that was not allowed received: the guard refuses before connecting. */
let insideHits = 0
const clients: Client[] = []

beforeEach(async () => {
  h = await startHarness()
  h.core.store.localSites.remove('local', '127.0.0.1')
  // A local app the owner did not allow: its text must never come back to an API caller.
  insideHits = 0
  inside = createServer((_req, res) => {
    insideHits++
    res
      .writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' })
      .end('<html><body><p>internal secret page</p></body></html>')
  })
  await listenLocal(inside)
  const insideUrl = `http://127.0.0.1:${portOf(inside)}/`
  allowed = createServer((req, res) => {
    if (req.url === '/redirect') return res.writeHead(302, { location: insideUrl }).end()
    if (req.url === '/metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    if (req.url === '/loader')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body><p>loader</p><script>fetch('${insideUrl}')</script></body></html>`)
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><body><p>allowed</p></body></html>')
  })
  await listenLocal(allowed)
  h.core.store.localSites.add('local', `127.0.0.1:${portOf(allowed)}`, Date.now())
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await h.close()
  await closeServer(allowed)
  await closeServer(inside)
})

async function connect() {
  const client = await connectHttp(h.base, { key: h.key })
  clients.push(client)
  return client
}

const refusalCode = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(McpError)
  return ((error as McpError).data as { code: string }).code
}

describe('browse judges the address the browser connected to (issue 13 item 3)', () => {
  it('an allowed site that redirects to a local app not allowed shows nothing of it', async () => {
    const client = await connect()
    const url = `http://127.0.0.1:${portOf(allowed)}/redirect`
    const code = await refusalCode(
      client.callTool({ name: 'service_browse_open', arguments: { url } }),
    )
    expect(code).toBe('destination_denied')
    expect(insideHits).toBe(0)
  })

  it('an allowed site that redirects to the metadata address: refused, never reached', async () => {
    const client = await connect()
    const url = `http://127.0.0.1:${portOf(allowed)}/metadata`
    const error = await client.callTool({ name: 'service_browse_open', arguments: { url } }).then(
      () => null,
      (e: unknown) => e as McpError,
    )
    expect((error?.data as { code: string }).code).toBe('destination_denied')
    expect(error?.message).toContain('169.254.169.254')
  })

  it('a page that loads from a local app not allowed ends the session at the next snapshot', async () => {
    const client = await connect()
    const opened = await client.callTool({
      name: 'service_browse_open',
      arguments: { url: `http://127.0.0.1:${portOf(allowed)}/` },
    })
    const { sessionId } = opened.structuredContent as { sessionId: string }
    const code = await refusalCode(
      client.callTool({
        name: 'act',
        arguments: {
          sessionId,
          action: 'navigate',
          value: `http://127.0.0.1:${portOf(allowed)}/loader`,
        },
      }),
    )
    expect(code).toBe('destination_denied')
    expect(await refusalCode(client.callTool({ name: 'snapshot', arguments: { sessionId } }))).toBe(
      'session_expired',
    )
    expect(insideHits).toBe(0)
  })
})
