/** What the scripted person does on Adminer's pages that several workflows share. */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../../types'
import { DATABASE, SERVER } from '../seed'

/**
 * Fills Adminer's login form as a person does (System: PostgreSQL, Server, Username, Password,
 * Database), clicks Login and waits for the shop database's page. The form's fields have no
 * labels (they sit in table headers), so they are found by name.
 */
export async function logInOnForm(page: Page, app: AppInstance): Promise<void> {
  await page.locator('select[name="auth[driver]"]').selectOption({ label: 'PostgreSQL' })
  await page.locator('input[name="auth[server]"]').fill(SERVER)
  await page.locator('input[name="auth[username]"]').fill(app.user.name)
  await page.locator('input[name="auth[password]"]').fill(app.user.password)
  await page.locator('input[name="auth[db]"]').fill(DATABASE)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.getByRole('heading', { name: 'Schema: public' }).waitFor()
}

/** Clicks the `select` link next to `table` in the left menu and waits for its rows. */
export async function openTable(page: Page, table: string): Promise<void> {
  await page.locator(`#tables a.select[href$="select=${table}"]`).click()
  await page.getByRole('heading', { name: `Select: ${table}` }).waitFor()
}
