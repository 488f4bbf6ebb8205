import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { type Core } from '../../src/main/core'
import { expectAccessible } from './axe'
import { coreAppEachTest, recordedPage, SHOTS } from './directoryApp'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const bin = join(root, 'bin/sitecall.mjs')

let core: Core
let base: string

coreAppEachTest('first', (app) => ({ core, base } = app))

test('the first-run guide offers the demo shop, sets up the vault and starts the first recording', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}`)
  const guide = page.getByTestId('first-run-guide')
  await expect(guide).toBeVisible()
  await expect(page.getByTestId('guide-demo-url')).toHaveText(`${base}/demo/orders/`)
  await expect(guide).toContainText('alice')
  await expect(guide).toContainText('wonderland')
  await expectAccessible(page, 'the first-run guide')
  await page.screenshot({ path: join(SHOTS, 'ui-first-run.png'), fullPage: true })

  await page.getByTestId('vault-passphrase').fill('a passphrase for the first run')
  await page.getByTestId('vault-unlock').click()
  await expect(page.getByTestId('guide-vault-open')).toBeVisible()
  expect(core.vault.status().mode).toBe('passphrase')

  await page.getByTestId('guide-use-demo').click()
  await expect(page.getByTestId('record-url')).toHaveValue(`${base}/demo/orders/`)
  await expect(page.getByTestId('record-intent')).toHaveValue('list my orders')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()

  // The scripted person signs in to the demo shop with the user the guide showed.
  const recorded = await recordedPage(core)
  await recorded.getByLabel('Username').fill('alice')
  await recorded.getByLabel('Password').fill('wonderland')
  // The orders page loads its list from the shop's API once it has opened.
  const listed = recorded.waitForResponse((r) => r.url().includes('/demo/orders/api/orders'))
  await recorded.getByRole('button', { name: 'Sign in' }).click()
  await recorded.waitForURL(/\/orders$/)
  await listed
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()
  expect(core.store.tools.list()).toHaveLength(1)
  // With a tool made, Record no longer shows the guide.
  await page.goto(`${base}/app/#/record`)
  await page.reload()
  await expect(page.getByTestId('record-url')).toBeVisible()
  await expect(guide).toHaveCount(0)
})

test('a tab without the link, or with a stale one, explains how to get in', async ({ page }) => {
  await page.goto(`${base}/app/`)
  const signedOut = page.getByTestId('signed-out')
  await expect(signedOut).toContainText('sitecall serve')
  await expect(signedOut).toContainText(`${base}/app/?code=`)
  await expect(page.getByTestId('status-line')).toHaveCount(0)
  await expectAccessible(page, 'the signed-out page')
  await page.screenshot({ path: join(SHOTS, 'ui-signed-out.png'), fullPage: true })

  const other = await page.context().newPage()
  await other.goto(`${base}/app/?token=not-a-token`)
  await expect(other.getByTestId('signed-out')).toBeVisible()
  await other.close()
})

test('serve prints the demo shop’s address and user, and both printed links open', async ({
  page,
}) => {
  const serveHome = mkdtempSync(join(tmpdir(), 'sitecall-serve-e2e-'))
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-open'], {
    env: { ...process.env, SITECALL_HOME: serveHome, SITECALL_KEYCHAIN: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((done) => child.once('exit', done))
  try {
    let out = ''
    const printed = await new Promise<{ app: string; demo: string }>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const app = /(http:\/\/127\.0\.0\.1:\d+\/app\/\?code=\S+)/.exec(out)?.[1]
        const demo = /Demo shop to record on: (\S+) \(user alice, password wonderland\)/.exec(out)
        if (app && demo) done({ app, demo: demo[1]! })
      })
      void exited.then(() => fail(new Error(`serve exited early: ${out}`)))
    })
    await page.goto(printed.demo)
    await expect(page.getByLabel('Username')).toBeVisible()
    await page.goto(printed.app)
    await expect(page.getByTestId('first-run-guide')).toBeVisible()
    await expect(page.getByTestId('guide-demo-url')).toHaveText(printed.demo)
    // The code left the address bar; a new tab of this browser gets in without any link.
    expect(page.url()).not.toContain('code=')
    const tab = await page.context().newPage()
    await tab.goto(new URL('/app/', printed.app).href)
    await expect(tab.getByTestId('first-run-guide')).toBeVisible()
    await tab.close()
    // The link was for one sign-in: another browser profile opening it is refused.
    const stranger = await page.context().browser()!.newContext()
    const strangerPage = await stranger.newPage()
    await strangerPage.goto(printed.app)
    await expect(strangerPage.getByTestId('signed-out')).toBeVisible()
    await stranger.close()
  } finally {
    child.kill('SIGTERM')
    await exited
    rmSync(serveHome, { recursive: true, force: true })
  }
})
