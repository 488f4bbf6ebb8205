import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/**
 * Redmine's session cookie. Debian's multitenancy config names it after `Redmine.name`, which is
 * the module's own name, so it is `Redmine` rather than Rails' `_redmine_session`.
 */
const SESSION_COOKIE = 'Redmine'

/**
 * `fetch` against the app, as curl would: no redirects followed (Redmine answers form posts with
 * 302, which is the result a key checks), the session's cookies sent when given.
 */
export function appFetch(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  return fetchWithSession(origin, path, init)
}

/** The CSRF token Rails puts in every page's `<meta name="csrf-token">`. */
export function csrfToken(html: string): string {
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('no csrf-token meta tag in the page')
  return decodeEntities(token)
}

/** The value of the form field `name` in `html` (first match), entities decoded. */
export function fieldValue(html: string, name: string): string {
  const escaped = name.replace(/[[\]]/g, '\\$&')
  const tag = new RegExp(`<input[^>]*name="${escaped}"[^>]*>`).exec(html)?.[0]
  const value = tag && /value="([^"]*)"/.exec(tag)?.[1]
  if (value === undefined || value === null) throw new Error(`no field ${name} in the page`)
  return decodeEntities(value)
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x2F;/g, '/')
    .replace(/&#x3D;/g, '=')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The value of the session cookie set by `res`, if it set one. */
function sessionFrom(res: Response): string | null {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = pair!.indexOf('=')
    if (pair!.slice(0, eq).trim() === SESSION_COOKIE) return pair!.slice(eq + 1)
  }
  return null
}

/**
 * `session` updated with the cookies `res` set, as a browser's cookie jar would. Rails rewrites its
 * cookie session when a page first renders a CSRF token, so a form post must send the cookie of
 * the page its token came from.
 */
export function withSetCookies(session: StorageState, res: Response): StorageState {
  const value = sessionFrom(res)
  return value ? stateWith(value) : session
}

function stateWith(session: string): StorageState {
  return {
    cookies: [
      {
        name: SESSION_COOKIE,
        value: session,
        domain: '127.0.0.1',
        path: '/',
        expires: -1,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ],
    origins: [],
  }
}

/**
 * Signs in over plain HTTP the way the login form does: GET /login for the session cookie and
 * the authenticity token, then POST /login; Redmine answers 302 with a new session cookie.
 */
export async function signInOverHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const page = await appFetch(origin, '/login')
  const first = sessionFrom(page)
  if (!first) throw new Error('Redmine set no session cookie on /login')
  const form = new URLSearchParams({
    authenticity_token: csrfToken(await page.text()),
    username: user.name,
    password: user.password,
    login: 'Login',
  })
  const res = await appFetch(origin, '/login', {
    method: 'POST',
    body: form,
    session: stateWith(first),
  })
  const signedIn = sessionFrom(res)
  if (res.status !== 302 || !signedIn || res.headers.get('location')?.includes('/login'))
    throw new Error(`Redmine refused the login of ${user.name} (${res.status})`)
  return stateWith(signedIn)
}

/** GETs a REST API path as `user` with HTTP basic auth (the API ignores session cookies). */
export async function apiGet<T>(
  origin: string,
  path: string,
  user: { name: string; password: string },
): Promise<T> {
  const auth = Buffer.from(`${user.name}:${user.password}`).toString('base64')
  const res = await appFetch(origin, path, { headers: { authorization: `Basic ${auth}` } })
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return (await res.json()) as T
}
