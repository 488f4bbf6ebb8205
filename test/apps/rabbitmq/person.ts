/**
 * What the scripted person does in the RabbitMQ management UI: sign in with the login form, move
 * between tabs, open a queue, exchange or user by clicking its row, unfold a section ("Get
 * messages", "Delete", "Publish message", ...) and submit its form.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppInstance } from '../types'

/** Types `text` into `field` key by key, as a person does (after clearing what it held). */
export async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click()
  await field.fill('')
  await field.pressSequentially(text, { delay: 30 })
}

/** Waits until the signed-in layout shows (its tabs and the "User" line of the header). */
async function signedInShown(page: Page): Promise<void> {
  await page.locator('#tabs').waitFor()
}

/**
 * Signs in with the UI's own login form: types the user name and password and presses Login. The
 * form never reaches the server; the page keeps the login in its cookie and asks
 * `GET /api/whoami` with `Authorization: Basic`.
 */
export async function signInWithForm(page: Page, app: AppInstance): Promise<void> {
  const form = page.locator('#login form')
  await form.waitFor()
  await typeInto(form.locator('input[name="username"]'), app.user.name)
  await form.locator('input[name="password"]').fill(app.user.password)
  const whoami = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/whoami' && res.status() === 200,
  )
  await form.getByRole('button', { name: 'Login' }).click()
  await whoami
  await signedInShown(page)
}

/** Clicks a top tab (`Queues`, `Exchanges`, `Admin`) and waits for its page's heading. */
export async function openTab(page: Page, tab: string, heading: RegExp): Promise<void> {
  await page.locator('#tabs').getByRole('link', { name: tab, exact: true }).click()
  await page.locator('#main h1').filter({ hasText: heading }).waitFor()
}

/**
 * Opens the Queues tab and waits until the list shows `name` (the list comes from
 * `GET /api/queues?page=1&page_size=100&name=&use_regex=false&pagination=true`).
 */
export async function openQueues(page: Page, name?: string): Promise<void> {
  const listed = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/queues' && res.ok(),
  )
  await openTab(page, 'Queues', /Queues/)
  await listed
  if (name) await queueLink(page, name).waitFor()
}

/** The link of queue `name` in the queues list. */
export function queueLink(page: Page, name: string): Locator {
  return page.locator('#main table.list').getByRole('link', { name, exact: true })
}

/** Clicks queue `name` in the list and waits for its own page ("Queue <name>"). */
export async function openQueue(page: Page, name: string): Promise<void> {
  await queueLink(page, name).click()
  await page.locator('#main h1').filter({ hasText: name }).waitFor()
}

/**
 * Unfolds the page's section titled `title` (the UI folds most of them: a click on the heading
 * opens it) and returns it.
 */
export async function unfold(page: Page, title: string): Promise<Locator> {
  const heading = page.locator('h2').filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) })
  const section = page
    .locator('#main div.section, #main div.section-hidden')
    .filter({ has: heading })
    .first()
  const hider = section.locator('.hider').first()
  if (!(await hider.isVisible())) await section.locator('h2').first().click()
  await hider.waitFor({ state: 'visible' })
  return section
}

/** Waits for the UI's little notice box ("Queue purged", "Message published.") to say `text`. */
export async function popupSays(page: Page, text: string): Promise<void> {
  await page.locator('.form-popup-info, .form-popup-warn').filter({ hasText: text }).waitFor()
}

/** Answers the page's next `confirm()` ("Are you sure?") with OK, as the person clicks it. */
export function acceptNextConfirm(page: Page): void {
  page.once('dialog', (dialog) => void dialog.accept())
}

/** Resolves once the page's `method` request to a path matching `path` was answered 2xx. */
export function answered(page: Page, method: string, path: RegExp): Promise<unknown> {
  return page.waitForResponse(
    (res) =>
      res.request().method() === method &&
      path.test(decodeURIComponent(new URL(res.url()).pathname)) &&
      res.status() < 300,
  )
}
