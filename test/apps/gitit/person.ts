/**
 * What the scripted person does in Gitit's pages, shared by the workflows: sign in with the
 * login form, open a page from "All pages" in the sidebar, click a tab above the page (view,
 * edit, history, revert) or an entry of the sidebar's "This page" box, and wait for the page
 * the app answers with.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/**
 * Clicks "Login / Get an account" at the top, fills the login form with the app's user and logs
 * in; waits until the top shows the Logout link.
 */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#loginlink').click()
  await page.waitForURL(/\/_login/)
  await page.locator('#loginForm #username').fill(app.user.name)
  await page.locator('#loginForm #password').fill(app.user.password)
  await page.locator('#loginForm #login').click()
  await page.locator('#logoutlink').waitFor()
}

/** Clicks "All pages" in the sidebar, then the page `title` in the list. */
export async function openPage(page: Page, title: string): Promise<void> {
  await page.locator('.sitenav').getByRole('link', { name: 'All pages', exact: true }).click()
  await page.waitForURL(/\/_index$/)
  await page.locator('ul.index').getByRole('link', { name: title, exact: true }).click()
  await page.locator('h1.pageTitle', { hasText: title }).waitFor()
}

/** Clicks the tab `name` (view, edit, history, discuss, revert) above the page. */
export async function pageTab(page: Page, name: string): Promise<void> {
  await page.locator('ul.tabs').getByRole('link', { name, exact: true }).click()
}

/** Waits for the editor and replaces the page's text with `text`. */
export async function typeText(page: Page, text: string): Promise<void> {
  const area = page.locator('#editedText')
  await area.waitFor()
  await area.fill(text)
}
