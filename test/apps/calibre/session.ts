/**
 * Signing in to calibre's content server and reading its state by hand, as a person with curl
 * would. The login is HTTP Digest only (`--auth-mode digest`): no session cookie, so what a
 * browser keeps of it is nothing in cookies or localStorage, and the user name and password are
 * the login (what Sitecall saves for an HTTP-auth site).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { digestClient, type DigestUser } from './digest'
import { LIBRARY_ID } from './seed'

/**
 * Checks the credentials with one signed `GET /ajax/library-info` and returns the storage state
 * a browser holds afterwards: empty. Throws when calibre refuses the user.
 */
export async function signInDigest(origin: string, user: DigestUser): Promise<StorageState> {
  const state: StorageState = { cookies: [], origins: [] }
  const res = await digestClient(origin, user)('/ajax/library-info', { session: state })
  await res.arrayBuffer()
  if (res.status !== 200)
    throw new Error(`calibre refused the login of ${user.name} (${res.status})`)
  return state
}

/** A book as calibre's `/ajax/books` describes it (the fields the keys read). */
export interface BookState {
  id: number
  title: string
  authors: string[]
  tags: string[]
  series: string | null
  /** Format names as `/ajax/books` gives them (lower case: `txt`). */
  formats: string[]
}

/**
 * Every book of the library, read with `GET /ajax/books/<library>?ids=all` (calibre's JSON API,
 * not the page's): id → its metadata. Throws when calibre does not answer 200.
 */
export async function readBooks(
  app: AppInstance,
  session: StorageState,
): Promise<Map<number, BookState>> {
  const path = `/ajax/books/${LIBRARY_ID}?ids=all&category_urls=false`
  const res = await app.fetch(path, { session })
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  const data = (await res.json()) as Record<string, Omit<BookState, 'id'> | null>
  const books = new Map<number, BookState>()
  for (const [id, book] of Object.entries(data))
    if (book)
      books.set(Number(id), {
        id: Number(id),
        title: book.title,
        authors: book.authors ?? [],
        tags: book.tags ?? [],
        series: book.series ?? null,
        formats: book.formats ?? [],
      })
  return books
}

/**
 * The user's stored UI preferences (`user_session_data` of `GET /interface-data/init`): what the
 * web UI saved with `POST /interface-data/set-session-data` (list mode, sort, ...).
 */
export async function readSessionData(
  app: AppInstance,
  session: StorageState,
): Promise<Record<string, unknown>> {
  const res = await app.fetch('/interface-data/init', { session })
  if (res.status !== 200) throw new Error(`GET /interface-data/init answered ${res.status}`)
  const data = (await res.json()) as { user_session_data?: Record<string, unknown> }
  return data.user_session_data ?? {}
}
