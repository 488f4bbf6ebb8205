/**
 * What the scripted person does in Tiny Tiny RSS's page, shared by the workflows: log in through
 * the login form, open the Actions menu (the ☰ button of the toolbar), open a feed in the tree
 * (expanding its category first, as the tree starts with categories folded), and wait for the
 * `backend.php` answer a click causes.
 */
import type { Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** True when `body` (a form body) names `op` and `method`. */
function names(body: string | null, op: string, method?: string): boolean {
  const form = new URLSearchParams(body ?? '')
  return form.get('op') === op && (method === undefined || form.get('method') === method)
}

/** Runs `action` and waits for the answer to the `backend.php` POST with `op` and `method`. */
export async function answerOf(
  page: Page,
  op: string,
  method: string | undefined,
  action: () => Promise<void>,
): Promise<void> {
  const answered = page.waitForResponse(
    (r) =>
      r.url().includes('/backend.php') &&
      r.request().method() === 'POST' &&
      names(r.request().postData(), op, method),
  )
  await action()
  await answered
}

/** Waits until the main page has drawn its feed tree and first headlines. */
export async function mainReady(page: Page): Promise<void> {
  await page.locator('#feedTree .dijitTreeLabel', { hasText: 'All articles' }).waitFor()
  await page.locator('#headlines-frame .cdm, #headlines-frame .hl').first().waitFor()
}

/** Fills the login form with the app's user and logs in; waits until the main page is drawn. */
export async function logIn(page: Page, app: AppInstance): Promise<void> {
  await page.locator('input#login').fill(app.user.name)
  await page.locator('input[name=password]').fill(app.user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await mainReady(page)
}

/** Opens the Actions menu (☰) and picks `item`. */
export async function pickAction(page: Page, item: string): Promise<void> {
  await page.locator('.action-chooser .action-button').click()
  await page.locator('.dijitPopup .dijitMenuItem', { hasText: item }).click()
}

/** Unfolds `category` in the feed tree (when folded) and clicks the feed `title` in it. */
export async function openFeed(page: Page, category: string, title: string): Promise<void> {
  const row = page.locator('#feedTree .dijitTreeRow', {
    has: page.locator('.dijitTreeLabel', { hasText: new RegExp(`^${category}$`) }),
  })
  const feed = page.locator('#feedTree .dijitTreeLabel', { hasText: new RegExp(`^${title}$`) })
  if (!(await feed.isVisible())) await row.locator('.dijitTreeExpando').click()
  await answerOf(page, 'feeds', 'view', () => feed.click())
  await page.locator('#feed_title', { hasText: title }).waitFor()
}

/** The headline row (combined view) of the article `title`. */
export function articleRow(page: Page, title: string) {
  return page.locator('#headlines-frame .cdm', {
    has: page.locator('.title', { hasText: title }),
  })
}

/** From the main page, opens Preferences (Actions ☰ → Preferences...) and waits for it. */
export async function openPreferences(page: Page): Promise<void> {
  await pickAction(page, 'Preferences...')
  await page.getByRole('tab', { name: /Feeds/ }).waitFor()
}
