/**
 * The seed of calibre's corpus instance: one library of sixteen plain-text books (titles,
 * authors, tags, series, ratings chosen so every workflow has its own books and a check can tell
 * one book from another by its title), and one user with write access. Books are added in one
 * `calibre-debug` process through calibre's own library API (`db(...).new_api.add_books`), so
 * ids are 1..16 in the order below on every start.
 */

/** The user the workflows sign in as (digest auth; created with write access). */
export const USER = { name: 'librarian', password: 'Shelve-the-books-7' }

/**
 * The library folder's name: calibre-server names a library by its folder, and that name is the
 * `library_id` in every URL of the web UI (`/cdb/set-fields/<book>/<library_id>`).
 */
export const LIBRARY_ID = 'Books'

/** One seeded book. `rating` is calibre's 0..10 (two per star). */
export interface SeedBook {
  title: string
  authors: string[]
  tags: string[]
  series?: { name: string; index: number }
  rating?: number
}

/** The seeded books, id `i + 1` for `BOOKS[i]`. */
export const BOOKS: SeedBook[] = [
  {
    title: "The Lighthouse Keeper's Daughter",
    authors: ['Maya Lindqvist'],
    tags: ['historical fiction', 'maritime'],
    series: { name: 'Coastal Trilogy', index: 1 },
    rating: 8,
  },
  {
    title: 'Harbor Lights',
    authors: ['Maya Lindqvist'],
    tags: ['historical fiction'],
    series: { name: 'Coastal Trilogy', index: 2 },
  },
  {
    title: 'Salt and Stone',
    authors: ['Maya Lindqvist'],
    tags: ['historical fiction'],
    series: { name: 'Coastal Trilogy', index: 3 },
  },
  { title: 'Orbit of Stones', authors: ['Ravi Kumar'], tags: ['science fiction'], rating: 6 },
  { title: 'The Quiet Engine', authors: ['Ravi Kumar'], tags: ['science fiction'] },
  { title: 'Small Gardens', authors: ['Ana Silva'], tags: ['gardening', 'nonfiction'] },
  { title: 'Winter Vegetables', authors: ['Ana Silva'], tags: ['gardening', 'cooking'] },
  { title: 'Bread at Home', authors: ['Tomas Berg'], tags: ['cooking'] },
  { title: 'Collected Poems of the Fens', authors: ['Helen Marsh'], tags: ['poetry'] },
  { title: 'Night Songs', authors: ['Helen Marsh'], tags: ['poetry'], rating: 10 },
  { title: 'A Field Guide to Moths', authors: ['Peter Okafor'], tags: ['nature', 'nonfiction'] },
  { title: "The Clockmaker's Apprentice", authors: ['Clara Voss'], tags: ['fantasy'] },
  { title: 'Rivers of Glass', authors: ['Clara Voss'], tags: ['fantasy'] },
  { title: 'Teh Silent Shore', authors: ['Jonas Reed'], tags: ['mystery'] },
  { title: 'Murder at Marsh End', authors: ['Jonas Reed'], tags: ['mystery'] },
  { title: 'The Glass Orchard', authors: ['Jonas Reed'], tags: ['mystery'] },
]

/** The id calibre gives the seeded book titled `title`; throws when none is. */
export function seededId(title: string): number {
  const i = BOOKS.findIndex((b) => b.title === title)
  if (i < 0) throw new Error(`no seeded book is titled ${JSON.stringify(title)}`)
  return i + 1
}

/**
 * The text of a seeded book's TXT file: its title and author on the first line, so a download
 * shows whose file it is, and a sentence no other book holds.
 */
function bookText(book: SeedBook): string {
  return `${book.title} by ${book.authors.join(' & ')}\n\nChapter one. The first page of ${book.title}.\n`
}

/** The seed as the Python script below reads it (JSON). */
export function seedSpec(libraryDir: string): string {
  return JSON.stringify({
    library: libraryDir,
    books: BOOKS.map((b) => ({ ...b, text: bookText(b) })),
  })
}

/**
 * Run by `calibre-debug -e seed.py -- spec.json`: creates the library (metadata.db and the book
 * folders) and adds each book with its metadata and a TXT format, in order, printing each id.
 */
export const SEED_SCRIPT = `
import io, json, sys
from calibre.library import db
from calibre.ebooks.metadata.book.base import Metadata

spec = json.load(open(sys.argv[-1], encoding='utf-8'))
api = db(spec['library']).new_api
for book in spec['books']:
    mi = Metadata(book['title'], book['authors'])
    mi.tags = book['tags']
    if book.get('series'):
        mi.series = book['series']['name']
        mi.series_index = book['series']['index']
    if book.get('rating'):
        mi.rating = book['rating']
    ids, _ = api.add_books([(mi, {'TXT': io.BytesIO(book['text'].encode('utf-8'))})], add_duplicates=True)
    print(ids[0], book['title'])
`
