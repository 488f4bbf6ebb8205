/**
 * Signing in to graphite-web over plain HTTP, as a person with curl would, and the CSRF token of
 * Django's admin. The account login form (`/account/login`) posts `username`, `password` and
 * `nextPage`; a good login answers 302 to `nextPage` and sets Django's `sessionid` cookie, which
 * the admin site (`/admin/`) accepts too, the seeded user being staff. graphite's own views carry
 * no CSRF check (its middleware list has none), but the admin's views are CSRF-protected one by
 * one: each form holds a hidden `csrfmiddlewaretoken` that must match the `csrftoken` cookie the
 * page sets.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { setCookiesOf } from '../sessionFetch'

/** Logs in with the account login form and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/account/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ nextPage: '/', username: user.name, password: user.password }),
  })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, new URL(origin).hostname)
  if (res.status !== 302 || !cookies.some((c) => c.name === 'sessionid'))
    throw new Error(`graphite refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}

/** A form POST (`fields` in order) to `path`, signed in with `session`; redirects not followed. */
export function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<Response> {
  const body = new URLSearchParams()
  for (const [k, v] of fields) body.append(k, v)
  return app.fetch(path, {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      referer: `${app.origin}${path}`,
    },
    body,
  })
}
