/**
 * What the scripted person does in Xymon's web pages: starts on the main view (`/xymon/`, public),
 * uses the menu bar at the top (a hover menu: Views, Reports, Administration, Help), clicks a
 * status dot, fills the forms of the CGI pages and presses their buttons.
 *
 * The admin pages (`/xymon-seccgi/`) ask for HTTP Basic. A signed-in person's browser already
 * holds the login: the context has the user's credentials before the page is asked for, as
 * Sitecall's recorder has them from a saved login, so Chromium answers the 401 by itself.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Gives the browser the login for the admin pages (a saved login, or the answered prompt). */
export async function holdLogin(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
}

/** Waits until the main view shows its host table. */
export async function mainView(page: Page): Promise<void> {
  await page.getByText('xymon.example.net', { exact: true }).first().waitFor()
}

/**
 * Opens the menu `group` (hovering over its heading, as the menu is a CSS hover menu) and clicks
 * its entry `label`; waits for the page it opens to show `shows`.
 */
export async function menu(page: Page, group: string, label: string, shows: string): Promise<void> {
  await page.locator('.menutag', { hasText: group }).hover()
  await page.locator('#menue a.inner, #menue a.inner-1').getByText(label, { exact: true }).click()
  await page.getByText(shows).first().waitFor()
}

/** Types `value` into the text field `name`, replacing what it held. */
export async function retype(page: Page, name: string, value: string): Promise<void> {
  const box = page.locator(`input[name="${name}"]`)
  await box.click()
  await box.fill('')
  await box.pressSequentially(value, { delay: 30 })
}
