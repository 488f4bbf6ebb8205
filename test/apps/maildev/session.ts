/**
 * Signing in to MailDev's web UI and sending it requests by hand, as a person with curl would.
 * MailDev 3's only web login is HTTP Basic (`--web-user`/`--web-pass`): every path but
 * `/api/healthz` answers `401` with `WWW-Authenticate: Basic realm="MailDev"` without it. There
 * is no session, cookie or token: a saved login of the site is an empty storage state plus the
 * user name and password.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

/** `Authorization: Basic` for `user` (RFC 7617: `name:password` in UTF-8, base64). */
export function basicAuthorization(user: { name: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`, 'utf8').toString('base64')}`
}

/**
 * Checks the credentials with one request (`GET /api/config`, the smallest answer behind the
 * login) and returns the storage state a browser holds afterwards: empty, since Basic auth leaves
 * no cookie or localStorage behind. Throws when MailDev refuses them.
 */
export async function signInBasic(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/api/config`, {
    headers: { authorization: basicAuthorization(user) },
    redirect: 'manual',
  })
  await res.arrayBuffer()
  if (res.status !== 200)
    throw new Error(`MailDev refused the login of ${user.name} (${res.status})`)
  return { cookies: [], origins: [] }
}

/**
 * `fetch(origin + path)` as curl would send it: with `-u user:password` when `init.session` is
 * given (Basic is the whole login), anonymous otherwise. A header the caller set itself wins.
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
