/**
 * Signing in to Request Tracker over plain HTTP, as a person with curl would, and the form posts
 * of a signed-in session. The login form posts `user` and `pass` to `/NoAuth/Login.html`; a good
 * login sets the session cookie `RT_SID_<rtname>.<port>` (the session itself lives in a file of
 * the instance's session dir). RT's guard against cross-site requests is the `Referer` header:
 * a write whose Referer is missing or names another host is answered with a "possible
 * cross-site request forgery" page instead of being done, so every form post here names a page
 * of the instance as its Referer, as a browser would.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieHeader, setCookiesOf } from '../sessionFetch'

/** Logs in with the login form's fields and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const res = await fetch(`${origin}/NoAuth/Login.html`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      referer: `${origin}/NoAuth/Login.html`,
    },
    body: new URLSearchParams({ user: user.name, pass: user.password }),
  })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, host)
  const session: StorageState = { cookies, origins: [] }
  if (!cookies.some((c) => c.name.startsWith('RT_SID_')))
    throw new Error(`RT set no session cookie for ${user.name} (${res.status})`)
  const page = await fetch(`${origin}/`, {
    headers: { cookie: cookieHeader(session) },
    redirect: 'manual',
  })
  if (!(await page.text()).includes('<title>RT at a glance'))
    throw new Error(`RT did not sign ${user.name} in (${page.status})`)
  return session
}

/**
 * A form POST of a signed-in page, as the browser sends it from `page` (its Referer): `fields`
 * in order, as multipart/form-data when `multipart` (RT's ticket, user and preference forms)
 * else urlencoded. Follows no redirect.
 */
export function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
  options: { page: string; multipart?: boolean },
): Promise<Response> {
  let body: FormData | URLSearchParams
  if (options.multipart) {
    body = new FormData()
    for (const [k, v] of fields) body.append(k, v)
  } else {
    body = new URLSearchParams()
    for (const [k, v] of fields) body.append(k, v)
  }
  return app.fetch(path, {
    method: 'POST',
    session,
    headers: { referer: `${app.origin}${options.page}` },
    body,
  })
}

