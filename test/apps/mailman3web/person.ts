/**
 * What the scripted person does in Postorius's pages, shared by the workflows: sign in with
 * allauth's login form, open a list from the list index, open a tab of the list's menu (some are
 * dropdowns: Users, Mass operations), tick a member's row, and wait for the green message a
 * write answers with.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/**
 * Fills the login form (the start page is `/accounts/login/?next=...`) with the app's user and
 * signs in; waits until the browser has left the login page.
 */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#id_login').fill(app.user.name)
  await page.locator('#id_password').fill(app.user.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/accounts/login'))
}

/**
 * On the list index, opens the list shown as `name` ("Team", "Old-project"). Once the user owns
 * a list the index shows only their own lists: then the person first clicks the role filter
 * "All".
 */
export async function openList(page: Page, name: string): Promise<void> {
  await page.locator('header.page-header', { hasText: 'Mailing Lists' }).waitFor()
  const link = page.locator('table').getByRole('link', { name, exact: true })
  if ((await link.count()) === 0) {
    await page.getByRole('link', { name: 'All', exact: true }).click()
    await page.waitForURL(/[?&]all-lists/)
  }
  await link.click()
  await page.waitForURL(/\/postorius\/lists\/[^/]+\/$/)
}

/**
 * Opens the list menu's tab `tab` (Settings, Ban List, Delete), or, with `item`, opens the
 * dropdown `tab` (Users, Mass operations) and clicks its `item` (Members, Mass subscribe).
 */
export async function listTab(page: Page, tab: string, item?: string): Promise<void> {
  const nav = page.locator('ul.nav-tabs, ul.nav').filter({ hasText: 'Held messages' }).first()
  if (!item) {
    await nav.getByRole('link', { name: tab, exact: true }).click()
    return
  }
  await nav.locator('a.dropdown-toggle', { hasText: tab }).click()
  await nav.locator('a.dropdown-item', { hasText: new RegExp(`^\\s*${item}\\s*$`) }).click()
}

/** Ticks the member row whose address is `email` in a list's member table. */
export async function tickMember(page: Page, email: string): Promise<void> {
  await page.locator(`input.member-checkbox[value="${email}"]`).check()
}

/** Waits for the green flash message holding `text`. */
export async function success(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.alert-success', { hasText: text }).first().waitFor()
}
