/**
 * What the scripted person does in Cacti's console, shared by the workflows: open an entry of the
 * left-hand menu, pick an option of a drop-down (Cacti draws every `<select>` as a jQuery UI
 * selectmenu: a button `#<id>-button` and a list `#<id>-menu`), and wait for the messages a save
 * shows. Cacti loads each page's content by Ajax (`?header=false`) after the first.
 */
import type { Page } from 'playwright-core'

/**
 * Clicks the console menu's entry `item` (Devices, Sites, ...) under the heading `section`
 * (Management, Configuration, ...), unfolding the heading first when its entries are hidden.
 */
export async function openMenu(page: Page, section: string, item: string): Promise<void> {
  const link = page.locator('#menu a.pic', { hasText: new RegExp(`^${item}$`) })
  if (!(await link.isVisible())) {
    await page.locator('#menu a.menu_parent', { hasText: section }).click()
    await link.waitFor()
  }
  await link.click()
  // The page's script fills and wires its filters after load: typing earlier is lost.
  await page.waitForLoadState('networkidle')
}

/** Opens the drop-down `#id` and picks the option whose label is `label`. */
export async function pickOption(page: Page, id: string, label: string): Promise<void> {
  await page.locator(`#${id}-button`).click()
  await page.locator(`#${id}-menu`).getByRole('option', { name: label, exact: true }).click()
}

/** Clicks the "+" (add) icon of the page's list header, whose link starts with `href`. */
export async function clickAdd(page: Page, href: string): Promise<void> {
  await page.locator(`a.linkOverDark[href^="${href}"]`).click()
}

/** Waits for Cacti's "Save Successful" message after a save. */
export async function saved(page: Page): Promise<void> {
  await page.getByText('Save Successful').first().waitFor({ timeout: 60_000 })
}

/** Ticks the checkbox of the list row whose name link reads `name`. */
export async function tickRow(page: Page, name: string): Promise<void> {
  const row = page.locator('tr', { has: page.getByRole('link', { name, exact: true }) })
  // Cacti hides the real checkbox behind a styled label: clicking the row's cell ticks it.
  await row.locator('input[type=checkbox]').check({ force: true })
}
