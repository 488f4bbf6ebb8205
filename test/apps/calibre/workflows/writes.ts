/**
 * calibre workflows that change the library or the user's preferences: a tag added and a title
 * corrected in the metadata editor of a book found with the search box, a book deleted from its
 * page, a file uploaded with "Add books", and the book list's display mode.
 */
import type { Workflow } from '../../types'
import { BOOKS_INIT, bookTitled, mustPass, searchByHand, setFieldsByHand } from '../keys'
import {
  answered,
  applyChanges,
  editField,
  openBook,
  openEditor,
  openLibrary,
  searchBooks,
} from '../person'
import { BOOKS, LIBRARY_ID, seededId } from '../seed'
import { readBooks, readSessionData } from '../session'

/**
 * Searches the book by its title, opens it, "Edit metadata", taps Tags and adds the tag after the
 * ones it has (the box lists them, comma separated), OK, "Apply changes":
 * `POST /cdb/set-fields/<id>/<library>` with `{"changes": {"tags": [...]}}`.
 */
export const addTag: Workflow = {
  id: 'add_tag',
  intent: 'add the tag space opera to Orbit of Stones in calibre',
  rewordings: {
    terse: 'tag Orbit of Stones space opera',
    chatty:
      'Orbit of Stones is really more of a space opera, can you add that tag to it in my calibre library?',
    withoutValue: 'add a tag to one of my calibre books',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await searchBooks(page, 'Orbit of Stones')
    await openBook(page, 'Orbit of Stones')
    await openEditor(page)
    await editField(page, 'Tags', async (box) => {
      await box.click()
      await box.press('End')
      await box.pressSequentially(', space opera')
    })
    await applyChanges(page)
  },
  key: {
    target: { method: 'POST', path: new RegExp(`/cdb/set-fields/\\d+/${LIBRARY_ID}`) },
    inputs: [
      { recorded: 'Orbit of Stones', changed: ['The Quiet Engine', 'Rivers of Glass'] },
      { recorded: 'space opera', changed: ['first contact', 'dragons'] },
    ],
    // The book's id comes from the search the person typed its title into.
    dependencies: [BOOKS_INIT],
    mutating: true,
    async replayByHand(app, session) {
      const [title, tag] = ['The Quiet Engine', 'first contact']
      const found = await searchByHand(app, session, title)
      const id = found.search_result.book_ids[0]
      if (found.search_result.book_ids.length !== 1 || id === undefined)
        throw new Error(
          `the search for ${title} found ${found.search_result.book_ids.length} books`,
        )
      const tags = found.metadata[String(id)]?.tags ?? []
      await setFieldsByHand(app, session, id, { tags: [...tags, tag] })
      mustPass(
        await addTag.key.check(app, { status: 'succeeded', result: null }, session, [title, tag]),
      )
    },
    async check(app, _run, session, used) {
      const [title, tag] = [String(used[0]), String(used[1])]
      const book = await bookTitled(app, session, title)
      const before = BOOKS[book.id - 1]?.tags ?? []
      if (!book.tags.includes(tag))
        return `${title} has the tags ${book.tags.join(', ')}, not ${tag}`
      const lost = before.filter((t) => !book.tags.includes(t))
      return lost.length ? `${title} lost its tags ${lost.join(', ')}` : null
    },
  },
}

/**
 * Searches the misspelt title, opens the book, "Edit metadata", taps Title and types the right
 * one over it, OK, "Apply changes": `{"changes": {"title": "..."}}` to the same endpoint.
 */
export const renameBook: Workflow = {
  id: 'rename_book',
  intent: 'rename the book Teh Silent Shore to The Silent Shore in calibre',
  rewordings: {
    terse: 'calibre rename Teh Silent Shore -> The Silent Shore',
    chatty:
      "There's a typo in one of my book titles, 'Teh Silent Shore', can you fix it to 'The Silent Shore' in calibre?",
    withoutValue: 'change the title of a book in calibre',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await searchBooks(page, 'Teh Silent Shore')
    await openBook(page, 'Teh Silent Shore')
    await openEditor(page)
    await editField(page, 'Title', async (box) => {
      await box.fill('The Silent Shore')
    })
    await applyChanges(page)
  },
  key: {
    target: { method: 'POST', path: new RegExp(`/cdb/set-fields/\\d+/${LIBRARY_ID}`) },
    inputs: [
      { recorded: 'Teh Silent Shore', changed: ['Murder at Marsh End', 'The Glass Orchard'] },
      {
        recorded: 'The Silent Shore',
        changed: ['Murder at Marsh End (Revised)', 'The Glass Orchard: A Novel'],
      },
    ],
    dependencies: [BOOKS_INIT],
    mutating: true,
    async replayByHand(app, session) {
      const [from, to] = ['Murder at Marsh End', 'Murder at Marsh End (Revised)']
      const found = await searchByHand(app, session, from)
      const id = found.search_result.book_ids[0]
      if (found.search_result.book_ids.length !== 1 || id === undefined)
        throw new Error(`the search for ${from} found ${found.search_result.book_ids.length} books`)
      await setFieldsByHand(app, session, id, { title: to })
      mustPass(
        await renameBook.key.check(app, { status: 'succeeded', result: null }, session, [from, to]),
      )
    },
    async check(app, _run, session, used) {
      const [from, to] = [String(used[0]), String(used[1])]
      const id = seededId(from)
      const book = (await readBooks(app, session)).get(id)
      if (!book) return `the book ${from} (id ${id}) is gone`
      return book.title === to
        ? null
        : `book ${id} is titled ${JSON.stringify(book.title)}, not ${JSON.stringify(to)}`
    },
  },
}

/**
 * Searches the book, opens it, "Delete this book", OK in "Are you sure?":
 * `POST /cdb/delete-books/<id>/<library>?<ms timestamp>` (no body).
 */
export const deleteBook: Workflow = {
  id: 'delete_book',
  intent: 'delete Bread at Home from my calibre library',
  rewordings: {
    terse: 'calibre delete Bread at Home',
    chatty: 'I gave away my copy of Bread at Home, please remove it from my calibre library.',
    withoutValue: 'delete a book from calibre',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await searchBooks(page, 'Bread at Home')
    await openBook(page, 'Bread at Home')
    await page.locator('[title="Delete this book"]').first().click()
    await page.getByText('Are you sure?').first().waitFor()
    const deleted = answered(page, 'POST', '/cdb/delete-books/')
    await page.getByRole('button', { name: 'OK' }).click()
    await deleted
  },
  key: {
    target: { method: 'POST', path: new RegExp(`/cdb/delete-books/\\d+/${LIBRARY_ID}`) },
    inputs: [{ recorded: 'Bread at Home', changed: ['A Field Guide to Moths', 'Harbor Lights'] }],
    dependencies: [BOOKS_INIT],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'A Field Guide to Moths'
      const found = await searchByHand(app, session, title)
      const id = found.search_result.book_ids[0]
      if (found.search_result.book_ids.length !== 1 || id === undefined)
        throw new Error(
          `the search for ${title} found ${found.search_result.book_ids.length} books`,
        )
      const path = `/cdb/delete-books/${id}/${LIBRARY_ID}?${Date.now()}`
      const res = await app.fetch(path, { method: 'POST', session })
      if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`)
      await res.arrayBuffer()
      mustPass(
        await deleteBook.key.check(app, { status: 'succeeded', result: null }, session, [title]),
      )
    },
    async check(app, _run, session, used) {
      const title = String(used[0])
      const books = await readBooks(app, session)
      if (books.has(seededId(title))) return `${title} is still in the library`
      // A tool that deletes more than the book asked for is wrong too.
      const kept = ['Small Gardens', 'Night Songs'].filter((t) => !books.has(seededId(t)))
      return kept.length ? `${kept.join(', ')} were deleted too` : null
    },
  },
}

/** The file the person uploads, and the one a HAR's tool (which holds no bytes) uploads. */
const UPLOADED = Buffer.from('Rivers of the North\n\nA short book about the rivers of the north.\n')
const OTHER_FILE = Buffer.from('Field notes\n\nNotes written along the coast, one page a day.\n')

/** A file name's stem as words: how a check recognises the book calibre made of the upload. */
function words(text: string): string {
  return text
    .replace(/\.[a-z0-9]+$/i, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(' ')
}

/**
 * The list's "Add books" button, then the file picker: the page posts the file's bytes as the
 * body of `POST /cdb/add-book/<job>/n/<file name>/<library>`; calibre makes a book of it (title
 * from the file name) and the page says "Added successfully".
 */
export const uploadBook: Workflow = {
  id: 'upload_book',
  intent: 'upload rivers-of-the-north.txt to my calibre library',
  rewordings: {
    terse: 'calibre add book rivers-of-the-north.txt',
    chatty:
      "I've got an e-book file called rivers-of-the-north.txt on my computer, could you add it to my calibre library?",
    withoutValue: 'add a book file to calibre',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await page.locator('[title="Add books"]').first().click()
    await page.getByText('Upload books by either selecting the book files').waitFor()
    const added = answered(page, 'POST', '/cdb/add-book/')
    await page.locator('input[type=file]').setInputFiles({
      name: 'rivers-of-the-north.txt',
      mimeType: 'text/plain',
      buffer: UPLOADED,
    })
    await added
    await page.getByText('Added successfully').waitFor()
  },
  key: {
    target: { method: 'POST', path: new RegExp(`/cdb/add-book/\\d+/n/[^/]+/${LIBRARY_ID}`) },
    inputs: [
      {
        recorded: 'rivers-of-the-north.txt',
        changed: ['tidewater-notes.txt', 'mountain-journal.txt'],
      },
    ],
    dependencies: [],
    mutating: true,
    file: OTHER_FILE,
    async replayByHand(app, session) {
      const name = 'tidewater-notes.txt'
      const path = `/cdb/add-book/1/n/${encodeURIComponent(name)}/${LIBRARY_ID}`
      const res = await app.fetch(path, { method: 'POST', session, body: OTHER_FILE })
      if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`)
      await res.arrayBuffer()
      mustPass(
        await uploadBook.key.check(app, { status: 'succeeded', result: null }, session, [name]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const books = [...(await readBooks(app, session)).values()]
      const made = books.filter((b) => b.id > BOOKS.length && words(b.title) === words(name))
      if (!made.length) return `no book was made of ${name}`
      return made.some((b) => b.formats.some((f) => f.toUpperCase() === 'TXT'))
        ? null
        : `the book made of ${name} has no TXT file`
    },
  },
}

/**
 * The list's "More actions" menu, "Book list mode", "Detailed list": the page shows the list
 * with details and saves the choice in the user's preferences on the server
 * (`POST /interface-data/set-session-data` with `{"view_mode": "details_list"}`).
 */
export const listMode: Workflow = {
  id: 'list_mode',
  intent: "switch calibre's book list to the detailed list view",
  rewordings: {
    terse: 'calibre detailed list view',
    chatty:
      'The cover grid is hard to scan, could you make calibre show my books as a detailed list instead?',
    withoutValue: "change how calibre's book list is displayed",
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openLibrary(page, app)
    await page.locator('[title="More actions"]').first().click()
    await page.getByText('Book list mode').click()
    await page.getByText('Choose a display mode for the list of books').waitFor()
    const saved = answered(page, 'POST', '/interface-data/set-session-data')
    await page.getByText('Detailed list').click()
    await saved
  },
  key: {
    target: { method: 'POST', path: '/interface-data/set-session-data' },
    inputs: [{ recorded: 'details_list', changed: ['custom_list', 'cover_grid'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await app.fetch('/interface-data/set-session-data', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ view_mode: 'custom_list' }),
      })
      if (res.status !== 200) throw new Error(`set-session-data answered ${res.status}`)
      await res.arrayBuffer()
      mustPass(
        await listMode.key.check(app, { status: 'succeeded', result: null }, session, [
          'custom_list',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const mode = (await readSessionData(app, session)).view_mode
      return mode === used[0]
        ? null
        : `the list mode saved is ${JSON.stringify(mode)}, not ${String(used[0])}`
    },
  },
}
