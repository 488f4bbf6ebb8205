/**
 * Signing in to ZNC's web interface over plain HTTP, as a person with curl would. ZNC keeps the
 * login in a server-side web session named by the cookie `<listener port>-SessionId` (HttpOnly,
 * SameSite=Strict); the login form posts `submitted=1`, `user`, `pass` to `/login` with the
 * session cookie of the page it came from, and ZNC answers 302 to `/?cookie_check=true`.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** The session cookie `res` set (ZNC sends it with every answer), or null. */
function sessionCookie(res: Response, host: string): Cookie | null {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = pair!.indexOf('=')
    const name = pair!.slice(0, eq).trim()
    if (!name.endsWith('-SessionId')) continue
    return {
      name,
      value: pair!.slice(eq + 1).trim(),
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: true,
      sameSite: 'Strict',
    }
  }
  return null
}

/**
 * Opens the home page (which starts a web session), posts the login form with that session's
 * cookie, and returns the cookie a browser would hold afterwards. Throws when ZNC did not sign
 * the session in (a wrong password redirects the same way, so the user list is read to know).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const home = await fetch(`${origin}/`, { redirect: 'manual' })
  await home.arrayBuffer()
  let cookie = sessionCookie(home, host)
  if (!cookie) throw new Error(`ZNC set no session cookie (${home.status})`)
  const res = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader([cookie]),
    },
    body: new URLSearchParams({ submitted: '1', user: user.name, pass: user.password }),
  })
  await res.arrayBuffer()
  cookie = sessionCookie(res, host) ?? cookie
  const state: StorageState = { cookies: [cookie], origins: [] }
  // The webadmin's user list answers an admin's session only; anyone else is sent to `/`.
  const check = await fetch(`${origin}/mods/global/webadmin/listusers`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(state) },
  })
  await check.arrayBuffer()
  if (res.status !== 302 || check.status !== 200)
    throw new Error(`ZNC refused the login of ${user.name} (${res.status}, ${check.status})`)
  return state
}
