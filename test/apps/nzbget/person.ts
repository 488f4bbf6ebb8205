/**
 * What the scripted person does in NZBGet's web UI: get past the Basic login, wait for the
 * download list, tick a row, press a toolbar button, open a row's status, priority or category
 * menu, type in a dialog. The UI refreshes its lists by itself every second, so every wait is
 * for what the list shows after a change, not for a request.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Waits until the first refresh filled the download list ("Loading..." is gone, rows shown). */
async function waitForList(page: Page): Promise<void> {
  await page.locator('#FirstUpdateInfo').waitFor({ state: 'hidden' })
  await page.locator('#DownloadsTable tbody tr a[data-nzbid]').first().waitFor()
}

/**
 * Opens the web UI as a browser that already holds the login: the context has the user's
 * credentials before the page is asked for, as Sitecall's recorder has them from a saved login
 * (its `httpLogins`), so Chromium answers NZBGet's 401 by itself and every later request carries
 * `Authorization: Basic`. (The recording's own first load of the start page, before `play`, met
 * the 401 unanswered: NOTES.md.)
 */
export async function openSignedIn(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({ username: app.user.name, password: app.user.password })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await waitForList(page)
}

/**
 * Opens the web UI not signed in: the load meets NZBGet's 401 (`WWW-Authenticate: Basic
 * realm="NZBGet"`; Chromium, asked nothing, fails it with ERR_INVALID_AUTH_CREDENTIALS, which is
 * when the recorder asks the person), then the person's answer to the browser's login prompt is
 * given to the browser and the page loaded again: what the recorder's `answerAuth` does with
 * what the person typed.
 */
export async function openAnsweringLogin(page: Page, app: AppInstance): Promise<void> {
  // The recording opened the start page (`/`) already, and that load met the login: the page
  // stayed blank (Chromium's error page). Asking again would add a second 401 to the recording.
  const met = page.url() === 'about:blank' || page.url().startsWith('chrome-error://')
  const first = met
    ? 401
    : await page
        .goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
        .then((res) => res?.status() ?? 0)
        .catch(() => 401)
  if (first !== 401) throw new Error(`the web UI did not ask for a login (${first})`)
  await page.context().setHTTPCredentials({ username: app.user.name, password: app.user.password })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await waitForList(page)
}

/** The row of the download named `name` in the download list (the name is its link's text). */
export function downloadRow(page: Page, name: string): Locator {
  return page
    .locator('#DownloadsTable tbody tr')
    .filter({ has: page.getByRole('link', { name, exact: true }) })
}

/** The status badge of `name`'s row (`QUEUED`, `PAUSED`...). */
function statusBadge(page: Page, name: string): Locator {
  return downloadRow(page, name).locator('.label-status')
}

/** Waits until `name`'s row shows `status` (the list refreshes every second). */
export async function waitForStatus(page: Page, name: string, status: string): Promise<void> {
  await statusBadge(page, name)
    .filter({ hasText: new RegExp(`^${status}$`) })
    .waitFor()
}

/** Ticks `name`'s row's box (the first cell), as a person selects a row. */
export async function tickRow(page: Page, name: string): Promise<void> {
  const row = downloadRow(page, name)
  await row.locator('td').first().click()
  await page.waitForFunction(
    (n) =>
      [...document.querySelectorAll('#DownloadsTable tbody tr.checked a[data-nzbid]')].some(
        (a) => a.textContent === n,
      ),
    name,
  )
}

/** A toolbar button of the Downloads tab by its tooltip (`Pause selected nzb-files [P]`...). */
export function toolbarButton(page: Page, title: RegExp): Locator {
  return page.locator('#DownloadsToolbar button:visible').and(page.getByTitle(title))
}

/** Clears a text box and types `text` into it as a person does. */
export async function retype(field: Locator, text: string): Promise<void> {
  await field.click()
  await field.press('ControlOrMeta+a')
  await field.press('Backspace')
  await field.pressSequentially(text, { delay: 40 })
}
