/**
 * How the RabbitMQ management UI keeps its login, and sending requests with a saved one as a
 * person with curl would. The login form never reaches the server: the page base64-encodes
 * `user:password`, keeps it in its preferences cookie `m` (under the short key of `auth`), and
 * sends `Authorization: Basic <that>` itself on every `/api/...` call (`auth_header()` in
 * `main.js`). The API has no session, token or CSRF: Basic auth on each request is the login.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/** The page's cookie that holds its preferences, the login among them (`prefs.js`). */
const PREFS_COOKIE = 'm'

/**
 * The key the page stores `auth` under in that cookie: its `short_key('auth')`, a 16-bit Java
 * style string hash in hex (`prefs.js`), which is `2258`.
 */
function shortKey(key: string): string {
  let hash = 0
  for (let i = 0; i < key.length; i++) hash = (31 * hash + key.charCodeAt(i)) | 0
  return Math.abs((hash << 16) >> 16).toString(16)
}

/** `Authorization: Basic` for a user name and password (RFC 7617). */
export function basicAuth(user: { name: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`
}

/**
 * The `m` cookie's value after a login: `2258:<b64>` where the page stored the base64 of
 * `user:password` through `encodeURIComponent` and then `escape` (`store_cookie_with_expiration`).
 */
function prefsCookieValue(user: { name: string; password: string }): string {
  const b64 = Buffer.from(`${user.name}:${user.password}`).toString('base64')
  return `${shortKey('auth')}:${escape(encodeURIComponent(b64))}`
}

/** The `Authorization` header a page holding `session`'s `m` cookie sends, or null. */
function authorizationOf(session: StorageState | undefined): string | null {
  const cookie = session?.cookies.find((c) => c.name === PREFS_COOKIE)?.value
  if (!cookie) return null
  const prefix = `${shortKey('auth')}:`
  const item = cookie.split('|').find((part) => part.startsWith(prefix))
  if (!item) return null
  return `Basic ${decodeURIComponent(unescape(item.slice(prefix.length)))}`
}

/**
 * Signs in as the login form does, without a browser: asks `/api/whoami` with Basic auth (what
 * the page asks right after the form) and returns the cookie the page then holds. Throws when
 * RabbitMQ refuses the user.
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/api/whoami`, { headers: { authorization: basicAuth(user) } })
  await res.arrayBuffer()
  if (res.status !== 200)
    throw new Error(`rabbitmq refused the login of ${user.name} (${res.status})`)
  return {
    cookies: [
      {
        name: PREFS_COOKIE,
        value: prefsCookieValue(user),
        domain: new URL(origin).hostname,
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [],
  }
}

/**
 * `fetch(origin + path)` with, as the page's XHRs, `Authorization: Basic` taken from the
 * session's `m` cookie and `content-type: application/json` when a body is sent (a header the
 * caller set wins). Redirects are not followed.
 */
export function fetchSignedIn(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  const auth = authorizationOf(init.session)
  if (auth && !headers.has('authorization')) headers.set('authorization', auth)
  if (init.body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/json')
  return fetchWithSession(origin, path, { ...init, headers })
}
