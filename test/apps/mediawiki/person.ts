/** What the scripted person does over and over in MediaWiki's Vector skin. */
import type { Page } from 'playwright-core'

/**
 * Types a page's title into the header's search box and presses Enter: MediaWiki's "Go" search
 * jumps straight to a page of that exact title. Waits until the page's heading shows.
 */
export async function openPageBySearch(page: Page, title: string): Promise<void> {
  const box = page.locator('#searchInput')
  await box.click()
  await box.pressSequentially(title, { delay: 30 })
  await box.press('Enter')
  await page.locator('#firstHeading', { hasText: title }).waitFor()
}

/** Opens the "More" menu of page actions (Move, Delete) and clicks the entry named `name`. */
export async function pickPageAction(page: Page, name: 'Move' | 'Delete'): Promise<void> {
  // The menu's label is covered by an invisible checkbox that takes the click, as for a person.
  await page.locator('#p-cactions-checkbox').click()
  await page.locator('#p-cactions').getByRole('link', { name, exact: true }).click()
}

/**
 * Waits until the page's body text holds `text`: the UI showing the result of what the person did.
 */
export async function waitForText(page: Page, text: string): Promise<void> {
  await page.locator('#mw-content-text', { hasText: text }).first().waitFor()
}
