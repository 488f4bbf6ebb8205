/**
 * Signing in through Roundcube's own login form, as a person whose browser holds no session:
 * the page at any address answers with the form (`_user`, `_pass`, a hidden `_token` and `_url`
 * that remembers the address asked for); Login posts it to `/?_task=login` and Roundcube
 * redirects back to that address, signed in.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../../types'

/** Fills the login form with the app's user and submits it; waits until the task bar shows. */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.getByPlaceholder('Username').fill(app.user.name)
  await page.getByPlaceholder('Password').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.locator('#taskmenu a.logout').waitFor()
}
