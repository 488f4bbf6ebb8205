/**
 * What the scripted person does in ejabberd's web admin: get past the Basic login, walk the
 * navigation (Virtual Hosts, the host, Users or Shared Roster Groups), click an account or a
 * group in its list, fill the page's form and press one of its buttons, then look at the page
 * ejabberd answers with ("Submitted") or at the list again.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'
import { HOST } from './seed'

/** Waits until a web admin page whose content heading is `name` is shown. */
async function headingShown(page: Page, name: string | RegExp): Promise<void> {
  await page.locator('#content h1', { hasText: name }).first().waitFor()
}

/**
 * Opens web admin's home page as a browser that already holds the login: the credentials are
 * given to the browser before the page is asked for, as Sitecall's recorder does with a saved
 * login (`httpLogins`), so Chromium answers the 401 by itself. (The recording's own first load of
 * the start page, before `play`, met the 401 without them: NOTES.md says why.)
 */
export async function openAdminSignedIn(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/admin/`, { waitUntil: 'domcontentloaded' })
  await page.getByRole('link', { name: 'Virtual Hosts' }).first().waitFor()
}

/**
 * Answers the login as the person does: the start page asked for it (401,
 * `WWW-Authenticate: Basic realm="ejabberd"`), the person types the admin's JID and password
 * into the browser's prompt and the page loads again with them. A scripted Chromium has no
 * prompt, so the answer is given to the context and the page loaded again: what the recorder's
 * `answerAuth` does with what the person typed.
 */
export async function answerLogin(page: Page, app: AppInstance): Promise<void> {
  if (await page.getByRole('link', { name: 'Virtual Hosts' }).count())
    throw new Error('the start page did not ask for the login')
  await openAdminSignedIn(page, app)
}

/** Clicks a navigation link and waits for the page whose heading is `heading`. */
async function follow(page: Page, link: string, heading: string | RegExp): Promise<void> {
  await page.locator('#navigation').getByRole('link', { name: link, exact: true }).first().click()
  await headingShown(page, heading)
}

/** From any web admin page: Virtual Hosts, then the host, then the host's page `section`. */
export async function openHostSection(
  page: Page,
  section: 'Users' | 'Shared Roster Groups',
): Promise<void> {
  await follow(page, 'Virtual Hosts', 'Virtual Hosts')
  await page.locator('#content').getByRole('link', { name: HOST, exact: true }).click()
  await page.locator('#navigation').getByRole('link', { name: section, exact: true }).waitFor()
  await follow(page, section, section)
}

/** On the Users page: clicks the account `user` in the list and waits for its page. */
export async function openAccount(page: Page, user: string): Promise<void> {
  await page
    .locator('#content')
    .getByRole('link', { name: `${user}@${HOST}`, exact: true })
    .click()
  await headingShown(page, `User ${user}@${HOST}`)
}

/** On an account's page: "View Roster", waits for the roster's table. */
export async function openRoster(page: Page, user: string): Promise<void> {
  await page.locator('#content').getByRole('link', { name: 'View Roster' }).click()
  await headingShown(page, `Roster of ${user}@${HOST}`)
}

/** On the Shared Roster Groups page: clicks the group `name` and waits for its form. */
export async function openGroup(page: Page, name: string): Promise<void> {
  await page.locator('#content').getByRole('link', { name, exact: true }).click()
  await page.locator('#content h2', { hasText: 'Group' }).waitFor()
  await page.locator('#content td', { hasText: new RegExp(`^${name}$`) }).waitFor()
}

/**
 * Presses the submit button labelled `label` of the page's form and waits for ejabberd's answer
 * to the post (the page again, 200) to be shown.
 */
export async function press(page: Page, label: string): Promise<void> {
  const answered = page.waitForResponse((res) => res.request().method() === 'POST')
  await page.locator(`#content input[type="submit"][value="${label}"]`).click()
  const res = await answered
  if (res.status() !== 200) throw new Error(`pressing ${label} answered ${res.status()}`)
  await page.waitForLoadState('domcontentloaded')
  await page.locator('#content h1').first().waitFor()
}

/** Waits until the page shows web admin's "Submitted" line (the answer to a form that worked). */
export async function submitted(page: Page): Promise<void> {
  await page.locator('#content p.result', { hasText: 'Submitted' }).waitFor()
}
