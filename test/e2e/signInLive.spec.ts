import { createServer } from 'node:net'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { Page as SignInPage } from 'playwright-core'
import { LOCAL_TENANT, type Core } from '../../src/main/core'
import { expectAccessible } from './axe'
import { coreAppEachTest, SHOTS } from './directoryApp'

let core: Core
let base: string

coreAppEachTest('signin-live', async (app) => {
  ;({ core, base } = app)
  await core.vault.unlock('a passphrase for the live sign-in')
})

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

/**
 * Where on the app's page a person sees an element of the sign-in browser's page: the picture
 * shows the viewport scaled into its box. Only the position is read from the sign-in page, as
 * the person's eyes would; every click and key goes through the view.
 */
async function onPicture(page: Page, shown: SignInPage, selector: string) {
  const target = (await shown.locator(selector).boundingBox())!
  const picture = (await page.locator('.sc-frame').boundingBox())!
  const viewport = shown.viewportSize()!
  return {
    x: picture.x + ((target.x + target.width / 2) * picture.width) / viewport.width,
    y: picture.y + ((target.y + target.height / 2) * picture.height) / viewport.height,
  }
}

async function openLogins(page: Page, width: number) {
  await page.setViewportSize({ width, height: 1000 })
  await page.goto(`${base}/app/?token=${core.ownerToken}#/logins`)
  await expect(page.getByRole('heading', { name: 'Logins' })).toBeVisible()
}

test('without a display, the sign-in browser is shown in the page and a person signs in through it', async ({
  page,
}) => {
  await openLogins(page, 1280)
  await page.getByTestId('sign-in-url').fill(`${base}/demo/orders/login`)
  await page.getByTestId('sign-in-start').click()
  const panel = page.getByTestId('sign-in-panel')
  await expect(panel).toContainText('in the browser below')
  await expect(panel).not.toContainText('browser window')
  await expect(page.getByTestId('screencast-view')).toHaveAttribute('data-status', 'live')
  await expect(page.locator('.sc-frame')).toBeVisible()
  await expect(page.getByTestId('screencast-url')).toHaveValue(`${base}/demo/orders/login`)
  await expect(page.getByRole('region', { name: 'Sign-in browser' })).toBeVisible()
  await expectAccessible(page, 'Logins, signing in through the in-page browser')
  await page.screenshot({ path: join(SHOTS, 'ui-signin-live-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 820, height: 1000 })
  await page.screenshot({ path: join(SHOTS, 'ui-signin-live-820.png'), fullPage: true })

  const flow = core.signIns.castTarget(
    (await page.evaluate(() => sessionStorage.getItem('sitecall.signInId')))!,
  )!
  const shown = flow.page
  const user = await onPicture(page, shown, '#username')
  await page.mouse.click(user.x, user.y)
  await page.keyboard.type('alice')
  await expect(shown.locator('#username')).toHaveValue('alice')
  const password = await onPicture(page, shown, '#password')
  await page.mouse.click(password.x, password.y)
  await page.keyboard.type('wonderland')
  await page.keyboard.press('Enter')

  // Signed in: the browser closes and the app asks what to keep.
  await expect(page.getByRole('heading', { name: /^Signed in to 127\.0\.0\.1:/ })).toBeVisible()
  await page.getByTestId('sign-in-save').click()
  await expect(page.getByTestId('login-row')).toHaveCount(1)
  expect(core.logins.list(LOCAL_TENANT)).toEqual([
    expect.objectContaining({ host: new URL(base).host, hasPassword: true }),
  ])
})

test('a site that cannot be reached is said so at once, with no browser left open', async ({
  page,
}) => {
  const port = await closedPort()
  await openLogins(page, 1280)
  await page.getByTestId('sign-in-url').fill(`http://127.0.0.1:${port}/login`)
  await page.getByTestId('sign-in-start').click()
  const panel = page.getByTestId('sign-in-panel')
  await expect(panel).toContainText(
    `http://127.0.0.1:${port} cannot be reached: nothing answers there.`,
  )
  await expect(panel).not.toContainText('browser window')
  await expect(panel).not.toContainText(/ERR_|Call log|594/)
  await expect(page.getByTestId('screencast')).toHaveCount(0)
  // The form is free for the next try.
  await expect(page.getByTestId('sign-in-start')).toBeEnabled()
  await expectAccessible(page, 'Logins, the site cannot be reached')
  await page.screenshot({ path: join(SHOTS, 'ui-signin-unreachable-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 820, height: 1000 })
  await page.screenshot({ path: join(SHOTS, 'ui-signin-unreachable-820.png'), fullPage: true })
})
