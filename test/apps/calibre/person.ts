/**
 * What the scripted person does in calibre's web UI (a single-page app; every screen is a
 * `#panel=...` of one page): get past the Digest login, open the library from the home page,
 * search with the search box or pick in the Tag browser, click a book's cover, and use the
 * book's page buttons (Edit metadata, Delete, Download) or the list's (Add books, More actions).
 */
import type { Page, Response } from 'playwright-core'
import type { AppInstance } from '../types'
import { LIBRARY_ID } from './seed'

/**
 * Opens calibre as a browser that already holds the login: the credentials are given to the
 * browser before the page is asked for, as Sitecall's recorder does with a saved login, so
 * Chromium answers the Digest 401 by itself. Then the person clicks the library on the home page
 * and waits for its covers. (The recording's own first load of the start page, before `play`,
 * met the 401 without them: NOTES.md says why.)
 */
export async function openLibrary(page: Page, app: AppInstance): Promise<void> {
  await page.context().setHTTPCredentials({
    username: app.user.name,
    password: app.user.password,
    origin: app.origin,
  })
  await page.goto(`${app.origin}/`, { waitUntil: 'domcontentloaded' })
  await page.locator(`a[data-lid="${LIBRARY_ID}"]`).click()
  await page.waitForURL((url) => url.hash.includes('panel=book_list'))
  await page.locator('a[data-book-id]').first().waitFor()
}

/** Waits for the page's request `method` to a path starting with `prefix`, answered 200. */
export function answered(page: Page, method: string, prefix: string): Promise<Response> {
  return page.waitForResponse(
    (res) =>
      res.request().method() === method &&
      new URL(res.url()).pathname.startsWith(prefix) &&
      res.status() === 200,
  )
}

/**
 * Types `query` into the book list's search box (the magnifier opens it) and presses Enter;
 * waits until the list says what it matched.
 */
export async function searchBooks(page: Page, query: string): Promise<void> {
  await page.locator('[title="Search for books"]').first().click()
  const box = page.locator('input[name="search-books"]')
  await box.fill(query)
  const shown = answered(page, 'GET', '/interface-data/books-init')
  await box.press('Enter')
  await shown
  await page.getByText('Showing books matching:').first().waitFor()
}

/**
 * Opens the search screen's Tag browser, the category `category` ("Tags", "Authors", ...), and
 * clicks `item` in it: calibre lists the books of that item. Waits for the list.
 */
export async function pickInTagBrowser(page: Page, category: string, item: string): Promise<void> {
  await page.locator('[title="Search for books"]').first().click()
  await page.getByText(category, { exact: true }).click()
  const shown = answered(page, 'GET', '/interface-data/books-init')
  await page.getByText(item, { exact: true }).click()
  await shown
  await page.getByText('Showing books matching:').first().waitFor()
}

/** Clicks the cover of the book titled `title` in the list and waits for its page. */
export async function openBook(page: Page, title: string): Promise<void> {
  await page
    .locator(`a[data-book-id][title^="${title.replace(/"/g, '\\"')} by "]`)
    .first()
    .click()
  await page.waitForURL((url) => url.hash.includes('panel=book_details'))
  await page.getByText(title, { exact: true }).first().waitFor()
}

/** On a book's page: "Edit the metadata for this book"; waits for the field list. */
export async function openEditor(page: Page): Promise<void> {
  await page.locator('[title^="Edit the metadata for this book"]').first().click()
  await page.waitForURL((url) => url.hash.includes('panel=edit_metadata'))
  await page.getByText('Tap any field below to edit it').waitFor()
}

/**
 * In the metadata editor: taps the field labelled `label` ("Tags", "Title"), sets its text box
 * with `edit` (given the box), and presses OK.
 */
export async function editField(
  page: Page,
  label: string,
  edit: (box: ReturnType<Page['locator']>) => Promise<void>,
): Promise<void> {
  await page.getByText(`${label}:`, { exact: true }).click()
  const box = page.locator(`input.metadata-editor[name="${label}"]`)
  await box.waitFor()
  await edit(box)
  await page.getByRole('button', { name: 'OK' }).click()
  // Back on the field list, which offers to apply the change.
  await page.getByRole('button', { name: 'Apply changes' }).first().waitFor()
}

/** In the metadata editor: presses "Apply changes" and waits for calibre's answer. */
export async function applyChanges(page: Page): Promise<void> {
  const saved = answered(page, 'POST', '/cdb/set-fields/')
  await page.getByRole('button', { name: 'Apply changes' }).first().click()
  await saved
}
