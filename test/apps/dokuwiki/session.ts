/**
 * Signing in to DokuWiki over plain HTTP and sending requests with a saved session, as a person
 * with curl would: the session lives in cookies only (the PHP session `DokuWiki` and the auth
 * cookie `DW<md5>`), so a {@link StorageState} with those cookies is all a request needs.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/**
 * Logs in with DokuWiki's login form fields (`do=login`, `u`, `p`) posted to `/doku.php`, as the
 * login page does, and returns the cookies the browser would hold afterwards. Throws when
 * DokuWiki did not set its auth cookie (wrong password).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  // The login page opens the PHP session first, as a browser's visit does.
  const first = await fetch(`${origin}/doku.php?id=start&do=login`, { redirect: 'manual' })
  await first.arrayBuffer()
  let cookies = setCookiesOf(first.headers, host)
  const body = new URLSearchParams({ id: 'start', do: 'login', u: user.name, p: user.password })
  const res = await fetch(`${origin}/doku.php`, {
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
  if (!cookies.some((c) => /^DW[0-9a-f]{32}$/.test(c.name)))
    throw new Error(`DokuWiki refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
