import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBrowserPool, type BrowserPool } from '../../../src/main/engine/browserPool'
import { startGuardProxy, type GuardProxy } from '../../../src/main/engine/guardProxy'
import { createRenderedExecutor } from '../../../src/main/engine/renderedExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'

let site: Server
let host: string
const hits: string[] = []
let pool: BrowserPool
let proxy: GuardProxy
/** Every destination the guard refused, across runs. */
const refused: string[] = []

beforeAll(async () => {
  // The site's own page runs a script that reaches for the cloud metadata address.
  site = createServer((req, res) => {
    hits.push(req.url ?? '')
    if (req.url === '/')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<p>shop</p><script>fetch('http://169.254.169.254/latest/meta-data/').catch(() => {})</script>`,
        )
    else if (req.url === '/api/items')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":["a","b"]}')
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(site.address() as AddressInfo).port}`
  // `shop.example` is a public name that resolves to this machine (rebinding).
  proxy = await startGuardProxy(async (name) =>
    name === 'shop.example' ? [{ address: '127.0.0.1', family: 4 }] : [],
  )
  pool = createBrowserPool({ chromiumPath: () => '/usr/bin/chromium' })
})

afterAll(async () => {
  await pool.close()
  await proxy.close()
  site.close()
})

/** The rendered executor over the test's guard proxy, noting what it refused. */
const executor = () =>
  createRenderedExecutor({
    pool,
    guardProxy: async () => ({
      settingsFor: (check, onDenied) =>
        proxy.settingsFor(check, (denied, reason) => {
          refused.push(denied)
          onDenied?.(denied, reason)
        }),
      close: () => proxy.close(),
    }),
  })

/** A rendered read of `url` on `siteHost` verifying a JSON `items` list. */
function itemsTool(siteHost: string, url: string): ToolSpec {
  return {
    id: crypto.randomUUID(),
    siteHost,
    name: 'shop__list_items',
    capabilityId: `${siteHost}/list_items`,
    intent: 'list the items',
    description: 'list the items',
    version: '2026.11.25',
    mutating: false,
    status: 'verified',
    inputs: { type: 'object', properties: {}, required: [] },
    steps: [
      { id: 'target', request: { method: 'GET', url, headers: {}, body: null }, extract: [] },
    ],
    output: { type: 'object' },
    verify: {
      status: [200, 299],
      mimeType: 'application/json',
      required: [{ path: 'items', type: 'array' }],
    },
    via: 'rendered',
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
  }
}

describe('the rendered executor behind the guard proxy (issue 13 item 3)', () => {
  it("runs a local site's tool and refuses its page's request to the metadata address", async () => {
    const outcome = await executor()(
      itemsTool(host, `http://${host}/api/items`),
      {},
      { login: null },
      new AbortController().signal,
    )
    expect(outcome).toMatchObject({ ok: true })
    expect(refused).toContain('169.254.169.254:80')
  })

  it('fails a public site’s tool whose name leads to this machine: destination_denied', async () => {
    const before = hits.length
    const port = host.split(':')[1]!
    const outcome = await executor()(
      itemsTool(`shop.example:${port}`, `http://shop.example:${port}/api/items`),
      {},
      { login: null },
      new AbortController().signal,
    )
    expect(outcome).toMatchObject({ ok: false, code: 'destination_denied' })
    expect(refused).toContain(`shop.example:${port}`)
    expect(hits.length).toBe(before)
  })
})
