import type { FrameLocator, Locator, Page, Response } from 'playwright-core'
import { recipePath } from './tiddlers'

/**
 * Waits until the page's first sync with the server answered (`GET
 * /recipes/default/tiddlers.json`), like a person waiting for the sidebar's cloud icon to settle.
 * It may have answered before the person got the page, so the page's recent requests are read.
 */
export async function waitForFirstSync(page: Page): Promise<void> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    for (const request of await page.requests()) {
      if (!request.url().includes('/recipes/default/tiddlers.json')) continue
      if (await request.response()) return
    }
    await page.waitForTimeout(200)
  }
  throw new Error('TiddlyWiki never synced with its server')
}

/** The sidebar's search box. */
function searchBox(page: Page): Locator {
  return page.locator('.tc-sidebar-search input').first()
}

/** Types `term` into the sidebar search and waits for the dropdown listing `expected`. */
export async function search(page: Page, term: string, expected: string): Promise<Locator> {
  const box = searchBox(page)
  await box.click()
  await box.pressSequentially(term, { delay: 40 })
  const results = page.locator('.tc-search-results')
  await results.getByRole('link', { name: expected, exact: true }).first().waitFor()
  return results
}

/** Finds a tiddler through the sidebar search and opens it from the results. */
export async function openBySearch(page: Page, title: string): Promise<Locator> {
  const results = await search(page, title, title)
  await results.getByRole('link', { name: title, exact: true }).first().click()
  const frame = tiddlerFrame(page, title)
  await frame.waitFor()
  return frame
}

/** The story river's view of one tiddler. */
export function tiddlerFrame(page: Page, title: string): Locator {
  return page.locator(`.tc-tiddler-view-frame[data-tiddler-title="${title.replace(/"/g, '\\"')}"]`)
}

/** The (one) tiddler open in edit mode. */
export function editor(page: Page): Locator {
  return page.locator('.tc-tiddler-edit-frame')
}

/** The text editor inside the edit frame: TiddlyWiki renders it inside an iframe. */
export function bodyEditor(page: Page): FrameLocator {
  return page.frameLocator('.tc-tiddler-edit-frame iframe.tc-edit-texteditor-body')
}

/** Opens the open tiddler `title` for editing with its pencil button. */
export async function startEditing(page: Page, title: string): Promise<Locator> {
  await tiddlerFrame(page, title).getByRole('button', { name: 'Edit this tiddler' }).click()
  const frame = editor(page)
  await frame.waitFor()
  return frame
}

/**
 * The server's answer to the next request `method` on a path that `path` matches, 2xx only.
 * Saving is throttled by the client's syncer (about a second after the change), so the person
 * waits for it like for a spinner to stop.
 */
export function nextWrite(page: Page, method: string, path: string): Promise<Response> {
  return page.waitForResponse(
    (r) =>
      r.request().method() === method && new URL(r.url()).pathname === path && r.status() < 300,
    { timeout: 20_000 },
  )
}

/**
 * Clicks the edit frame's tick and waits until the client saved `title` (its PUT): every edit,
 * creation and rename ends this way, before the person looks for the result.
 */
export async function confirmEdit(page: Page, frame: Locator, title: string): Promise<void> {
  const saved = nextWrite(page, 'PUT', recipePath(title))
  await frame.getByRole('button', { name: 'Confirm changes to this tiddler' }).click()
  await saved
}
