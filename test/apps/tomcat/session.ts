/**
 * Signing in to Tomcat's Manager and sending requests by hand, as a person with curl would. Both
 * admin apps use HTTP Basic (realm "Tomcat Manager Application" / "Tomcat Host Manager
 * Application"): a browser that answered the prompt sends `Authorization: Basic` with every later
 * request. The HTML pages add a session (JSESSIONID, path `/manager` or `/host-manager`) that
 * holds the CSRF nonces the pages write into every form and link.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/** `Authorization: Basic` for `user` (RFC 7617: `name:password` in UTF-8, base64). */
export function basicAuthorization(user: { name: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`, 'utf8').toString('base64')}`
}

/**
 * Checks the credentials with one `GET /manager/html` and returns what a browser holds after a
 * Basic login: no cookie, no localStorage (the Manager's session cookie belongs to one visit, and
 * its nonces die with it). Throws when Tomcat refuses them.
 */
export async function signInBasic(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/manager/html`, {
    headers: { authorization: basicAuthorization(user) },
    redirect: 'manual',
  })
  await res.arrayBuffer()
  if (res.status !== 200)
    throw new Error(`Tomcat refused the login of ${user.name} (${res.status})`)
  return { cookies: [], origins: [] }
}

/**
 * `fetch(origin + path)` as curl would send it: with `-u user:password` when `init.session` is
 * given, anonymous otherwise; a header the caller set itself (another account's Basic, a cookie)
 * wins. Redirects are not followed.
 */
export function fetchBasic(
  origin: string,
  user: { name: string; password: string },
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.session && !headers.has('authorization'))
    headers.set('authorization', basicAuthorization(user))
  return fetchWithSession(origin, path, { ...init, headers })
}

/** The query field the CSRF filter wants on every Manager / Host Manager HTML request. */
export const NONCE_FIELD = 'org.apache.catalina.filters.CSRF_NONCE'

/** A visit of an HTML admin page: its session cookie and a nonce it handed out. */
export interface Visit {
  cookie: string
  nonce: string
}

/** The nonce and session cookie a page's HTML and answer carry; throws when either is missing. */
export function visitOf(res: Response, html: string): Visit {
  const nonce = new RegExp(`${NONCE_FIELD.replace(/\./g, '\\.')}=([0-9A-F]+)`).exec(html)?.[1]
  const cookie = /JSESSIONID=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0]
  if (!nonce || !cookie) throw new Error('the page carried no CSRF nonce or no session cookie')
  return { cookie, nonce }
}
