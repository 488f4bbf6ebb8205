/** What the scripted person does over and over in MediaWiki's Vector skin. */
import type { Locator, Page } from 'playwright-core'

/**
 * Clicks the header's search box and waits until its typeahead is ready: MediaWiki loads it on
 * the first focus, and before that Enter submits a full-text search instead of "Go".
 */
export async function focusSearchBox(page: Page): Promise<Locator> {
  await page.waitForLoadState('load')
  const box = page.locator('#searchInput')
  await box.click()
  await page.waitForFunction(() => {
    const mw = (window as { mw?: { loader: { getState(name: string): string | null } } }).mw
    return mw?.loader.getState('mediawiki.searchSuggest') === 'ready'
  })
  return box
}

/**
 * Types a page's title into the header's search box, waits for it among the suggestions and
 * presses Enter: MediaWiki's "Go" search jumps straight to a page of that exact title. Waits
 * until the page's heading shows.
 */
export async function openPageBySearch(page: Page, title: string): Promise<void> {
  const box = await focusSearchBox(page)
  await box.pressSequentially(title, { delay: 30 })
  await page.locator('.suggestions-result', { hasText: title }).first().waitFor()
  await box.press('Enter')
  await page.locator('#firstHeading', { hasText: title }).waitFor()
}

/** Opens the "More" menu of page actions (Move, Delete) and clicks the entry named `name`. */
export async function pickPageAction(page: Page, name: 'Move' | 'Delete'): Promise<void> {
  // The menu's label is covered by an invisible checkbox that takes the click, as for a person.
  await page.locator('#p-cactions-checkbox').click()
  await page.locator('#p-cactions').getByRole('link', { name, exact: true }).click()
}
