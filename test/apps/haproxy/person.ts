/**
 * What the scripted person does on HAProxy's stats page: get past the Basic prompt, tick a
 * server's box in its backend's table, pick an action from that table's menu, press Apply; type a
 * backend into the Scope box; click the export and display links.
 *
 * Every recording starts on the listener's health page (`monitor-uri`, the one page there without
 * the Basic prompt; NOTES.md says why) and the person then opens the stats page by its address.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** The note HAProxy shows after a POST it carried out (`/;st=DONE`). */
const DONE = 'Action processed successfully.'

/** Waits until the stats page's own heading is shown. */
async function statsShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: /Statistics Report for pid/ }).waitFor()
}

/**
 * Opens the stats page as a browser that already holds the login: the context has the user's
 * credentials before the page is asked for, as Sitecall's recorder has them from a saved login
 * (its `httpLogins`), so Chromium answers the 401 by itself and later requests carry
 * `Authorization: Basic` from the start.
 */
export async function openStatsSignedIn(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({ username: app.user.name, password: app.user.password })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await statsShown(page)
}

/**
 * Opens the stats page not signed in: the load meets HAProxy's 401 (Chromium, asked nothing,
 * fails it with ERR_INVALID_AUTH_CREDENTIALS, which is when the recorder asks the person), then
 * the person's answer is given to the browser and the page loaded again: what the recorder's
 * `answerAuth` does with what the person typed in the prompt.
 */
export async function openStatsAnsweringPrompt(page: Page, app: AppInstance): Promise<void> {
  const first = await page
    .goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
    .then((res) => res?.status() ?? 0)
    .catch(() => 401)
  if (first !== 401) throw new Error(`the stats page did not ask for a login (${first})`)
  await page.context().setHTTPCredentials({ username: app.user.name, password: app.user.password })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await statsShown(page)
}

/**
 * Ticks `server`'s box in its row, picks `action` (the menu's label, "Set state to MAINT") in the
 * same table's menu, presses that table's Apply and waits for HAProxy's "Action processed
 * successfully" (its 303 to `/;st=DONE`).
 */
export async function applyToServer(page: Page, server: string, action: string): Promise<void> {
  const row = page
    .locator('tr')
    .filter({ has: page.getByRole('link', { name: server, exact: true }) })
  await row.getByRole('checkbox').check()
  // The row's own form: each backend's table is one <form method="post"> with its menu.
  const form = page.locator('form').filter({ has: row })
  await form.locator('select[name="action"]').selectOption({ label: action })
  await form.getByRole('button', { name: 'Apply' }).click()
  await page.waitForURL(/;st=DONE/)
  await page.getByText(DONE).waitFor()
}

/** Types `text` into the Scope box and presses Enter (the box's form is a GET of `?scope=`). */
export async function typeScope(page: Page, text: string): Promise<void> {
  const box = page.locator('input[name="scope"]')
  await box.click()
  await box.pressSequentially(text, { delay: 40 })
  await box.press('Enter')
  await page.waitForURL(/[?&]scope=/)
  await statsShown(page)
}

/** Clicks a link of the "Display option" list and waits for the page it opens (by URL). */
export async function clickDisplayLink(page: Page, name: string, url: RegExp): Promise<void> {
  await page.getByRole('link', { name, exact: true }).click()
  await page.waitForURL(url)
  await page.waitForLoadState('domcontentloaded')
}
