/**
 * HTTP Basic sign-in for the corpus apps that know a person only by `Authorization: Basic`
 * (RFC 7617): a browser that answered the prompt once sends it with every later request and keeps
 * no cookie or localStorage for it, so the storage state of such a login is empty and the user
 * name and password are the login (what Sitecall's `saveHttpAuth` keeps).
 */
import type { StorageState } from '../../src/shared/trace'
import { fetchWithSession } from './sessionFetch'

/** A person's name and password for a Basic realm. */
export interface BasicUser {
  name: string
  password: string
}

/** `Authorization: Basic` for `user` (RFC 7617 §2: `name:password` in UTF-8, base64). */
export function basicAuthorization(user: BasicUser): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`, 'utf8').toString('base64')}`
}

/**
 * Checks the credentials with one GET of `check.path` (a small page of the app that needs them)
 * and returns the storage state a browser holds afterwards: empty. Throws naming `check.app` when
 * the app answers anything but 200.
 */
export async function signInBasic(
  origin: string,
  user: BasicUser,
  check: { path: string; app: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}${check.path}`, {
    headers: { authorization: basicAuthorization(user) },
    redirect: 'manual',
  })
  await res.arrayBuffer()
  if (res.status !== 200)
    throw new Error(`${check.app} refused the login of ${user.name} (${res.status})`)
  return { cookies: [], origins: [] }
}

/**
 * `fetch(origin + path)` as curl would send it: with `-u user:password` when `init.session` is
 * given, anonymous otherwise; a header the caller set itself (another account's Basic, a cookie)
 * wins. Redirects are not followed, so a check sees the app's 302/303 after a POST.
 */
export function fetchBasic(
  origin: string,
  user: BasicUser,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.session && !headers.has('authorization'))
    headers.set('authorization', basicAuthorization(user))
  return fetchWithSession(origin, path, { ...init, headers })
}
