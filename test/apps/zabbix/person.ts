/**
 * What the scripted person does in Zabbix's pages, shared by the workflows: sign in with the
 * login form, open a page from the sidebar menu, tick a row's checkbox in a list, pick an entry
 * from a multiselect's suggestions, and wait for the message a write shows.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Fills the login form with the app's user and signs in; waits for the dashboard. */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('#name').fill(app.user.name)
  await page.locator('#password').fill(app.user.password)
  await page.locator('#enter').click()
  await page.waitForURL(/action=dashboard\.view/)
}

/** The ids of the sidebar menu's sections. */
const SECTIONS = { Configuration: 'config', Administration: 'admin' }

/** Opens `section` of the sidebar menu (Configuration, Administration) and clicks `item`. */
export async function openMenu(
  page: Page,
  section: keyof typeof SECTIONS,
  item: string,
): Promise<void> {
  const id = SECTIONS[section]
  const menu = page.locator(`aside.sidebar li#${id}`)
  // A folded section's links are in the page (and count as visible) but lie under the next
  // section: unfold it first and let its slide finish.
  if (!((await menu.getAttribute('class')) ?? '').includes('is-expanded')) {
    await menu.locator(':scope > a').click()
    await page.locator(`aside.sidebar li#${id}.is-expanded`).waitFor()
    await page.waitForTimeout(400)
  }
  await menu.locator(':scope > ul.submenu > li > a', { hasText: new RegExp(`^${item}$`) }).click()
}

/** Ticks the checkbox of the list row that shows `text`. */
export async function tickRow(page: Page, text: string): Promise<void> {
  const row = page.locator('table.list-table tbody tr', {
    has: page.getByRole('link', { name: text, exact: true }),
  })
  await row.locator('input[type=checkbox]').check()
}

/** Types `typed` into the multiselect `input` and picks the suggestion `label`. */
export async function pickSuggestion(
  page: Page,
  input: string,
  typed: string,
  label: string,
): Promise<void> {
  await page.locator(input).pressSequentially(typed, { delay: 30 })
  await page.locator('.multiselect-suggest li', { hasText: new RegExp(`^${label}$`) }).click()
}

/** Clicks the list's `button` (Delete, ...) and accepts the browser's confirm dialog. */
export async function confirmButton(page: Page, button: string): Promise<void> {
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: button, exact: true }).click()
}

/** Waits for the green message `text` ("Group added", "User deleted", ...). */
export async function success(page: Page, text: string): Promise<void> {
  await page.locator('output.msg-good', { hasText: text }).waitFor()
}
