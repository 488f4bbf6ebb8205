import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { SHOTS } from './directoryApp'
import { createCore, type Core } from '../../src/main/core'
import { chromiumArgs } from '../../src/main/recorder/chromium'
import { startDirectorySite, type DirectorySite } from '../fixtures/sites/directory'
import { expectAccessible } from './axe'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const rendererDir = join(root, 'out/renderer')
const chromiumPath = process.env.SITECALL_CHROMIUM ?? '/usr/bin/chromium'

let site: DirectorySite
let core: Core
let base: string
let home: string
let own: { child: ChildProcess; profile: string; endpoint: string }

/** The person's own Chromium, started with a debugging port the OS picks (written to a file). */
async function startOwnChromium(): Promise<typeof own> {
  const profile = mkdtempSync(join(tmpdir(), 'sitecall-own-chromium-'))
  const child = spawn(
    chromiumPath,
    [
      '--headless',
      ...chromiumArgs(),
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    // Its own process group, so the test ends the zygote and helpers with it.
    { stdio: 'ignore', detached: true },
  )
  const portFile = join(profile, 'DevToolsActivePort')
  await expect
    .poll(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'))
    .toBe(true)
  const port = readFileSync(portFile, 'utf8').split('\n')[0]!
  return { child, profile, endpoint: `http://127.0.0.1:${port}` }
}

test.beforeEach(async () => {
  expect(existsSync(join(rendererDir, 'index.html')), 'run `npm run build:renderer` first').toBe(
    true,
  )
  home = mkdtempSync(join(tmpdir(), 'sitecall-attach-e2e-'))
  site = await startDirectorySite()
  core = createCore({ home, port: 0, headless: true, rendererDir, keychain: null })
  base = await core.listen()
  own = await startOwnChromium()
})

test.afterEach(async ({ page }) => {
  await page.close()
  await core.close()
  await site.close()
  const exited = new Promise((done) => own.child.once('exit', done))
  own.child.kill('SIGTERM')
  await exited
  // Chromium's helper processes outlive the browser for a moment and write into the profile:
  // end the whole group before removing it.
  try {
    process.kill(-own.child.pid!, 'SIGKILL')
  } catch {
    // the group is already gone
  }
  rmSync(own.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  rmSync(home, { recursive: true, force: true })
})

test('records in the person’s own Chromium through its debugging endpoint', async ({ page }) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${site.url}/`)
  await page.getByTestId('record-intent').fill('search the AI tools directory by keyword')
  await page.getByTestId('record-attach').check()
  await page.getByTestId('record-cdp').fill(own.endpoint)
  await expectAccessible(page, 'Record, attaching to a Chromium')
  await page.screenshot({ path: join(SHOTS, 'ui-record-attach.png'), fullPage: true })
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()

  await expect.poll(() => core.recordings.current()?.sessionId ?? null).not.toBeNull()
  const recorded = core.recordings.recording(core.recordings.current()!.sessionId)!.page
  // The page lives in the person's browser: its targets list shows the site.
  const targets = (await (await fetch(`${own.endpoint}/json/list`)).json()) as Array<{
    url: string
  }>
  expect(targets.some((t) => t.url.startsWith(site.url))).toBe(true)
  await recorded.getByLabel('Search AI tools').fill('writing')
  await recorded.getByRole('button', { name: 'Search' }).click()
  await expect(recorded.locator('#results li').first()).toBeVisible()
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-target')).toContainText('/api/search')
})
