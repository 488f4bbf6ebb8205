/**
 * Signing in to the Syncthing 1.19 GUI over plain HTTP, and sending requests with a saved
 * session as a person with curl would. The GUI has no login form in 1.19: it answers every
 * request without a session with `401` and `WWW-Authenticate: Basic`, the browser asks the user
 * name and password, and the first page that passes sets two cookies named after the device:
 * `sessionid-<short id>` (the session) and `CSRF-Token-<short id>` (the token every `/rest/`
 * call must echo in the `X-CSRF-Token-<short id>` header, reads included).
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'
import { CSRF_COOKIE, CSRF_HEADER } from './seed'

type Cookie = StorageState['cookies'][number]

/** `Authorization: Basic` for a user name and password (RFC 7617). */
function basicAuth(user: { name: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`
}

/** The cookies of a response's `Set-Cookie` headers, for `host`. */
function parseSetCookies(headers: Headers, host: string): Cookie[] {
  return headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(';')
    const eq = pair!.indexOf('=')
    const flags = attrs.map((a) => a.trim().toLowerCase())
    const path = attrs.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]).find(Boolean) ?? '/'
    return {
      name: pair!.slice(0, eq).trim(),
      value: pair!.slice(eq + 1).trim(),
      domain: host,
      path,
      expires: -1,
      httpOnly: flags.includes('httponly'),
      secure: flags.includes('secure'),
      sameSite: 'Lax' as const,
    }
  })
}

/**
 * Answers the GUI's Basic challenge as the browser does after the person typed the user name and
 * password: `GET /` with `Authorization: Basic`. Returns the two cookies Syncthing set (what the
 * browser holds from then on). Throws when Syncthing refused or set no CSRF cookie.
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/`, { headers: { authorization: basicAuth(user) } })
  await res.arrayBuffer()
  const cookies = parseSetCookies(res.headers, new URL(origin).hostname)
  if (res.status !== 200 || !cookies.some((c) => c.name === CSRF_COOKIE))
    throw new Error(`syncthing refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}

/** The CSRF token a session holds, or null. */
function csrfOf(session: StorageState | undefined): string | null {
  return session?.cookies.find((c) => c.name === CSRF_COOKIE)?.value ?? null
}

/**
 * `fetch(origin + path)` with the session's cookies and, as the GUI's `$http` does for every
 * call, its CSRF token in `X-CSRF-Token-<short id>` (a header the caller set wins).
 */
export function fetchSignedIn(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  const token = csrfOf(init.session)
  if (token && !headers.has(CSRF_HEADER)) headers.set(CSRF_HEADER, token)
  return fetchWithSession(origin, path, { ...init, headers })
}
