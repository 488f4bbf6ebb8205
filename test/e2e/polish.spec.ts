import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { directoryAppEachTest, SHOTS } from './directoryApp'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { type DirectorySite } from '../fixtures/sites/directory'
import { startOrdersSite } from '../fixtures/sites/orders'
import { callTool } from '../fixtures/harness/http'
import { cookieOrdersTool } from '../integration/logins/loginHelpers'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { expectAccessible } from './axe'
import { saveOrderToolAndLogin } from './orderTool'

let site: DirectorySite
let core: Core
let base: string
let tool: ToolSpec

directoryAppEachTest('polish', async (app) => {
  ;({ site, core, base } = app)
  ;({ tool } = await makeSearchTool(core, site))
})

test('follows the system’s dark mode with no serious accessibility violation on any view', async ({
  page,
}) => {
  const { key } = core.store.keys.create(
    { id: 'key_p', tenant: LOCAL_TENANT, label: 'p' },
    Date.now(),
  )
  expect((await callTool(base, key, tool, { query: 'image' })).status).toBe(200)
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools`)
  await expect(page.getByTestId('tool-row')).toHaveCount(1)
  const background = await page.evaluate(
    () => getComputedStyle(document.documentElement).backgroundColor,
  )
  expect(background).toBe('rgb(21, 24, 30)')
  const views = [
    'tools',
    `tools/${tool.id}`,
    'record',
    'traces',
    'runs',
    'inbox',
    'logins',
    'secrets',
    'keys',
    'connect',
    'usage',
    'settings',
  ]
  for (const view of views) {
    await page.goto(`${base}/app/#/${view}`)
    await expect(page.locator('main h1')).toBeVisible()
    await expectAccessible(page, `${view} in dark mode`)
  }
  await page.goto(`${base}/app/#/tools/${tool.id}`)
  await page.screenshot({ path: join(SHOTS, 'ui-dark-tool.png'), fullPage: true })
})

test('a favicon, and every run row of a tool opens by keyboard', async ({ page }) => {
  const { key } = core.store.keys.create(
    { id: 'key_k', tenant: LOCAL_TENANT, label: 'k' },
    Date.now(),
  )
  expect((await callTool(base, key, tool, { query: 'image' })).status).toBe(200)
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools/${tool.id}`)
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^data:image\/svg\+xml/)
  const runButton = page.getByRole('button', { name: /^lrun_/ })
  await expect(runButton).toHaveCount(1)
  await runButton.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  await expect(page.getByTestId('run-result')).toBeVisible()
})

test('an open sign-in survives a reload of the page, and a cancelled one does not come back', async ({
  page,
}) => {
  await core.vault.unlock('a passphrase for the polish test')
  const orders = await startOrdersSite()
  try {
    await saveOrderToolAndLogin(core, orders)
    await page.goto(`${base}/app/?token=${core.ownerToken}#/logins`)
    const row = page.getByTestId('login-row').filter({ hasText: orders.host })
    await row.getByTestId('login-sign-in').click()
    const panel = page.getByTestId('sign-in-panel')
    // The panel shows once a sign-in browser has started: slow on a loaded machine.
    const started = { timeout: 20_000 }
    await expect(panel).toContainText('in the browser below', started)
    await page.reload()
    await expect(panel).toContainText('in the browser below', started)
    await expect(row.getByTestId('login-sign-in')).toBeDisabled()
    await panel.getByRole('button', { name: 'Cancel' }).click()
    await expect(panel).not.toContainText('in the browser below')
    await page.reload()
    await expect(row.getByTestId('login-sign-in')).toBeEnabled()
    await expect(panel).toHaveCount(0)
  } finally {
    await orders.close()
  }
})

test('every view in light mode and the one-time sign-in page have no serious accessibility violation', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/tools`)
  await expect(page.getByTestId('tool-row')).toHaveCount(1)
  const views = ['inbox', 'logins', 'secrets', 'keys', 'runs', 'usage', 'settings', 'traces']
  for (const view of views) {
    await page.goto(`${base}/app/#/${view}`)
    await expect(page.locator('main h1')).toBeVisible()
    await expectAccessible(page, `${view} in light mode`)
    await page.screenshot({ path: join(SHOTS, `ui-view-${view}.png`), fullPage: true })
  }

  // A run that needs a login the person never saved carries a one-time sign-in link.
  await core.vault.unlock('a passphrase for the polish test')
  const orders = await startOrdersSite()
  try {
    const ordersTool = cookieOrdersTool(orders)
    core.store.tools.save(ordersTool)
    const failed = await core.engine.start(ordersTool, {}, { tenant: LOCAL_TENANT }).done
    expect(failed.signIn?.url).toMatch(/\/signin\//)
    await page.goto(failed.signIn!.url)
    await expect(page.getByRole('heading', { name: `Sign in to ${orders.host}` })).toBeVisible()
    await expectAccessible(page, 'the one-time sign-in page')
    await page.screenshot({ path: join(SHOTS, 'ui-signin-link.png'), fullPage: true })
  } finally {
    await orders.close()
  }
})
