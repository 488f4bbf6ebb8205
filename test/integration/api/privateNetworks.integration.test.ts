import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { startHarness, type Harness } from '../../fixtures/harness/harness'
import { send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { connectHttp } from '../mcp/mcpClients'

let h: Harness
const clients: Client[] = []

beforeEach(async () => {
  h = await startHarness()
  // The harness allows its fixture sites; these tests start from an owner who allowed none.
  h.core.store.localSites.remove('local', '127.0.0.1')
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await h.close()
})

const indexJob = (url: string, key = h.key) =>
  send<ErrorAnswerBody>(h.base, 'POST', '/api/v1/index', { key, json: { url, intent: 'search' } })

const siteHost = () => new URL(h.site.url).host

describe('URLs from the API reach inside only where the owner allowed (issue 13 item 3)', () => {
  it('index jobs toward loopback, this host, private and metadata addresses are refused', async () => {
    for (const url of [
      h.site.url,
      'http://0.0.0.0:9/',
      'http://10.0.0.1/',
      'http://[::1]:9/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const answer = await indexJob(url)
      expect(answer.status, url).toBe(403)
      expect(answer.body.error.code, url).toBe('destination_denied')
    }
    expect(h.core.store.indexJobs.countSince('local', 0)).toBe(0)
  })

  it('refuses IPv6 forms that carry a private IPv4 address, carrier-grade NAT and benchmarking ranges (issue 26 item 1.6)', async () => {
    for (const url of [
      'http://[64:ff9b::7f00:1]:9/',
      'http://[::7f00:1]:9/',
      'http://[2002:7f00:1::1]:9/',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://100.64.0.1/',
      'http://198.18.0.1/',
    ]) {
      const answer = await indexJob(url)
      expect(answer.status, url).toBe(403)
      expect(answer.body.error.code, url).toBe('destination_denied')
    }
    expect(h.core.store.indexJobs.countSince('local', 0)).toBe(0)
  })

  it('the owner allows a local site in the app; metadata stays refused even when listed', async () => {
    const owner = h.core.ownerToken
    const byKey = await send(h.base, 'PUT', `/v1/local-sites/${siteHost()}`, { key: h.key })
    expect(byKey.status).toBe(403)
    const allowed = await send<{ host: string }>(h.base, 'PUT', `/v1/local-sites/${siteHost()}`, {
      key: owner,
    })
    expect(allowed.status).toBe(201)
    expect(allowed.body.host).toBe(siteHost())
    await send(h.base, 'PUT', '/v1/local-sites/169.254.169.254', { key: owner })
    const list = await send<{ sites: Array<{ host: string }> }>(h.base, 'GET', '/v1/local-sites', {
      key: owner,
    })
    expect(list.body.sites.map((s) => s.host)).toEqual([siteHost(), '169.254.169.254'])

    const job = await indexJob(h.site.url)
    expect(job.body.error?.code).not.toBe('destination_denied')
    expect([200, 202, 503]).toContain(job.status)
    expect((await indexJob('http://169.254.169.254/')).body.error.code).toBe('destination_denied')
    // Another port of the same machine is another site.
    const otherPort = `http://127.0.0.1:${Number(new URL(h.site.url).port) + 1}/`
    expect((await indexJob(otherPort)).body.error.code).toBe('destination_denied')

    const removed = await send(h.base, 'DELETE', `/v1/local-sites/${siteHost()}`, { key: owner })
    expect(removed.status).toBe(204)
    expect((await indexJob(h.site.url)).body.error.code).toBe('destination_denied')
  })

  it('MCP index and browse toward loopback are refused for a key', async () => {
    const client = await connectHttp(h.base, { key: h.key })
    clients.push(client)
    for (const [name, args] of [
      ['service_browse_open', { url: h.site.url }],
      ['service_index', { url: 'http://169.254.169.254/', intent: 'read' }],
    ] as const) {
      const error = await client.callTool({ name, arguments: args }).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error, name).toBeInstanceOf(McpError)
      expect(((error as McpError).data as { code: string }).code, name).toBe('destination_denied')
    }
  })
})
