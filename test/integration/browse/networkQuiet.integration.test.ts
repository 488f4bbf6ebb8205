/**
 * `watchRequests` in real Chromium: a wait after a click sees the request the click starts a moment
 * later and returns only once its answer has arrived (where `waitForLoadState('networkidle')`
 * returns at once on a page that was idle before), and a request that never ends does not hold
 * the wait past its limit. `watchNetwork` (browse actions) counts its quiet from the call too, so an
 * action that took longer than the quiet period still waits for what it started.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { watchRequests } from '../../../src/main/browse/networkQuiet'
import { watchNetwork } from '../../../src/main/browse/networkWatch'
import { chromiumArgs } from '../../../src/main/recorder'

const PAGE = `<!doctype html><title>Search</title>
<button id="go" onclick="setTimeout(() => fetch('/slow').then((r) => r.json()).then((j) => { window.answer = j.found }), 200)">Go</button>
<button id="hang" onclick="fetch('/hang')">Hang</button>`

let server: Server
let base: string
let context: BrowserContext
let page: Page
const dir = mkdtempSync(join(tmpdir(), 'sitecall-quiet-'))

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow')
      return void setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ found: 3 }))
      }, 800)
    if (req.url === '/hang') return // never answered; closed with the server
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs(),
  })
  page = await context.newPage()
})

afterAll(async () => {
  await context?.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

describe('watchRequests', () => {
  it('waits for the request a click starts a moment later, until its answer arrives', async () => {
    await page.goto(base)
    await page.waitForLoadState('networkidle')
    const requests = watchRequests(page)
    try {
      await page.click('#go')
      await requests.quiet(20_000)
      expect(await page.evaluate(() => (window as { answer?: number }).answer)).toBe(3)
    } finally {
      requests.stop()
    }
  })

  it('gives up at its limit on a request that never ends, without throwing', async () => {
    await page.goto(base)
    const requests = watchRequests(page)
    try {
      await page.click('#hang')
      await expect(requests.quiet(1_000)).resolves.toBeUndefined()
    } finally {
      requests.stop()
    }
  })
})

describe('watchNetwork', () => {
  it('counts quiet from the settle call, so a slow action still waits for what it started', async () => {
    await page.goto(base)
    await page.waitForLoadState('networkidle')
    const watch = watchNetwork(context)
    try {
      // An action that took longer than the quiet period (a loaded machine): before it counted
      // from the call, the settle returned at once and missed the search the click started.
      await new Promise((resolve) => setTimeout(resolve, 700))
      await page.click('#go')
      await watch.settle(20_000)
      expect(await page.evaluate(() => (window as { answer?: number }).answer)).toBe(3)
    } finally {
      watch.stop()
    }
  })
})
