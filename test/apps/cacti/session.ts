/**
 * Signing in to Cacti over plain HTTP, as a person with curl would, and the CSRF token its forms
 * carry. Cacti uses csrf-magic: every form of a page holds a hidden `__csrf_magic` field
 * (`sid:<hash>,<time>;ip:<hash>,<time>`, tied to the PHP session and valid for hours), and every
 * POST without a valid one is refused with a "CSRF Timeout" page. The login form posts
 * `__csrf_magic`, `action=login`, `login_username` and `login_password` to `index.php`; a good
 * login answers 302 and keeps the `Cacti` session cookie the login page set.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/** The `__csrf_magic` value printed in `html` (a page's form), or null. */
function csrfOf(html: string): string | null {
  return /name='__csrf_magic' value="([^"]+)"/.exec(html)?.[1] ?? null
}

/** Logs in with the login form's fields and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const form = await fetch(`${origin}/index.php`, { redirect: 'manual' })
  const token = csrfOf(await form.text())
  let cookies = setCookiesOf(form.headers, host)
  if (!token) throw new Error(`Cacti's login page holds no __csrf_magic (${form.status})`)
  const res = await fetch(`${origin}/index.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({
      __csrf_magic: token,
      action: 'login',
      login_username: user.name,
      login_password: user.password,
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  const session: StorageState = { cookies, origins: [] }
  if (res.status !== 302) throw new Error(`Cacti refused the login of ${user.name} (${res.status})`)
  const page = await fetch(`${origin}/host.php`, {
    headers: { cookie: cookieHeader(session) },
    redirect: 'manual',
  })
  if (!/<title>Console &gt; Devices|<title>Console > Devices/.test(await page.text()))
    throw new Error(`Cacti did not sign ${user.name} in (${page.status})`)
  return session
}

/** The session's `__csrf_magic`, read from `path` (a signed-in page with a form). */
export async function pageCsrf(
  app: AppInstance,
  session: StorageState,
  path = '/host.php',
): Promise<string> {
  const res = await app.fetch(path, { session })
  const token = csrfOf(await res.text())
  if (!token) throw new Error(`${path} holds no __csrf_magic (${res.status})`)
  return token
}

/** A form POST of a signed-in page (`fields` in order, arrays as repeated keys). */
export async function postForm(
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
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body,
  })
}
