/**
 * Signing in to the Zabbix frontend over plain HTTP, as a person with curl would, and the page
 * token its forms carry. The login form posts `name`, `password`, `autologin` and `enter` to
 * `index.php`; a good login answers 302 to the dashboard and sets `zbx_session` (a signed,
 * base64 JSON cookie naming the session id, which lives in the database). Every form and Ajax
 * call of a signed-in page carries `sid`: characters 16..31 of that session id, printed into the
 * pages (`<meta name="csrf-token">` in every page's head, hidden `sid` inputs in forms); the
 * page script adds it to its Ajax URLs.
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
  const res = await fetch(`${origin}/index.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      name: user.name,
      password: user.password,
      autologin: '1',
      enter: 'Sign in',
    }),
  })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, host)
  const session: StorageState = { cookies, origins: [] }
  if (res.status !== 302 || !cookies.some((c) => c.name === 'zbx_session'))
    throw new Error(`Zabbix refused the login of ${user.name} (${res.status})`)
  const page = await fetch(`${origin}/zabbix.php?action=dashboard.view`, {
    headers: { cookie: cookieHeader(session) },
    redirect: 'manual',
  })
  if (!/<meta name="csrf-token" content="[0-9a-f]{16}"/.test(await page.text()))
    throw new Error(`Zabbix did not sign ${user.name} in (${page.status})`)
  return session
}

/** The session's `sid`, read from `path` (a signed-in page) as its forms carry it. */
export async function pageSid(
  app: AppInstance,
  session: StorageState,
  path = '/hostgroups.php',
): Promise<string> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  const sid =
    /<meta name="csrf-token" content="([0-9a-f]{16})"|name="sid" value="([0-9a-f]{16})"/.exec(html)
  if (!sid) throw new Error(`${path} holds no sid (${res.status})`)
  return sid[1] ?? sid[2]!
}

/** A form POST of a signed-in page (`fields` in order, arrays as repeated keys). */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
  ajax = false,
): Promise<Response> {
  const body = new URLSearchParams()
  for (const [k, v] of fields) body.append(k, v)
  return app.fetch(path, {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      ...(ajax ? { 'x-requested-with': 'XMLHttpRequest' } : {}),
    },
    body,
  })
}
