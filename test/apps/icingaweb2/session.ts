/**
 * Signing in to Icinga Web 2 over plain HTTP, as a person with curl would, and posting its forms.
 * The login page first checks that the browser keeps cookies (a 302 that sets `_chc=1` and comes
 * back with `?_checkCookie=1`); its form posts `username`, `password`, `rememberme`, `redirect`,
 * `formUID=form_login`, `CSRFToken` and `btn_submit=Login` to `/authentication/login`, and a good
 * login answers 302 to `/dashboard` with the PHP session cookie `Icingaweb2`. Every form of a
 * signed-in page carries its own hidden `CSRFToken` (`<seed>|<hash>`, made from the session id)
 * and `formUID` (the form's name).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieHeader, mergeCookies as merge, setCookiesOf } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** The hidden `CSRFToken` of the form named `form` in `html`, or undefined. */
function formToken(html: string, form: string): string | undefined {
  const start = html.indexOf(`name="${form}"`)
  if (start < 0) return undefined
  const end = html.indexOf('</form>', start)
  const body = html.slice(start, end < 0 ? undefined : end)
  return /name="CSRFToken" value="([^"]+)"/.exec(body)?.[1]
}

/** Logs in with the login form's fields and returns the cookies a browser would hold after. */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  let jar: Cookie[] = [
    {
      name: '_chc',
      value: '1',
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: false,
      sameSite: 'Lax',
    },
  ]
  const page = await fetch(`${origin}/authentication/login`, {
    headers: { cookie: cookieHeader(jar) },
    redirect: 'manual',
  })
  const html = await page.text()
  jar = merge(jar, setCookiesOf(page.headers, host))
  const token = formToken(html, 'form_login')
  if (!token) throw new Error(`the login page holds no CSRFToken (${page.status})`)
  const res = await fetch(`${origin}/authentication/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(jar),
    },
    body: new URLSearchParams({
      username: user.name,
      password: user.password,
      rememberme: '0',
      redirect: '',
      formUID: 'form_login',
      CSRFToken: token,
      btn_submit: 'Login',
    }),
  })
  await res.arrayBuffer()
  jar = merge(jar, setCookiesOf(res.headers, host))
  if (res.status !== 302 || !jar.some((c) => c.name === 'Icingaweb2'))
    throw new Error(`Icinga Web refused the login of ${user.name} (${res.status})`)
  const session: StorageState = { cookies: jar.filter((c) => c.name !== '_chc'), origins: [] }
  const check = await fetch(`${origin}/account`, {
    headers: { cookie: cookieHeader(session) },
    redirect: 'manual',
  })
  if (check.status !== 200)
    throw new Error(`Icinga Web did not sign ${user.name} in (${check.status})`)
  await check.arrayBuffer()
  return session
}

/**
 * Posts the form named `form` of the signed-in page `page` to `action` (the page itself unless
 * told), with its fresh `CSRFToken` and `formUID` and then `fields` in order.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  page: string,
  form: string,
  fields: Array<[string, string]>,
  action = page,
): Promise<Response> {
  const res = await app.fetch(page, { session })
  const html = await res.text()
  const token = formToken(html, form)
  if (!token) throw new Error(`${page} holds no form ${form} (${res.status})`)
  const body = new URLSearchParams()
  for (const [k, v] of fields) body.append(k, v)
  body.append('formUID', form)
  body.append('CSRFToken', token)
  return app.fetch(action, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  })
}
