/**
 * Signing in to Rspamd's controller and calling it by hand, as a person with curl would. The
 * controller has no session: the web UI keeps the password the person typed in the tab's
 * sessionStorage (key `Password`) and sends it as a `Password` request header on every call. A
 * browser's storage state (cookies, localStorage) therefore holds nothing of a login; a saved
 * login of this site is an empty storage state plus the password.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/**
 * Checks the password with the UI's own sign-in request (`GET /auth` with `Password`), and
 * returns the storage state a browser holds afterwards: empty, as the UI keeps the password in
 * sessionStorage, which no storage state carries. Throws when Rspamd refuses the password.
 */
export async function signInRspamd(origin: string, password: string): Promise<StorageState> {
  const res = await fetch(`${origin}/auth`, { headers: { Password: password } })
  const body = (await res.json().catch(() => ({}))) as { auth?: string }
  if (res.status !== 200 || body.auth !== 'ok')
    throw new Error(`Rspamd refused the password (${res.status})`)
  return { cookies: [], origins: [] }
}

/**
 * `fetch(origin + path)` as curl would send it: signed in (the `Password` header, as the UI adds
 * to every call) when `init.session` is given, anonymous otherwise. A header the caller set itself
 * wins; redirects are not followed.
 */
export function fetchRspamd(
  origin: string,
  password: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.session && !headers.has('password')) headers.set('Password', password)
  return fetchWithSession(origin, path, { ...init, headers })
}

/** A run's result as text, whatever shape the engine gave it. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}
