/**
 * What the scripted person does in sao, shared by the workflows: open a menu entry of the left
 * tree, search a list with the filter box, open a row, fill a field by its label, save, and wait
 * until sao has no JSON-RPC call in flight (what a person reads as "it finished loading").
 */
import type { Page, Request } from 'playwright-core'

const settling = new WeakMap<Page, { inflight: number; last: number }>()

/** Starts counting `page`'s RPC calls (once per page). */
function track(page: Page): { inflight: number; last: number } {
  const known = settling.get(page)
  if (known) return known
  const s = { inflight: 0, last: Date.now() }
  const rpc = (r: Request) => r.method() === 'POST' && !r.url().endsWith('/bus')
  page.on('request', (r) => {
    if (rpc(r)) {
      s.inflight += 1
      s.last = Date.now()
    }
  })
  const done = (r: Request) => {
    if (rpc(r)) {
      s.inflight = Math.max(0, s.inflight - 1)
      s.last = Date.now()
    }
  }
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  settling.set(page, s)
  return s
}

/** Waits until no RPC call has been in flight for half a second. */
export async function settle(page: Page): Promise<void> {
  const s = track(page)
  await page.waitForTimeout(300)
  const deadline = Date.now() + 20_000
  while ((s.inflight > 0 || Date.now() - s.last < 500) && Date.now() < deadline)
    await page.waitForTimeout(100)
}

/** Waits for sao's menu, opens the "Party" entry and then its child `entry` ("Parties"). */
export async function openMenu(page: Page, entry: string, parent = 'Party'): Promise<void> {
  track(page)
  const item = page.getByText(entry, { exact: true }).first()
  await page.getByText(parent, { exact: true }).first().waitFor()
  if (!(await item.isVisible())) {
    await page.getByText(parent, { exact: true }).first().click()
    await item.waitFor()
  }
  await item.click()
  await settle(page)
}

/** Types `text` into the list's filter box and presses Enter. */
export async function searchList(page: Page, text: string): Promise<void> {
  await page.getByPlaceholder('Search').fill(text)
  await page.getByPlaceholder('Search').press('Enter')
  await settle(page)
}

/** The list row showing `text`. */
export function row(page: Page, text: string) {
  return page.locator('tr', { has: page.locator('td', { hasText: text }) }).first()
}

/** Double-clicks the list row showing `text`, which opens it in the form. */
export async function openRow(page: Page, text: string): Promise<void> {
  await row(page, text).locator('td', { hasText: text }).first().dblclick()
  await settle(page)
}

/** Clicks the toolbar's `name` button (New, Save). */
export async function toolbar(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).first().click()
  await settle(page)
}

/** Fills the form field labelled `label` ("Name:"). */
export async function fillField(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).first().fill(value)
}
