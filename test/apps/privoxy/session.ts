/**
 * Privoxy's web interface has no sign-in: whoever reaches its listen address may use it. What
 * guards its editing pages is the `Referer` check (`referrer_is_safe()` in its cgi.c): a
 * non-"harmless" page (the action file editor's forms and writes, toggling) runs only when the
 * request's Referer starts with the interface's own prefix or with the configured
 * `trusted-cgi-referer` (here `http://127.0.0.1:<port>/`); else it answers 403 "Request not
 * trusted or feature disabled". A browser following the interface's own links sends such a
 * Referer; the answer keys send one by hand.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'
import type { AppInstance } from '../types'

/** The storage state of a person using the interface: empty (no login, no cookie). */
export function signInNothing(): Promise<StorageState> {
  return Promise.resolve({ cookies: [], origins: [] })
}

/** `fetch(origin + path)` as curl would, redirects not followed; no session to carry. */
export function fetchPrivoxy(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  return fetchWithSession(origin, path, init)
}

/**
 * GETs one of the editor's pages as a person clicking in the editor would: with the Referer of
 * the editor's list page (`/edit-actions-list?f=<file>`), which Privoxy trusts.
 */
export function editorGet(app: AppInstance, path: string, file = 2): Promise<Response> {
  return app.fetch(path, { headers: { referer: `${app.origin}/edit-actions-list?f=${file}` } })
}
