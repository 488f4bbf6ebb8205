/**
 * Signing in to Postorius over plain HTTP, as a person with curl would, and the CSRF pair its
 * forms carry. The login form is allauth's (`/accounts/login/`): it posts `csrfmiddlewaretoken`,
 * `login` (user name or e-mail) and `password`; Django's CSRF check wants the form's token to
 * match the `csrftoken` cookie the page set. A good login answers 302 and sets `sessionid`.
 * Every Postorius form holds its own hidden `csrfmiddlewaretoken` with the same rule.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieHeader, djangoForm, mergeCookies, setCookiesOf } from '../sessionFetch'

/** Logs in with allauth's login form and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const page = await fetch(`${origin}/accounts/login/`)
  const html = await page.text()
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`the login page holds no CSRF token (${page.status})`)
  let cookies = setCookiesOf(page.headers, host)
  const res = await fetch(`${origin}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
      referer: `${origin}/accounts/login/`,
    },
    body: new URLSearchParams({
      csrfmiddlewaretoken: token,
      login: user.name,
      password: user.password,
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  if (res.status !== 302 || !cookies.some((c) => c.name === 'sessionid'))
    throw new Error(`Postorius refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}

/**
 * A form POST (`fields` in order, repeated keys allowed) to `path` with the CSRF token of that
 * page, signed in with `session`; Django also wants a same-origin Referer. Redirects are not
 * followed: Postorius answers a good post with 302.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<Response> {
  const { token, session: withCsrf } = await djangoForm(app, session, path)
  const body = new URLSearchParams([['csrfmiddlewaretoken', token], ...fields])
  return app.fetch(path, {
    method: 'POST',
    session: withCsrf,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      referer: `${app.origin}${path}`,
    },
    body,
  })
}
