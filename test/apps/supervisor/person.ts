/**
 * What the scripted person does in Supervisor's web UI: get past the Basic login, find a
 * program's row in the status table and click one of its action links (Start, Stop, Restart,
 * Clear Log) or its name (the tail page, in a new tab), or press a button above the table
 * (Restart All, Stop All). Each action link is a plain GET that Supervisor answers once the
 * action is done, with a 301 back to the status page carrying a message.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Waits until the status page's table is shown. */
async function statusShown(page: Page): Promise<void> {
  await page.locator('table thead th.name').waitFor()
}

/**
 * Opens the status page as a browser that already holds the login: the credentials are given to
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
  await statusShown(page)
}

/**
 * Answers the login as the person does: the start page asked for it (401,
 * `WWW-Authenticate: Basic realm="default"`), the person types the user name and password into
 * the browser's prompt and the page loads again with them. A scripted Chromium has no prompt to
 * type into, so the answer is given to the context and the page loaded again: what the
 * recorder's `answerAuth` does with what the person typed.
 */
export async function answerLogin(page: Page, app: AppInstance): Promise<void> {
  // The workflow begins at the login: the start page must not have let the person in.
  if (await page.locator('table thead th.name').count())
    throw new Error('the start page did not ask for the login')
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await statusShown(page)
}

/** The status table's row of the program `spec` (`group:name` or `name`, its Name cell). */
export function programRow(page: Page, spec: string): Locator {
  return page
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name: spec, exact: true }) })
}

/** The message Supervisor shows above the table after an action. */
function statusMessage(page: Page): Locator {
  return page.locator('div.status_msg')
}

/**
 * Clicks the link `label` (Start, Stop, Restart, Clear Log) in `spec`'s row and waits for the
 * status page Supervisor's 301 leads back to, showing `message` ("Process web:api stopped").
 */
export async function clickRowAction(
  page: Page,
  spec: string,
  label: string,
  message: string,
): Promise<void> {
  await programRow(page, spec).getByRole('link', { name: label, exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('message'), {
    timeout: 30_000,
  })
  await statusMessage(page).filter({ hasText: message }).waitFor()
  await statusShown(page)
}

/**
 * Presses a button above the table (Restart All, Stop All: links styled as buttons) and waits
 * for the status page showing a message that matches `message`.
 */
export async function clickTopButton(page: Page, label: string, message: RegExp): Promise<void> {
  await page.locator('#buttons').getByRole('link', { name: label, exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('message'), {
    timeout: 30_000,
  })
  await statusMessage(page).filter({ hasText: message }).waitFor()
  await statusShown(page)
}

/** The state shown in `spec`'s row ("running", "stopped"...). */
export async function rowState(page: Page, spec: string): Promise<string> {
  return (await programRow(page, spec).locator('td.status').innerText()).trim()
}

/**
 * Clicks `spec`'s name in the table: the tail page opens in a new tab (`target="_blank"`); waits
 * until it shows `line` of the program's log and returns that tab.
 */
export async function openTail(page: Page, spec: string, line: string): Promise<Page> {
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    programRow(page, spec).getByRole('link', { name: spec, exact: true }).click(),
  ])
  await tab.waitForLoadState('domcontentloaded')
  await tab.locator('pre').filter({ hasText: line }).waitFor()
  return tab
}
