/**
 * Signing in to Radicale and reading it by hand, as a person with curl would. Radicale knows a
 * person only by HTTP Basic auth on each request: no cookie, no session, no token, no CSRF. Its
 * web UI's login form only keeps the user name and password in the page's memory and gives them
 * to every XMLHttpRequest it opens, so a saved login of this site is an empty storage state plus
 * the user name and password.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/** A user name and password. */
export interface Login {
  name: string
  password: string
}

/** `Authorization: Basic` for `user` (RFC 7617: `name:password` in UTF-8, base64). */
export function basicAuthorization(user: Login): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`, 'utf8').toString('base64')}`
}

/**
 * The body of the web UI's first request after its login form (`PROPFIND /`, depth 0): asks
 * for the signed-in user's principal.
 */
const PRINCIPAL_PROPFIND =
  '<?xml version="1.0" encoding="utf-8" ?><propfind xmlns="DAV:"><prop>' +
  '<current-user-principal /><displayname /></prop></propfind>'

/**
 * Checks the credentials with the request the web UI sends first (`PROPFIND /`) and returns
 * the storage state a browser holds afterwards: empty, since Basic auth leaves no cookie or
 * localStorage behind. Throws when Radicale refuses them.
 */
export async function signInBasic(origin: string, user: Login): Promise<StorageState> {
  const res = await fetch(`${origin}/`, {
    method: 'PROPFIND',
    headers: {
      authorization: basicAuthorization(user),
      depth: '0',
      'content-type': 'application/xml; charset=utf-8',
    },
    body: PRINCIPAL_PROPFIND,
  })
  const text = await res.text()
  if (res.status !== 207 || !text.includes(`<href>/${user.name}/</href>`))
    throw new Error(`Radicale refused the login of ${user.name} (${res.status})`)
  return { cookies: [], origins: [] }
}

/**
 * `fetch(origin + path)` as curl would send it: signed in as `user` (`-u user:password`, the
 * only way Radicale knows a person) when `init.session` is given, anonymous otherwise. A header
 * the caller set itself wins (a check signs in as another user that way). Redirects are not
 * followed.
 */
export function fetchBasic(
  origin: string,
  user: Login,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.session && !headers.has('authorization'))
    headers.set('authorization', basicAuthorization(user))
  return fetchWithSession(origin, path, { ...init, headers })
}
