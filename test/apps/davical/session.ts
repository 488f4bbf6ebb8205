/**
 * Signing in to DAViCal's admin pages over plain HTTP, as a person with curl would, and the forms'
 * CSRF token. The login form posts `username`, `password` and `submit=GO!` to `index.php`, which
 * answers 200 with the home page and sets `sid` (`<session id>;<hash>`, DAViCal's own session,
 * kept in its database). The CSRF token is another thing: `csrf_token`, a hidden field of every
 * form, is kept in PHP's native session (`PHPSESSID`), which the first page that prints a form
 * starts; a form post is refused ("A valid CSRF token must be provided") unless its token is the
 * one that session holds.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/**
 * Logs in with the login form, then opens the home page once so that PHP's session (which holds
 * the CSRF token) exists too; returns both cookies as a browser would hold them. Throws when
 * DAViCal does not sign the user in.
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const res = await fetch(`${origin}/index.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.name, password: user.password, submit: 'GO!' }),
  })
  const html = await res.text()
  let cookies = setCookiesOf(res.headers, host)
  if (!cookies.some((c) => c.name === 'sid') || !html.includes('You are logged on as'))
    throw new Error(`DAViCal refused the login of ${user.name} (${res.status})`)
  const page = await fetch(`${origin}/admin.php?action=edit&t=principal`, {
    headers: { cookie: cookieHeader(cookies) },
    redirect: 'manual',
  })
  await page.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(page.headers, host))
  if (!cookies.some((c) => c.name === 'PHPSESSID'))
    throw new Error(`DAViCal started no PHP session for ${user.name} (${page.status})`)
  return { cookies, origins: [] }
}

/** The `csrf_token` hidden field of a form page's HTML, or throws naming `what`. */
export function csrfOf(html: string, what: string): string {
  const m = /name="csrf_token" value="([0-9a-f]{64})"/.exec(html)
  if (!m) throw new Error(`${what} holds no csrf_token`)
  return m[1]!
}

/**
 * A multipart form post (the admin forms' enctype) of `fields` in order, with `cookies`;
 * resolves the answer's HTML. `send` is the transport (plain fetch for the seed, `app.fetch`
 * for keys).
 */
export async function postMultipart(
  send: (path: string, init: RequestInit) => Promise<Response>,
  path: string,
  fields: Array<[string, string]>,
): Promise<{ status: number; html: string }> {
  const body = new FormData()
  for (const [k, v] of fields) body.append(k, v)
  const res = await send(path, { method: 'POST', body })
  return { status: res.status, html: await res.text() }
}
