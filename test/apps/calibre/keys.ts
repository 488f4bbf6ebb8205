/**
 * What calibre's answer keys do by hand, as a person with curl would (Digest-signed through
 * `app.fetch`): search the library as the web UI does, post a book's changed fields, look a
 * book up by its title in calibre's JSON API, and search a run's answer for titles.
 */
import type { StorageState } from '../../../src/shared/trace'
import { resultText } from '../match'
import type { AppInstance, RequestKey } from '../types'
import { LIBRARY_ID } from './seed'
import { readBooks, type BookState } from './session'


/** Throws `problem` when there is one (a key's replay must pass its own check). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * The book list's search as the web UI sends it: `GET /interface-data/books-init?library_id=
 * <lib>&search=<query>&sort=<field.order>&<ms timestamp>` (the last, valueless parameter only
 * defeats caches). Its answer holds the matching ids (`search_result.book_ids`) and their
 * metadata. A search typed in the box and an item picked in the Tag browser both send it.
 */
export const BOOKS_INIT: RequestKey = { method: 'GET', path: '/interface-data/books-init' }

/**
 * The page's first read, `GET /interface-data/init?<ms timestamp>`: the user's preferences and
 * the library's first page of books with their metadata, from which the covers are drawn (a book
 * picked from the covers has its id from there).
 */

/**
 * The library segment of a target's path, as a RegExp source: the library id is a value calibre
 * hands out (`library_id` and `library_map` of `/interface-data/init`), so a tool may read it
 * at run time instead of sending the recorded `Books`; either is the same request.
 */
export const ANY_LIBRARY = '[^/]+'

/** What the search answers: the ids found and each one's metadata (title, authors, ...). */
export interface SearchAnswer {
  search_result: { book_ids: number[]; total_num: number }
  metadata: Record<string, { title: string; authors: string[]; tags?: string[] }>
}

/** Searches the library by hand as the search box does; throws unless calibre answers 200. */
export async function searchByHand(
  app: AppInstance,
  session: StorageState,
  query: string,
): Promise<SearchAnswer> {
  const params = new URLSearchParams({
    library_id: LIBRARY_ID,
    search: query,
    sort: 'timestamp.desc',
  })
  const path = `/interface-data/books-init?${params}&${Date.now()}`
  const res = await app.fetch(path, { session })
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return (await res.json()) as SearchAnswer
}

/** The one book whose title is `title` (in the library now); throws when there is none or more. */
export async function bookTitled(
  app: AppInstance,
  session: StorageState,
  title: string,
): Promise<BookState> {
  const found = [...(await readBooks(app, session)).values()].filter((b) => b.title === title)
  if (found.length !== 1)
    throw new Error(`${found.length} books are titled ${JSON.stringify(title)}`)
  return found[0]!
}

/**
 * Posts a metadata edit as the editor's "Apply changes" does: `POST /cdb/set-fields/<id>/<lib>`
 * with JSON `{changes, loaded_book_ids}`; calibre answers the book's new metadata. Throws unless
 * it answers 200.
 */
export async function setFieldsByHand(
  app: AppInstance,
  session: StorageState,
  id: number,
  changes: Record<string, unknown>,
): Promise<unknown> {
  const path = `/cdb/set-fields/${id}/${LIBRARY_ID}`
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ changes, loaded_book_ids: [String(id)] }),
  })
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`)
  return res.json()
}

/**
 * Checks a list read: the answer must name every book of `wanted` and no other book of the
 * library (each title is looked for as a line of the answer's text, or quoted). Returns the problem or null.
 */
export function listsExactly(
  result: unknown,
  wanted: BookState[],
  all: Map<number, BookState>,
  what: string,
): string | null {
  const text = resultText(result)
  const lines = new Set(text.split('\n'))
  // A parsed answer has each title as a line; an unparsed JSON text has it quoted.
  const named = (title: string) => lines.has(title) || text.includes(JSON.stringify(title))
  const missing = wanted.filter((b) => !named(b.title)).map((b) => b.title)
  if (missing.length) return `the answer does not list ${what}: ${missing.join(', ')}`
  const others = [...all.values()]
    .filter((b) => !wanted.some((w) => w.id === b.id) && named(b.title))
    .map((b) => b.title)
  return others.length ? `the answer also lists ${others.join(', ')} (not ${what})` : null
}
