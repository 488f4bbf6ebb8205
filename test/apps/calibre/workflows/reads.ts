/**
 * calibre workflows that only read: a search typed into the book list's search box, a tag picked
 * in the Tag browser, and the list sorted by title.
 */
import type { Workflow } from '../../types'
import { BOOKS_INIT, listsExactly, mustPass, searchByHand } from '../keys'
import { answered, openLibrary, pickInTagBrowser, searchBooks } from '../person'
import { LIBRARY_ID } from '../seed'
import { readBooks } from '../session'

/** Types the author's name into the search box: the books that mention it (by that author). */
export const searchAuthor: Workflow = {
  id: 'search_author',
  intent: 'find the books by Ravi Kumar in my calibre library',
  rewordings: {
    terse: 'calibre books Ravi Kumar',
    chatty:
      "I can't remember which Ravi Kumar novels I already own, could you look them up in my calibre library?",
    withoutValue: 'search my calibre library for an author',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await searchBooks(page, 'Ravi Kumar')
    await page.locator('a[data-book-id][title="The Quiet Engine by Ravi Kumar"]').waitFor()
  },
  key: {
    target: BOOKS_INIT,
    inputs: [{ recorded: 'Ravi Kumar', changed: ['Clara Voss', 'Helen Marsh'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await searchByHand(app, session, 'Clara Voss')
      mustPass(
        await searchAuthor.key.check(app, { status: 'succeeded', result: answer }, session, [
          'Clara Voss',
        ]),
      )
    },
    async check(app, run, session, used) {
      const author = String(used[0])
      const all = await readBooks(app, session)
      const theirs = [...all.values()].filter((b) => b.authors.includes(author))
      if (!theirs.length) return `the library holds no book by ${author}`
      return listsExactly(run.result, theirs, all, `the books by ${author}`)
    },
  },
}

/**
 * Opens the search screen, the Tag browser's "Tags" category, and clicks a tag: calibre lists
 * the books with exactly that tag (`search=tags:"=poetry"`). The tag is what the person picked.
 */
export const booksWithTag: Workflow = {
  id: 'books_with_tag',
  intent: 'show the books tagged poetry in calibre',
  rewordings: {
    terse: 'calibre poetry books',
    chatty: "I'm in the mood for some verse tonight, which of my calibre books are tagged poetry?",
    withoutValue: 'list the books with a given tag in calibre',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await pickInTagBrowser(page, 'Tags', 'poetry')
    await page.locator('a[data-book-id][title="Night Songs by Helen Marsh"]').waitFor()
  },
  key: {
    target: BOOKS_INIT,
    inputs: [{ recorded: 'poetry', changed: ['gardening', 'fantasy'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await searchByHand(app, session, 'tags:"=gardening"')
      mustPass(
        await booksWithTag.key.check(app, { status: 'succeeded', result: answer }, session, [
          'gardening',
        ]),
      )
    },
    async check(app, run, session, used) {
      const tag = String(used[0])
      const all = await readBooks(app, session)
      const tagged = [...all.values()].filter((b) => b.tags.includes(tag))
      if (!tagged.length) return `the library holds no book tagged ${tag}`
      return listsExactly(run.result, tagged, all, `the books tagged ${tag}`)
    },
  },
}

/** The ids a search answer lists, in its order (`search_result.book_ids`); null when none. */
function listedIds(result: unknown): number[] | null {
  let value = result
  if (typeof value === 'string')
    try {
      value = JSON.parse(value) as unknown
    } catch {
      return null
    }
  const ids = (value as { search_result?: { book_ids?: unknown } } | null)?.search_result?.book_ids
  return Array.isArray(ids) && ids.every((id) => typeof id === 'number') ? ids : null
}

/**
 * The list's "Sort books" button, then "Title": the page asks for the library again sorted by
 * calibre's title sort (`sort=sort.asc`, "The Lighthouse..." under L) and saves the choice in the
 * user's preferences. Nothing is typed; the field is what the person picked.
 */
export const sortByTitle: Workflow = {
  id: 'sort_by_title',
  intent: 'sort the books in my calibre library by title',
  rewordings: {
    terse: 'calibre sort by title',
    chatty:
      'My calibre library is in the order I added things, can you put the books in title order?',
    withoutValue: 'change how my calibre books are sorted',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await page.locator('[title="Sort books"]').first().click()
    await page.getByText('Change how the list of books is sorted').waitFor()
    const sorted = answered(page, 'GET', '/interface-data/books-init')
    await page.getByText('Title', { exact: true }).click()
    await sorted
    await page.waitForURL((url) => url.hash.includes('sort=sort.asc'))
  },
  key: {
    target: BOOKS_INIT,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const params = new URLSearchParams({ library_id: LIBRARY_ID, sort: 'sort.asc' })
      const res = await app.fetch(`/interface-data/books-init?${params}&${Date.now()}`, { session })
      if (res.status !== 200) throw new Error(`the sorted list answered ${res.status}`)
      mustPass(
        await sortByTitle.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          [],
        ),
      )
    },
    async check(app, run, session) {
      const ids = listedIds(run.result)
      if (!ids) return 'the answer lists no book ids (search_result.book_ids)'
      // calibre's own order by title sort, from its JSON API, for every book of the library.
      const res = await app.fetch(
        `/ajax/search/${LIBRARY_ID}?query=&sort=sort&sort_order=asc&num=1000`,
        {
          session,
        },
      )
      const want = ((await res.json()) as { book_ids: number[] }).book_ids
      return JSON.stringify(ids) === JSON.stringify(want)
        ? null
        : `the answer lists the books as ${ids.join(',')}, not by title (${want.join(',')})`
    },
  },
}
