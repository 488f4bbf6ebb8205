/**
 * What the scripted person does in the mlmmj web admin: get past the Basic prompt to the list
 * index, click a list's "Config" or "Subscribers" link, change the Config form and press its
 * Submit button, type addresses into "Add subscribers", press a subscriber row's Remove.
 *
 * Every recording starts on the list index (`/`), which asks for the login: `record.ts` opens
 * the start page before `play` in a browser without credentials, so the first request of every
 * recording is a 401 (NOTES.md says how each kind of workflow goes on from there).
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Waits for the list index (its heading and the first list). */
async function indexShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'mlmmj config' }).waitFor()
  await page.getByRole('link', { name: 'Config' }).first().waitFor()
}

/**
 * Opens the list index as a browser that holds the login (a saved Basic login: the recorder's
 * `httpLogins`, here the context's credentials), so Chromium answers the 401 by itself.
 */
export async function openIndexSignedIn(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await indexShown(page)
}

/**
 * Answers the login as the person does: the start page asked for it (401, `WWW-Authenticate:
 * Basic`), the person types the user name and password into the browser's prompt and the page
 * loads again with them. A scripted Chromium has no prompt to type into, so the answer is given to
 * the context and the page loaded again: what the recorder's `answerAuth` does with what the
 * person typed.
 */
export async function answerLoginPrompt(page: Page, app: AppInstance): Promise<void> {
  if (await page.getByRole('link', { name: 'Config' }).count())
    throw new Error('the start page did not ask for the login')
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await indexShown(page)
}

/**
 * On the list index, clicks the link `which` ("Config" or "Subscribers") under the list `name`
 * (each list is a paragraph: its name, then the two links) and waits for that page.
 */
export async function openListPage(
  page: Page,
  name: string,
  which: 'Config' | 'Subscribers',
): Promise<void> {
  const entry = page.locator('p').filter({ hasText: new RegExp(`^\\s*${name}\\s`) })
  await entry.getByRole('link', { name: which, exact: true }).click()
  if (which === 'Config') {
    await page.waitForURL((url) => url.pathname === '/edit.php')
    await page.locator('form[action="save.php"]').waitFor()
  } else {
    await page.waitForURL((url) => url.pathname === '/subscribers.php')
    await page.getByRole('heading', { name: `${name} subscribers` }).waitFor()
  }
}

/** The Config form's row for the tunable shown as `label` ("Prefix", "Moderated"). */
function settingRow(page: Page, label: string) {
  return page.locator('tr').filter({
    has: page.locator('td:first-child', {
      hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    }),
  })
}

/** Clears the text box of the tunable `label` and types `value`. */
export async function typeSetting(page: Page, label: string, value: string): Promise<void> {
  const box = settingRow(page, label).locator('input[type="text"]')
  await box.click()
  await box.fill('')
  await box.pressSequentially(value, { delay: 30 })
}

/** Ticks (`on`) or unticks the checkbox of the tunable `label`. */
export async function setSettingBox(page: Page, label: string, on: boolean): Promise<void> {
  const box = settingRow(page, label).locator('input[type="checkbox"]')
  if (on) await box.check()
  else await box.uncheck()
}

/** Presses the Config form's Submit and waits for "<list> control values saved!". */
export async function submitSettings(page: Page, list: string): Promise<void> {
  await page.locator('form[action="save.php"]').getByRole('button', { name: 'Submit' }).click()
  await page.waitForURL((url) => url.pathname === '/save.php')
  await page.getByText(`${list} control values saved!`).waitFor()
}
