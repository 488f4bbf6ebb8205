/**
 * What the scripted person does in Icecast's web pages: open the admin pages from the public
 * status page (answering the Basic login, or with a browser that has it already), go to the
 * Mountpoint List, pick a mount's box and one of its links, pick a row of a table, fill a small
 * form. Every recording starts on a public page (`/status.xsl` or `/server_version.xsl`).
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Escapes a text for a RegExp that matches it whole. */
export const exactly = (text: string): RegExp =>
  new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)

/** Waits until the Admin Home page (`/admin/`, rendered from stats.xsl) is shown. */
async function adminHomeShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Global Server Stats' }).waitFor()
}

/** The credentials of the admin account, for this origin only. */
function giveLogin(page: Page, app: AppInstance): Promise<void> {
  return page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
}

/**
 * Clicks "Administration" on the public status page with a browser that holds the admin login
 * already (what Sitecall's recorder does with a saved Basic login): Chromium answers the 401
 * itself and the Admin Home page opens.
 */
export async function openAdminSignedIn(page: Page, app: AppInstance): Promise<void> {
  await giveLogin(page, app)
  await page.getByRole('link', { name: 'Administration' }).click()
  await adminHomeShown(page)
}

/**
 * Clicks "Administration" not signed in: Icecast answers 401 and Chromium, asked nothing, fails
 * the load (which is when the recorder asks the person); then the person's answer is given to the
 * browser and the challenged page loaded again, as the recorder's `answerAuth` does.
 */
export async function openAdminAnsweringPrompt(page: Page, app: AppInstance): Promise<void> {
  const challenged = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/admin/' && res.status() === 401,
  )
  await page.getByRole('link', { name: 'Administration' }).click()
  await challenged
  await giveLogin(page, app)
  await page.goto(`${app.origin}/admin/`, { waitUntil: 'domcontentloaded' })
  await adminHomeShown(page)
}

/** Clicks "Mountpoint List" in the admin menu and waits for the list. */
export async function openMountList(page: Page): Promise<void> {
  await page.locator('#menu').getByRole('link', { name: 'Mountpoint List' }).click()
  await page.getByRole('heading', { name: 'Active Mountpoints' }).waitFor()
}

/** The box of `mount` on an admin page (its heading reads "Mountpoint /live.mp3"). */
export function mountBox(page: Page, mount: string): Locator {
  return page
    .locator('.roundbox')
    .filter({ has: page.getByRole('heading', { name: exactly(`Mountpoint ${mount}`) }) })
}

/** Clicks the link `name` ("List Clients", "Kill Source"...) in `mount`'s box. */
export async function clickMountLink(page: Page, mount: string, name: string): Promise<void> {
  await mountBox(page, mount).getByRole('link', { name, exact: true }).click()
}

/** Waits for Icecast's response page with `message` ("Message: Source Removed"). */
export async function responseShown(page: Page, message: string | RegExp): Promise<void> {
  await page.getByRole('heading', { name: 'Icecast Server Response' }).waitFor()
  await page.getByText(message).waitFor()
}

/** Types `text` into a box as a person does (one key at a time). */
export async function typeInto(box: Locator, text: string): Promise<void> {
  await box.click()
  await box.pressSequentially(text, { delay: 30 })
}
