/**
 * Signing in to phpMyAdmin over plain HTTP, as a person with curl would: the cookie login form
 * (`pma_username`, `pma_password`, the session's `token` and `set_session`) posted to
 * `index.php?route=/`. The login lives in cookies only: the PHP session `phpMyAdmin`, the user
 * `pmaUser-1` and the encrypted password `pmaAuth-1`.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/** The value of the hidden `<input name="...">` in `html`, or null when there is none. */
function hiddenField(html: string, name: string): string | null {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)
  return m ? m[1]! : null
}

/**
 * Logs in with phpMyAdmin's login form, as the page does, and returns the cookies the browser
 * would hold afterwards. Throws when phpMyAdmin did not set its auth cookie (wrong password).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}/index.php`, { redirect: 'manual' })
  const html = await first.text()
  let cookies = setCookiesOf(first.headers, host)
  const token = hiddenField(html, 'token')
  const setSession = hiddenField(html, 'set_session')
  if (!token || setSession === null) throw new Error('phpMyAdmin showed no login form')
  const body = new URLSearchParams({
    route: '/',
    lang: 'en',
    token,
    set_session: setSession,
    pma_username: user.name,
    pma_password: user.password,
    server: '1',
  })
  const res = await fetch(`${origin}/index.php?route=/`, {
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
  if (!cookies.some((c) => c.name === 'pmaAuth-1'))
    throw new Error(`phpMyAdmin refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
