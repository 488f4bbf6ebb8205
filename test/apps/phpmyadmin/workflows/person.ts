/**
 * How the scripted person moves through phpMyAdmin: waits until a page's scripts have bound
 * their handlers (phpMyAdmin loads pages by XHR and binds clicks afterwards; a click before that
 * falls through to a plain link), signs in with the login form, and finds the insert/edit form's
 * field of a column (named by the md5 of the column name).
 */
import { createHash } from 'node:crypto'
import type { Locator, Page } from 'playwright-core'
import type { AppInstance, RequestKey } from '../../types'

/** Any page of phpMyAdmin read signed in: each carries the session's CSRF token. */
export const ANY_PAGE: RequestKey = { method: 'GET', path: '/index.php' }

/** The browse page of a table (its rows, each with Edit/Delete links naming the row). */
export const BROWSE: RequestKey = {
  method: 'GET',
  path: '/index.php',
  operation: { field: 'route', value: '/sql' },
}

/** The md5 of a column name: how phpMyAdmin names a column's fields in the row forms. */
export function columnHash(column: string): string {
  return createHash('md5').update(column).digest('hex')
}

/** Resolves once the page made no request for a while (its XHRs and scripts are done). */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
}

/** The field of `column` in the first row of the insert/edit form. */
export function rowField(page: Page, column: string): Locator {
  return page.locator(`#insertForm [name="fields[multi_edit][0][${columnHash(column)}]"]`)
}

/**
 * A link whose text is exactly `text` (its icon's alt text repeats the label, so the accessible
 * name is "Edit Edit" and a role lookup by exact name misses it).
 */
export function linkText(scope: Page | Locator, text: string): Locator {
  return scope.locator('a').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })
}

/** A tab of the top menu (Browse, Structure, SQL, Search, Insert, Export, Databases...). */
function tab(page: Page, name: string): Locator {
  return linkText(page.locator('#topmenu'), name)
}

/** A link in the navigation tree on the left (a database or a table). */
export function navLink(page: Page, name: string): Locator {
  return page.locator('#pma_navigation_tree').getByRole('link', { name, exact: true })
}

/** Fills the login form with the app's user, submits it and waits for the signed-in home page. */
export async function logInByForm(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#input_username').fill(app.user.name)
  await page.locator('#input_password').fill(app.user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('#pma_navigation_tree').waitFor()
  await settle(page)
}

/**
 * Clicks a top-menu tab and waits for `ready` on the page it loads. A click that lands while the
 * previous page's XHR load still finishes is dropped by phpMyAdmin's page loader, so a person who
 * sees nothing happen clicks again: this does the same, once.
 */
export async function openTab(page: Page, name: string, ready: Locator): Promise<void> {
  await tab(page, name).click()
  try {
    await ready.waitFor({ timeout: 8000 })
  } catch {
    await settle(page)
    await tab(page, name).click()
    await ready.waitFor()
  }
}
