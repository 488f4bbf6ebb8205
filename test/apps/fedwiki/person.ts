/**
 * What the scripted person does in Federated Wiki's pages, shared by the workflows. The client
 * shows pages side by side (a "lineup"); each page is a `div.page` whose id is its slug, its
 * paragraphs are `.item` elements named by `data-id`. A person opens pages by clicking links or a
 * search result, edits a paragraph by double-clicking it (a textarea; clicking elsewhere saves),
 * and adds one with the page's "+" button.
 */
import type { Locator, Page } from 'playwright-core'

/** The page `slug` in the lineup, once its story is drawn. */
export async function shownPage(page: Page, slug: string): Promise<Locator> {
  const paper = page.locator(`.page[id="${slug}"]`)
  await paper.locator('.story').waitFor()
  return paper
}

/** Clicks the link `title` on the page `from` and waits for the page it opens. */
export async function followLink(
  page: Page,
  from: string,
  title: string,
  slug: string,
): Promise<Locator> {
  const source = await shownPage(page, from)
  await source.locator('a.internal', { hasText: title }).first().click()
  return shownPage(page, slug)
}

/** Types `term` into the footer's search box and clicks the result titled `title`. */
export async function searchAndOpen(
  page: Page,
  term: string,
  title: string,
  slug: string,
): Promise<Locator> {
  await shownPage(page, 'welcome-visitors')
  await page.locator('footer input.search').pressSequentially(term, { delay: 40 })
  await page.locator('.incremental-search a.internal', { hasText: title }).first().click()
  return shownPage(page, slug)
}

/** Double-clicks the paragraph of `paper` holding `text` and returns its textarea. */
export async function editParagraph(paper: Locator, text: string): Promise<Locator> {
  const item = paper.locator('.item', { hasText: text })
  await item.dblclick()
  const area = item.locator('textarea')
  await area.waitFor()
  return area
}

/** Clicks the page's title, which ends editing (the client saves on focus out). */
export async function leaveEditor(paper: Locator): Promise<void> {
  await paper.locator('h1 .title').click()
  await paper.locator('textarea').waitFor({ state: 'detached' })
}
