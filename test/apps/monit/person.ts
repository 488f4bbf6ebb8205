/**
 * What the scripted person does in Monit's web interface: get past the Basic login, click a
 * service in the home page's tables, press one of its page's buttons, and reload the page until
 * it shows the action done (Monit carries an action out a moment after it answered the post, and
 * its page only refreshes itself once per poll interval).
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Waits until the home page's own heading and service tables are shown. */
async function homeShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Monit Service Manager' }).waitFor()
}

/**
 * Opens the home page as a browser that already holds the login: the credentials are given to
 * the browser before the page is asked for, as Sitecall's recorder does with a saved login
 * (`httpLogins`), so Chromium answers the 401 by itself. (The recording's own first load of the
 * start page, before `play`, met the 401 without them: NOTES.md says why.)
 */
export async function openHomeSignedIn(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await homeShown(page)
}

/**
 * Answers the login as the person does: the start page asked for it (401,
 * `WWW-Authenticate: Basic realm="monit"`), the person types the user name and password into
 * the browser's prompt and the page loads again with them. A scripted Chromium has no prompt to
 * type into, so the answer is given to the context and the page loaded again: what the
 * recorder's `answerAuth` does with what the person typed.
 */
export async function answerLogin(page: Page, app: AppInstance): Promise<void> {
  // The workflow begins at the login: the start page must not have let the person in.
  if (await page.getByRole('heading', { name: 'Monit Service Manager' }).count())
    throw new Error('the start page did not ask for the login')
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await homeShown(page)
}

/**
 * Clicks the service `name` in the home page's tables (each row's first cell links to its page)
 * and waits for that page's status table.
 */
export async function openService(page: Page, name: string): Promise<void> {
  await page.locator('#header-row').getByRole('link', { name, exact: true }).click()
  await page.waitForURL((url) => url.pathname === `/${name}`)
  await statusRow(page, 'Name').waitFor()
}

/** The value cell of the row `parameter` of a service page's status table. */
export function statusRow(page: Page, parameter: string): Locator {
  return page
    .locator('#status-table tr')
    .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${parameter}$`) }) })
    .locator('td')
    .nth(1)
}

/**
 * Presses the button labelled `label` ("Stop service", "Disable monitoring"...) on a service
 * page and waits for the page Monit's 302 leads back to.
 */
export async function pressButton(page: Page, label: string): Promise<void> {
  const answered = page.waitForResponse(
    (res) => res.request().method() === 'POST' && res.status() === 302,
  )
  await page.locator(`#buttons input[type="submit"][value="${label}"]`).click()
  await answered
  await page.waitForLoadState('domcontentloaded')
  await statusRow(page, 'Name').waitFor()
}

/**
 * Reloads the service page (as a person presses F5) until its Status row shows no pending action
 * and `parameter`'s row matches `wanted`; throws after about 15 tries.
 */
export async function reloadUntil(page: Page, parameter: string, wanted: RegExp): Promise<void> {
  for (let i = 0; i < 15; i++) {
    const status = (await statusRow(page, 'Status').innerText()).trim()
    const value = (await statusRow(page, parameter).innerText()).trim()
    if (!/pending/.test(status) && wanted.test(value)) return
    await page.waitForTimeout(2000)
    await page.reload({ waitUntil: 'domcontentloaded' })
    await statusRow(page, 'Name').waitFor()
  }
  throw new Error(`the page never showed ${parameter} ${String(wanted)}`)
}
