/**
 * What the scripted person does on every ZNC page: sign in with the login box in the page's top
 * bar, and reach the webadmin's pages through the menu on the right.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../../types'

/**
 * Types the user name and password into the top bar's login box and clicks Login; waits until
 * ZNC shows who is logged in (it redirects to `/?cookie_check=true`).
 */
export async function logInFromTopBar(page: Page, app: AppInstance): Promise<void> {
  await page.getByLabel('User:').fill(app.user.name)
  await page.getByLabel('Pass:').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByText(`Logged in as: ${app.user.name}`).waitFor()
}

/** Clicks an entry of the webadmin's menu (Manage Users, Global Settings) and waits for it. */
export async function openMenu(page: Page, entry: string, path: string): Promise<void> {
  await page.locator('#menu').getByRole('link', { name: entry }).click()
  await page.waitForURL(`**/mods/global/webadmin/${path}`)
}

/** On Manage Users: clicks the link (Edit, Delete) in the row of user `name`. */
export async function clickUserRow(page: Page, name: string, link: string): Promise<void> {
  const row = page.locator('#content tbody tr').filter({
    has: page.locator('td', { hasText: new RegExp(`^${name}$`) }),
  })
  await row.getByRole('link', { name: link, exact: true }).click()
}
