/**
 * What the scripted person does on Shaarli's pages, shared by the workflows: open the header's
 * search box, sign in with the login form, open a bookmark's row in the list, save the shaare form.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/**
 * Clicks the magnifier in the header (the search box is folded away until then), types `term`
 * into "Search text" and presses Enter; waits for the results page.
 */
export async function searchFor(page: Page, term: string): Promise<void> {
  await page.locator('.subheader-opener[data-open-id="search"]').first().click()
  const box = page.locator('#searchform_value')
  await box.click()
  await box.pressSequentially(term, { delay: 40 })
  await box.press('Enter')
  await page.waitForURL(/searchterm=/)
}

/**
 * Signed out on any page: clicks the header's Login icon, types the user name and password into
 * the login page's form ("Remember me" stays ticked, as Shaarli offers it) and submits; Shaarli
 * sends the person back to the page they came from. Waits until the header offers Logout.
 */
export async function signInFromHeader(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#login-button').click()
  await page.waitForURL(/\/login/)
  await page.locator('input[name=login]:visible').fill(app.user.name)
  await page.locator('input[name=password]:visible').fill(app.user.password)
  await page.locator('input[type=submit][value=Login]:visible').click()
  await page.locator('a[href="/admin/logout"]').first().waitFor({ state: 'attached' })
}

/** The row of the bookmark list whose title is exactly `title`. */
export function row(page: Page, title: string): Locator {
  return page.locator('.linklist-item').filter({
    has: page.locator('.linklist-link', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
  })
}

/** Clicks the pencil (Edit) of the row titled `title` and waits for the shaare form. */
export async function openEditor(page: Page, title: string): Promise<void> {
  await row(page, title).locator('a[aria-label=Edit]:visible').first().click()
  await page.waitForURL(/\/admin\/shaare\/\d+/)
}

/** Clicks the shaare form's save button and waits until Shaarli shows the list again. */
export async function saveShaare(page: Page): Promise<void> {
  await page.locator('#button-save-edit').click()
  await page.waitForURL((url) => url.pathname === '/')
}

/** Clicks Tools in the header menu, then the Tools page's button named `name`. */
export async function openTool(page: Page, name: string): Promise<void> {
  await page
    .locator('.pure-menu-link', { hasText: /^Tools$/ })
    .first()
    .click()
  await page.waitForURL(/\/admin\/tools/)
  await page.getByRole('link', { name, exact: true }).click()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
