import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createCore, LOCAL_TENANT, type Core, type CoreConfig } from '../../../src/main/core'
import { chromiumArgs } from '../../../src/main/recorder/chromium'
import type { StorageState } from '../../../src/shared/trace'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = chromiumArgs()

export interface IndexCore {
  core: Core
  base: string
  key: string
  close(): Promise<void>
}

/** A real core (SQLite in a temp dir, port 0, real Chromium) and a personal key of its workspace. */
export async function startIndexCore(config: CoreConfig = {}): Promise<IndexCore> {
  const home = mkdtempSync(join(tmpdir(), 'sitecall-index-'))
  const core = createCore({
    home,
    port: 0,
    rendererDir: null,
    rateLimits: null,
    keychain: null,
    env: { ...process.env, SITECALL_CHROMIUM: CHROMIUM, SITECALL_KEYCHAIN: 'off' },
    ...config,
  })
  const base = await core.listen()
  const { key } = core.store.keys.create(
    { id: 'key_index', tenant: LOCAL_TENANT, label: 'index tests' },
    Date.now(),
  )
  // The fixture sites are the owner's local apps: allowed for API URLs, as a person would in the
  // app's settings (issue 13 item 3; the private-network tests take it back).
  core.store.localSites.add(LOCAL_TENANT, '127.0.0.1', Date.now())
  return {
    core,
    base,
    key,
    async close() {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/**
 * A one-page site whose page loads `GET /api/items` (JSON) by itself. With `held`, the page's
 * HTML is held until `release()`: an observation of it stays running until then.
 */
export interface ItemsSite {
  url: string
  /** Resolves once the page was asked for. */
  asked: Promise<void>
  release(): void
  close(): Promise<void>
}

export async function startItemsSite(options: { held?: boolean } = {}): Promise<ItemsSite> {
  let release!: () => void
  const released = options.held
    ? new Promise<void>((resolve) => (release = resolve))
    : Promise.resolve()
  if (!options.held) release = () => undefined
  let seen!: () => void
  const asked = new Promise<void>((resolve) => (seen = resolve))
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/api/items') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          items: [
            { id: 'a1', name: 'Anvil' },
            { id: 'b2', name: 'Bell' },
          ],
          count: 2,
        }),
      )
      return
    }
    if (req.url === '/favicon.ico') return void res.writeHead(404).end()
    seen()
    void released.then(() => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<!doctype html><title>Items</title><h1>Items</h1><ul id="items"></ul>
<script>fetch('/api/items').then((r) => r.json()).then((b) => {
  for (const item of b.items) { const li = document.createElement('li'); li.textContent = item.name; document.getElementById('items').append(li) }
})</script>`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    asked,
    release,
    async close() {
      release()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * Signs in to the app's orders demo in a browser of its own, like a person, and returns the
 * session's storage state (the login Sitecall saves).
 */
export async function signInToOrdersDemo(base: string): Promise<StorageState> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
  try {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/demo/orders/login`)
    await page.getByLabel('Username').fill('alice')
    await page.getByLabel('Password').fill('wonderland')
    await Promise.all([
      page.waitForURL(/\/demo\/orders\/orders$/),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ])
    const state = await context.storageState()
    return {
      cookies: state.cookies.map((c) => ({ ...c })),
      origins: state.origins.map((o) => ({ origin: o.origin, localStorage: o.localStorage })),
    }
  } finally {
    await browser.close()
  }
}
