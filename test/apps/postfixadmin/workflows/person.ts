/** What the scripted person does in PostfixAdmin's pages on several workflows. */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../../types'

/** Types the admin's address and password in the login form and waits for the overview page. */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.getByLabel('Login (email)').fill(app.user.name)
  await page.getByLabel('Password').fill(app.user.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.waitForURL(/main\.php/)
}

/** Fills the edit form's text field `value[<field>]` (labels have no matching ids in 3.3). */
export async function fillField(page: Page, field: string, value: string): Promise<void> {
  const input = page.locator(`[name="value[${field}]"]`)
  await input.click()
  await input.fill(value)
}

/** Clicks the form's submit button (`label`) and waits for the page PostfixAdmin redirects to. */
export async function submitForm(page: Page, label: string, after: RegExp): Promise<void> {
  await Promise.all([
    page.waitForURL(after, { waitUntil: 'domcontentloaded' }),
    page.getByRole('button', { name: label }).click(),
  ])
}

/**
 * The row of the virtual list that shows the mailbox or alias `address` of `table`: the one
 * holding its "edit" link (a mailbox's address also shows in alias rows that forward to it).
 */
export function rowOf(page: Page, address: string, table: 'mailbox' | 'alias' = 'mailbox') {
  const edit = `edit.php?table=${table}&edit=${encodeURIComponent(address)}`
  return page.locator('tr').filter({ has: page.locator(`a[href="${edit}"]`) })
}
