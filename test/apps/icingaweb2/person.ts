/**
 * What the scripted person does in Icinga Web 2's pages, shared by the workflows: sign in with the
 * login form, open a page from the sidebar's cog menu or one's account, open a tab, and wait for the notification a
 * write shows. Icinga's script loads pages into columns (`#col1`, `#col2`) by XHR, so every wait
 * is for what a column shows, not for a page load.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Fills the login form with the app's user and signs in; waits for the dashboard. */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('input[name=username]').fill(app.user.name)
  await page.locator('input[name=password]').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).or(page.locator('input[value=Login]')).click()
  await page.waitForURL(/\/dashboard/)
  await page.locator('#menu').waitFor()
}

/** Opens the cog menu at the foot of the sidebar and clicks its entry `item` (Access Control, ...). */
export async function openMenu(page: Page, item: string): Promise<void> {
  const cog = page.locator('#menu .config-menu .config-nav-item')
  await cog.locator('button').click()
  await cog.locator('.flyout').getByRole('link', { name: item, exact: true }).click()
}

/** Clicks one's own name at the foot of the sidebar: My Account. */
export async function openAccount(page: Page): Promise<void> {
  await page.locator('#menu .config-menu .user-nav-item a').click()
  await page.waitForURL(/\/account/)
}

/** The link of `scope` whose text (not its tooltip) is `text`. */
export function linkNamed(page: Page, scope: string, text: string) {
  return page.locator(`${scope} a`).filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })
}

/** Clicks the tab `name` (Users, User Groups, Roles, Navigation, ...) of the first column. */
export async function openTab(page: Page, name: string): Promise<void> {
  await linkNamed(page, '#col1 .tabs', name).click()
}

/** Waits for the green notification that holds `text`. */
export async function success(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('#notifications li.success', { hasText: text }).first().waitFor()
}
