/**
 * How the scripted person works Prometheus's classic web UI (Debian ships no React UI): the
 * expression box and its Graph/Console tabs on `/classic/graph`, and the navigation bar.
 */
import type { Locator, Page } from 'playwright-core'

/** The expression box of the (first) graph panel. */
function expressionBox(page: Page): Locator {
  return page.locator('textarea[name=expr]').first()
}

/**
 * Puts `expr` into the expression box as a paste. Typed key by key, the box loses every `(`
 * while its metric-name suggestions are open: the typeahead takes the key press of `(` (key
 * code 40) for the Down arrow. People paste or retype; pasting is what the person does here.
 * Escape then closes the suggestions so they do not cover the buttons.
 */
export async function enterExpression(page: Page, expr: string): Promise<void> {
  const box = expressionBox(page)
  await box.click()
  await box.fill(expr)
  await box.press('Escape')
}

/** Clicks Execute (the page then asks /api/v1/query or /api/v1/query_range, per the open tab). */
export async function execute(page: Page): Promise<void> {
  await page.locator('input.execute_btn').first().click()
}

/** Opens the panel's Graph tab (the page starts on Console). */
export async function openGraphTab(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Graph' }).first().click()
  await page.locator('input[name=range_input]').first().waitFor()
}

/** Types a new time range (`6h`, `1d`) into the Graph tab's range box. */
export async function setRange(page: Page, range: string): Promise<void> {
  const box = page.locator('input[name=range_input]').first()
  await box.fill(range)
}

/**
 * Types the graph's end time (`YYYY-MM-DD HH:mm`, UTC) into the "Until" box; Enter makes its date
 * picker take it. With no expression yet the page sends nothing.
 */
export async function setEnd(page: Page, end: string): Promise<void> {
  const box = page.locator('input[name=end_input]').first()
  await box.click()
  await box.fill(end)
  await box.press('Enter')
  // The picker stays open over the panel; a click on the page heading area closes it.
  await page.locator('body').click({ position: { x: 5, y: 70 } })
}

/** Opens a page from the navigation bar's Status menu ("Targets", "Rules", ...). */
export async function openStatusPage(page: Page, item: string): Promise<void> {
  await page
    .getByRole('button', { name: 'Status' })
    .or(page.locator('a.dropdown-toggle'))
    .first()
    .click()
  await page.locator('.dropdown-menu').getByText(item, { exact: true }).click()
}
