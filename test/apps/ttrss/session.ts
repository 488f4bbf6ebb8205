/**
 * Signing in to Tiny Tiny RSS over plain HTTP and talking to `backend.php` as its page script
 * does. The login form posts `op=login`, `login`, `password` to `public.php`; a good login answers
 * 302 and sets the PHP session cookie `ttrss_sid` (sessions live in the database). The session's
 * CSRF token is printed into every page (`const __csrf_token = "..."`), and the page script's
 * Ajax wrapper adds it as the form field `csrf_token` to every POST to `backend.php`.
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
  const res = await fetch(`${origin}/public.php?return=`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      op: 'login',
      login: user.name,
      password: user.password,
      profile: '',
    }),
  })
  await res.arrayBuffer()
  const cookies = setCookiesOf(res.headers, host)
  const session: StorageState = { cookies, origins: [] }
  if (res.status !== 302 || !cookies.some((c) => c.name === 'ttrss_sid'))
    throw new Error(`tt-rss refused the login of ${user.name} (${res.status})`)
  // A refused login also answers 302 with a session (holding the error): check the main page.
  const page = await fetch(`${origin}/index.php`, {
    headers: { cookie: cookieHeader(session) },
    redirect: 'manual',
  })
  if (!/const __csrf_token = "\w+"/.test(await page.text()))
    throw new Error(`tt-rss did not sign ${user.name} in`)
  return session
}

/** The session's CSRF token, read from the main page as the page script reads it. */
async function csrfToken(app: AppInstance, session: StorageState): Promise<string> {
  const res = await app.fetch('/index.php', { session })
  const token = /const __csrf_token = "(\w+)"/.exec(await res.text())?.[1]
  if (!token) throw new Error(`the main page holds no CSRF token (${res.status})`)
  return token
}

/**
 * One call as the page script's `xhrPost('backend.php', {op, method, ...})` sends it: a form
 * POST with `csrf_token` added. Resolves with the answer's text; throws on a non-200 answer.
 */
export async function backend(
  app: AppInstance,
  session: StorageState,
  fields: Record<string, string>,
  token?: string,
): Promise<string> {
  const csrf = token ?? (await csrfToken(app, session))
  const res = await app.fetch('/backend.php', {
    method: 'POST',
    session,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      'x-requested-with': 'XMLHttpRequest',
    },
    body: new URLSearchParams({ ...fields, csrf_token: csrf }),
  })
  const text = await res.text()
  if (res.status !== 200)
    throw new Error(`backend.php ${fields.op}/${fields.method} answered ${res.status}`)
  return text
}

/** {@link backend} with the answer parsed as JSON. */
export async function backendJson<T = unknown>(
  app: AppInstance,
  session: StorageState,
  fields: Record<string, string>,
  token?: string,
): Promise<T> {
  const text = await backend(app, session, fields, token)
  try {
    return JSON.parse(text) as T
  } catch {
    throw new Error(
      `backend.php ${fields.op}/${fields.method} answered no JSON: ${text.slice(0, 200)}`,
    )
  }
}
