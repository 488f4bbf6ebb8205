/**
 * Signing in to PostfixAdmin over plain HTTP, as a person with curl would: the login page opens
 * the PHP session (`postfixadmin_session`) and puts the session's CSRF token (`PFA_token`) in the
 * form; the login post echoes it and answers a 302 to main.php with a new session id.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** The session cookie of `headers`' Set-Cookie lines for `host`, or null. */
function sessionCookie(headers: Headers, host: string): Cookie | null {
  for (const line of headers.getSetCookie()) {
    const m = /^postfixadmin_session=([^;]*)/.exec(line)
    if (m && m[1] && m[1] !== 'deleted')
      return {
        name: 'postfixadmin_session',
        value: m[1],
        domain: host,
        path: '/',
        expires: -1,
        httpOnly: false,
        sameSite: 'Lax',
      }
  }
  return null
}

/** The value of the hidden `token` field in a PostfixAdmin page, or null. */
export function pageToken(html: string): string | null {
  return /name="token" value="([0-9a-f]{32})"/.exec(html)?.[1] ?? null
}

/**
 * Logs in with the login form's fields (`token`, `fUsername`, `fPassword`, `lang`) and returns
 * the session cookie a browser would hold afterwards. Throws when PostfixAdmin does not answer
 * with its redirect to main.php (wrong password, bad token).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}/login.php`, { redirect: 'manual' })
  const token = pageToken(await first.text())
  let cookie = sessionCookie(first.headers, host)
  if (!token || !cookie) throw new Error(`PostfixAdmin's login page gave no token/session`)
  const res = await fetch(`${origin}/login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader([cookie]),
    },
    body: new URLSearchParams({
      token,
      fUsername: user.name,
      fPassword: user.password,
      lang: 'en',
      submit: 'Login',
    }),
  })
  await res.arrayBuffer()
  cookie = sessionCookie(res.headers, host) ?? cookie
  if (res.status !== 302 || !/main\.php/.test(res.headers.get('location') ?? ''))
    throw new Error(`PostfixAdmin refused the login of ${user.name} (${res.status})`)
  return { cookies: [cookie], origins: [] }
}
