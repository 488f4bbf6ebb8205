import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectedAddressDenied, toolSiteCheck } from '../../../src/main/engine/destination'
import { startGuardProxy, type GuardProxy } from '../../../src/main/engine/guardProxy'
import { chromiumArgs } from '../../../src/main/recorder/chromium'

const FLAGS = chromiumArgs()

/** A server on 127.0.0.1 port 0 answering `routes` by path; counts what it was asked. */
async function serve(
  routes: Record<string, (res: ServerResponse) => void>,
): Promise<{ server: Server; host: string; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    const route = routes[req.url ?? '']
    if (route) route(res)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

let proxy: GuardProxy
let allowed: Awaited<ReturnType<typeof serve>>
let other: Awaited<ReturnType<typeof serve>>
let dir: string
const html = (body: string) => (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end(body)
const redirect = (to: () => string) => (res: ServerResponse) =>
  res.writeHead(302, { location: to() }).end()

beforeAll(async () => {
  other = await serve({ '/secret': html('<p>SECRET OF ANOTHER PORT</p>') })
  allowed = await serve({
    '/': html('<p>allowed page</p>'),
    '/to-other': redirect(() => `http://${other.host}/secret`),
    '/to-metadata': redirect(() => 'http://169.254.169.254/latest/meta-data/'),
    '/fetches': (res) => {
      const port = other.host.split(':')[1]!
      html(`<p id="out">waiting</p><script>
        Promise.allSettled([
          fetch('http://10.23.45.67:8080/x'),
          fetch('http://127.0.0.1:${port}/secret'),
          fetch('http://rebound.test:${port}/secret'),
        ]).then(r => { document.getElementById('out').textContent = r.map(x => x.status).join(',') })
      </script>`)(res)
    },
  })
  // The name `rebound.test` resolves to the loopback address of the other server.
  proxy = await startGuardProxy(async (name) =>
    name === 'rebound.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
  )
  dir = mkdtempSync(join(tmpdir(), 'sitecall-guard-'))
})

afterAll(async () => {
  await proxy.close()
  allowed.server.close()
  other.server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A fresh Chromium whose requests go through the guard with `check`; collects refusals. */
async function browse(
  check: (url: string, address: string) => string | null,
  run: (context: BrowserContext) => Promise<void>,
): Promise<string[]> {
  const denied: string[] = []
  const { proxy: settings, release } = proxy.settingsFor(check, (host, reason) =>
    denied.push(`${host}: ${reason}`),
  )
  const context = await chromium.launchPersistentContext(mkdtempSync(join(dir, 'profile-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    proxy: settings,
  })
  try {
    await run(context)
  } finally {
    await context.close()
    release()
  }
  // Chromium may try a refused navigation twice: each destination counts once.
  return [...new Set(denied)]
}

/** An API caller's rule: only the allowed server is a local site the owner allowed. */
const apiCheck = (url: string, address: string) =>
  connectedAddressDenied(url, address, [allowed.host])

describe('the guard proxy (issue 13 item 3)', () => {
  it('lets the allowed local site through and refuses a redirect to another local port', async () => {
    const before = other.hits.length
    let body = ''
    const denied = await browse(apiCheck, async (context) => {
      const page = await context.newPage()
      const first = await page.goto(`http://${allowed.host}/`)
      expect(first?.status()).toBe(200)
      await page.goto(`http://${allowed.host}/to-other`).catch(() => null)
      body = await page.content()
    })
    expect(body).not.toContain('SECRET OF ANOTHER PORT')
    expect(other.hits.length).toBe(before)
    expect(denied).toEqual([expect.stringContaining(`${other.host}: `)])
  })

  it('never connects to a metadata address, even redirected there by an allowed site', async () => {
    const denied = await browse(apiCheck, async (context) => {
      const page = await context.newPage()
      await page.goto(`http://${allowed.host}/to-metadata`).catch(() => null)
    })
    expect(denied).toEqual([expect.stringMatching(/^169\.254\.169\.254:80: .*metadata/)])
  })

  it("refuses a page's own requests to a private address, another port and a rebound name", async () => {
    const before = other.hits.length
    const port = other.host.split(':')[1]!
    let statuses = ''
    const denied = await browse(apiCheck, async (context) => {
      const page = await context.newPage()
      await page.goto(`http://${allowed.host}/fetches`)
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'waiting')
      statuses = (await page.textContent('#out')) ?? ''
    })
    // Every fetch failed (rejected), none answered.
    expect(statuses).toBe('rejected,rejected,rejected')
    expect(other.hits.length).toBe(before)
    expect(denied.sort()).toEqual(
      [
        expect.stringMatching(/^10\.23\.45\.67:8080: /),
        expect.stringMatching(new RegExp(`^${other.host.replace(/\./g, '\\.')}: `)),
        expect.stringMatching(new RegExp(`^rebound\\.test:${port}: .*127\\.0\\.0\\.1`)),
      ].sort(),
    )
  })

  it("a run's browser follows the HTTP executor's rule: a local tool's site is reachable", async () => {
    const statuses: number[] = []
    const denied = await browse(toolSiteCheck(allowed.host), async (context) => {
      const page = await context.newPage()
      statuses.push((await page.goto(`http://${allowed.host}/to-other`))?.status() ?? 0)
    })
    expect(statuses).toEqual([200])
    expect(denied).toEqual([])
    const publicTool = await browse(toolSiteCheck('shop.example'), async (context) => {
      const page = await context.newPage()
      await page.goto(`http://${allowed.host}/`).catch(() => null)
    })
    expect(publicTool).toEqual([expect.stringContaining('shop.example may not reach it')])
  })
})
