/**
 * Signing in to phpLDAPadmin over plain HTTP, as a person with curl would: the login form
 * (`cmd=login`, `login` = the admin DN, `login_pass`) posted to cmd.php. The login lives in the
 * PHP session (auth_type `session`), whose cookie is named by the md5 of the app's name; the form
 * carries no CSRF token.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/**
 * Logs in with phpLDAPadmin's login form and returns the cookies the browser would hold
 * afterwards. Throws when phpLDAPadmin did not accept the login. About one login in fifty fails
 * with HTTP 500 under PHP 8.2 (see NOTES.md: the session's encrypted password is split on `::`,
 * which its random IV may hold, and the warning that follows is fatal); a fresh session is tried
 * then, up to three times.
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  let last: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await signInOnce(origin, user)
    } catch (error) {
      last = error
      if (!/\(500 /.test((error as Error).message)) throw error
    }
  }
  throw last
}

/** One login on a fresh session (see {@link signInByHttp}). */
async function signInOnce(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}/index.php`, { redirect: 'manual' })
  await first.arrayBuffer()
  let cookies = setCookiesOf(first.headers, host)
  const body = new URLSearchParams({
    cmd: 'login',
    server_id: '1',
    'nodecode[login_pass]': '1',
    login: user.name,
    login_pass: user.password,
    submit: 'Authenticate',
  })
  const res = await fetch(`${origin}/cmd.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body,
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  // A good login redirects to the server's page; a bad one back to the login form.
  const where = res.headers.get('location') ?? ''
  if (res.status !== 302 || where.includes('login_form'))
    throw new Error(`phpLDAPadmin refused the login of ${user.name} (${res.status} ${where})`)
  const check = await fetch(`${origin}/cmd.php?server_id=1`, {
    headers: { cookie: cookieHeader(cookies) },
  })
  if (!(await check.text()).includes('Logged in as:'))
    throw new Error('phpLDAPadmin shows no signed-in user after the login')
  return { cookies, origins: [] }
}
