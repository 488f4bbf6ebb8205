/**
 * What the scripted person does in graphite-web's pages, shared by the workflows: type a metric
 * path into the dashboard's completer and click a result, open the dashboard toolbar's menus,
 * answer ExtJS prompts and confirmations, pick from the dashboard finder, and work the Django
 * admin's lists and forms.
 */
import type { Page, Response } from 'playwright-core'

/**
 * Runs `act` while waiting for the page's response that `match` accepts; resolves when both are
 * done. Waiting and acting together means a failed act never leaves the wait unhandled.
 */
export async function answered(
  page: Page,
  match: (res: Response) => boolean,
  act: () => Promise<unknown>,
): Promise<void> {
  await Promise.all([page.waitForResponse(match), act()])
}

/** The dashboard's metric completer (the text field under the metric list). */
const COMPLETER = '.completer-input-field'

/**
 * Types `typed` into the completer, letter by letter as a person does, and waits until the list
 * answers for the whole of it (its find request for exactly `typed`).
 */
export async function typeMetricPath(page: Page, typed: string): Promise<void> {
  const field = page.locator(COMPLETER)
  await field.waitFor()
  await field.click()
  const body = `query=${encodeURIComponent(typed)}&`
  await answered(
    page,
    (r) => r.url().includes('/metrics/find/') && (r.request().postData() ?? '').startsWith(body),
    () => field.pressSequentially(typed, { delay: 40 }),
  )
}

/**
 * Types the folder `folder` (ending in a dot) into the completer and clicks the metric `metric`
 * in the list, which adds its graph; waits for the graph's image.
 */
export async function addGraph(page: Page, folder: string, metric: string): Promise<void> {
  await typeMetricPath(page, folder)
  const row = page.locator('.metric-result', {
    hasText: new RegExp(`^${metric.replace(/\./g, '\\.')}$`),
  })
  await answered(
    page,
    (r) => r.url().includes('/render?') && decodeURIComponent(r.url()).includes(metric),
    () => row.first().click(),
  )
  await page.locator('img.graph-img').first().waitFor()
}

/** Opens the toolbar menu `menu` (Dashboard, Graphs) and clicks its item `item`. */
export async function toolbarMenu(page: Page, menu: string, item: string): Promise<void> {
  await page
    .locator('.x-toolbar button', { hasText: new RegExp(`^${menu}$`) })
    .first()
    .click()
  await page
    .locator('.x-menu:visible .x-menu-item-text', { hasText: new RegExp(`^${item}$`) })
    .click()
}

/** The ExtJS window on top whose title is `title`. */
export function extWindow(page: Page, title: string) {
  return page.locator('.x-window:visible', {
    has: page.locator('.x-window-header-text', { hasText: title }),
  })
}

/** Clicks the button `text` of the ExtJS window titled `title`. */
export async function windowButton(page: Page, title: string, text: string): Promise<void> {
  await extWindow(page, title)
    .locator('button', { hasText: new RegExp(`^${text}$`) })
    .click()
}

/** Answers the ExtJS prompt titled `title` with `value` and clicks OK. */
export async function answerPrompt(page: Page, title: string, value: string): Promise<void> {
  const win = extWindow(page, title)
  await win.locator('input.ext-mb-input').fill(value)
  await windowButton(page, title, 'OK')
}

/** Opens Dashboard → Finder and waits for its list. */
export async function openFinder(page: Page): Promise<void> {
  await answered(
    page,
    (r) => r.url().includes('/dashboard/find/'),
    () => toolbarMenu(page, 'Dashboard', 'Finder'),
  )
  await extWindow(page, 'Dashboard Finder').locator('dl').first().waitFor()
}

/** Clicks the dashboard `name` in the open finder's list. */
export async function pickInFinder(page: Page, name: string): Promise<void> {
  await extWindow(page, 'Dashboard Finder')
    .locator('dl', { hasText: new RegExp(`^${name}$`) })
    .click()
}

/** Ticks the admin change list's row that shows `text` (a link in its first column). */
export async function tickAdminRow(page: Page, text: string): Promise<void> {
  const row = page.locator('#result_list tbody tr', {
    has: page.locator('th a', { hasText: text }),
  })
  await row.locator('input.action-select').check()
}
