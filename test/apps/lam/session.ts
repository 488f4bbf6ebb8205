/**
 * Signing in to LDAP Account Manager over plain HTTP, as a person with curl would: the login form
 * of `templates/login.php` (`username` = the admin DN picked in its list, `passwd`, `language`,
 * `checklogin`) posted back to itself. LAM keeps the login in the PHP session and the password
 * encrypted there with a key held by the browser (the `Key` and `IV` cookies set with the first
 * page): a saved login is all three cookies.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/**
 * Logs in with LAM's login form and returns the cookies the browser would hold afterwards.
 * Throws when LAM did not accept the login (it answers 302 to `./main.php` only then).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}/templates/login.php`, { redirect: 'manual' })
  await first.arrayBuffer()
  let cookies = setCookiesOf(first.headers, host)
  const res = await fetch(`${origin}/templates/login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({
      username: user.name,
      passwd: user.password,
      language: 'en_GB.utf8',
      checklogin: '',
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  const where = res.headers.get('location') ?? ''
  if (res.status !== 302 || !where.includes('main.php'))
    throw new Error(`LAM refused the login of ${user.name} (${res.status} ${where})`)
  const check = await fetch(`${origin}/templates/lists/list.php?type=user`, {
    headers: { cookie: cookieHeader(cookies) },
    redirect: 'manual',
  })
  if (check.status !== 200 || !(await check.text()).includes('name="sec_token"'))
    throw new Error(`LAM shows no signed-in list after the login (${check.status})`)
  return { cookies, origins: [] }
}
