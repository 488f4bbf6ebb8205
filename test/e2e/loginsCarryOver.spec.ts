import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { expectAccessible } from './axe'
import { coreAppEachTest, recordedPage, SHOTS } from './directoryApp'

let core: Core
let base: string

coreAppEachTest('carry', (app) => ({ core, base } = app))

test('a login signed into while recording is saved at Stop (vault unlocked right there) and Verify uses it', async ({
  page,
}) => {
  expect(core.vault.status().mode).toBe('locked')
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${base}/demo/orders/login`)
  await page.getByTestId('record-intent').fill('show the details of an order')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()

  const recorded = await recordedPage(core)
  await recorded.getByLabel('Username').fill('alice')
  await recorded.getByLabel('Password').fill('wonderland')
  await recorded.getByRole('button', { name: 'Sign in' }).click()
  await recorded.waitForURL(/\/orders$/)
  const opened = recorded.waitForResponse((r) => /\/api\/orders\/[^/?]+$/.test(r.url()))
  await recorded.locator('#orders a').first().click()
  await opened
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()

  // Nothing is saved by itself: the app offers the login, and Verify says it needs it.
  const offer = page.getByTestId('login-offer')
  await expect(offer).toContainText('Save the login you used on')
  await expect(page.getByTestId('need-vault')).toBeVisible()
  await expectAccessible(page, 'the login offer at Stop')
  await page.screenshot({ path: join(SHOTS, 'ui-login-offer.png'), fullPage: true })
  await offer.getByTestId('vault-passphrase').fill('a passphrase for this recording')
  await offer.getByTestId('vault-unlock').click()
  await expect(page.getByTestId('login-saved')).toBeVisible()
  const tool = core.store.tools.list()[0]!
  expect(core.logins.list(LOCAL_TENANT).map((l) => l.host)).toContain(tool.siteHost)

  // Verify runs with the saved login (the run marks it used): no second sign-in was asked.
  await expect(page.getByTestId('tool-needs')).toHaveCount(0)
  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  expect(core.store.tools.get(tool.id)!.status).toBe('verified')
  const login = core.logins.list(LOCAL_TENANT).find((l) => l.host === tool.siteHost)!
  expect(login.lastUsedAt).not.toBeNull()
})
