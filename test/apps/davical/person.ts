/**
 * What the scripted person does in DAViCal's admin pages, shared by the workflows: open a list
 * from the "User Functions" menu, open a principal by clicking its row in a list, and wait for
 * the message a write shows at the top of the page.
 */
import type { Page } from 'playwright-core'

/** The "User Functions" menu's lists, by the label of their link. */
export type PrincipalList = 'List Users' | 'List Resources' | 'List Groups'

/** Opens a list from the "User Functions" menu (its submenu shows on hover). */
export async function openList(page: Page, list: PrincipalList): Promise<void> {
  await page.locator('#menu a.menu', { hasText: 'User Functions' }).hover()
  await page.getByRole('link', { name: list, exact: true }).click()
  await page.locator('#browse_table').waitFor()
}

/**
 * Clicks the row of the list whose display name is `fullname` (the whole row is a link to the
 * principal's page) and waits for that page.
 */
export async function openPrincipal(page: Page, fullname: string): Promise<void> {
  await page
    .locator('#browse_table tbody tr')
    .locator('td', { hasText: new RegExp(`^${fullname}$`) })
    .click()
  await page.locator('h1', { hasText: `Principal: ${fullname}` }).waitFor()
}

/** Opens "Create Principal" from the "User Functions" menu. */
export async function openCreatePrincipal(page: Page): Promise<void> {
  await page.locator('#menu a.menu', { hasText: 'User Functions' }).hover()
  await page.getByRole('link', { name: 'Create Principal', exact: true }).click()
  await page.locator('h1', { hasText: 'Create New Principal' }).waitFor()
}

/** Waits for the message `text` in the page's message list ("Principal deleted.", ...). */
export async function message(page: Page, text: string): Promise<void> {
  await page.locator('#messages li', { hasText: text }).first().waitFor()
}
