import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { contactsHar, startContactsSite, type ContactsSite } from '../fixtures/sites/contacts'
import { startTasksSite, type TasksSite } from '../fixtures/sites/tasks'
import { expectAccessible } from './axe'
import { coreAppEachTest, recordedPage, SHOTS } from './directoryApp'

let core: Core
let base: string
let tasks: TasksSite
let contacts: ContactsSite

coreAppEachTest('login-offer', async (app) => {
  ;({ core, base } = app)
  tasks = await startTasksSite()
  contacts = await startContactsSite()
})
test.afterEach(async () => {
  await tasks.close()
  await contacts.close()
})

test('after Stop the app offers the login used on the site (what it holds, never a secret), saves it sealed, and Verify uses it', async ({
  page,
}) => {
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-url').fill(`${tasks.url}/`)
  await page.getByTestId('record-intent').fill('search my tasks for basil')
  await page.getByTestId('record-start').click()
  await expect(page.getByTestId('record-stop')).toBeVisible()

  // The scripted person signs in with the page's own form (JSON-RPC), then searches.
  const recorded = await recordedPage(core)
  await recorded.locator('#who').fill(tasks.username)
  await recorded.locator('#secret-word').pressSequentially(tasks.password)
  await recorded.getByRole('button', { name: 'Sign in' }).click()
  await recorded.locator('#q').fill('basil')
  const searched = recorded.waitForResponse((r) => r.url().endsWith('/rpc') && r.ok())
  await recorded.getByRole('button', { name: 'Search' }).click()
  await searched
  await recorded.locator('#results li').first().waitFor()
  await page.getByTestId('record-stop').click()
  await expect(page.getByTestId('candidate-review')).toBeVisible()

  const offer = page.getByTestId('login-offer')
  await expect(offer.getByRole('heading')).toHaveText(`Save the login you used on ${tasks.host}?`)
  await expect(offer.getByTestId('login-offer-holds')).toContainText(`User name: ${tasks.username}`)
  await expect(offer.getByTestId('login-offer-holds')).toContainText('1 cookie of the session')
  await expect(offer.getByTestId('login-offer-skip')).toBeVisible()
  expect(await page.content()).not.toContain(tasks.password)
  // Nothing is kept until the person says so.
  expect(core.logins.list(LOCAL_TENANT)).toEqual([])
  await expectAccessible(page, 'the login offer after Stop')
  await offer.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(SHOTS, 'ui-login-offer-stop.png'), fullPage: true })

  // The vault is locked (a new app): its passphrase is asked right in the offer.
  await offer.getByTestId('vault-passphrase').fill('a passphrase for the tasks login')
  await offer.getByTestId('vault-unlock').click()
  await expect(page.getByTestId('login-saved')).toBeVisible()
  expect(core.logins.list(LOCAL_TENANT).map((l) => l.host)).toEqual([tasks.host])

  await expect(page.getByTestId('tool-needs')).toHaveCount(0)
  await page.getByTestId('verify-button').click()
  await expect(page.getByTestId('run-status')).toHaveText('succeeded')
  expect(tasks.calls.at(-1)).toMatchObject({ method: 'tasks.search', signedIn: true })
})

test('a HAR import offers the HTTP Basic login it shows; Skip keeps nothing', async ({ page }) => {
  await core.vault.unlock('a passphrase for the contacts import')
  await page.goto(`${base}/app/?token=${core.ownerToken}#/record`)
  await page.getByTestId('record-intent').fill('find the contact ada')
  const har = JSON.stringify(await contactsHar(contacts, 'ada'))
  await page.getByTestId('har-file').setInputFiles({
    name: 'contacts.har',
    mimeType: 'application/json',
    buffer: Buffer.from(har),
  })
  const offer = page.getByTestId('login-offer')
  await expect(offer.getByRole('heading')).toHaveText(
    `Save the login you used on ${contacts.host}?`,
  )
  await expect(offer).toContainText(`User name: ${contacts.username}`)
  await expect(offer).toContainText('HTTP Basic authentication: the user name and password')
  expect(await page.content()).not.toContain(contacts.password)
  await page.screenshot({ path: join(SHOTS, 'ui-login-offer-har.png'), fullPage: true })
  await offer.getByTestId('login-offer-skip').click()
  await expect(offer).toHaveCount(0)
  expect(core.logins.list(LOCAL_TENANT)).toEqual([])
})
