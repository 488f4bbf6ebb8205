/**
 * Signing in to Fossil over plain HTTP, as a person with curl would: the login form posts `u`,
 * `p` and `in=Login` to `/login`, and Fossil answers 302 with its login cookie
 * (`fossil-<project code prefix>`), which is all a signed-in request needs.
 */
import type { StorageState } from '../../../src/shared/trace'
import { LOGIN_COOKIE } from './seed'

type Cookie = StorageState['cookies'][number]

/** The login cookie `res` set, as a storage-state cookie for `host`, or null. */
function loginCookieFrom(res: Response, host: string): Cookie | null {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = pair!.indexOf('=')
    if (pair!.slice(0, eq).trim() !== LOGIN_COOKIE) continue
    // Fossil sends `Path=;` (empty): a browser then scopes the cookie to "/" for these paths.
    return {
      name: LOGIN_COOKIE,
      value: pair!.slice(eq + 1).trim(),
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: true,
      sameSite: 'Lax',
    }
  }
  return null
}

/**
 * Posts the login form as its Login button does and returns the cookies a browser would hold
 * afterwards. Throws when Fossil set no login cookie (a wrong password answers the form again).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const res = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ u: user.name, p: user.password, in: 'Login' }),
  })
  await res.arrayBuffer()
  const cookie = loginCookieFrom(res, new URL(origin).hostname)
  if (res.status !== 302 || !cookie)
    throw new Error(`Fossil refused the login of ${user.name} (${res.status})`)
  return { cookies: [cookie], origins: [] }
}
