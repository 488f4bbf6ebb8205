/**
 * Signing in to WordPress and talking to it by hand, as a person with curl would: the login form
 * of wp-login.php, and plain HTTP with the session's cookies.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** Parses one Set-Cookie header into a Playwright-style cookie for `host`. */
function parseSetCookie(header: string, host: string): Cookie | null {
  const [pair, ...attributes] = header.split(';')
  const eq = pair?.indexOf('=') ?? -1
  if (!pair || eq <= 0) return null
  const cookie: Cookie = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    domain: host,
    path: '/',
    expires: -1,
  }
  for (const attribute of attributes) {
    const [rawKey, ...rest] = attribute.split('=')
    const key = (rawKey ?? '').trim().toLowerCase()
    const value = rest.join('=').trim()
    if (key === 'path') cookie.path = value || '/'
    else if (key === 'expires') cookie.expires = Math.floor(Date.parse(value) / 1000)
    else if (key === 'httponly') cookie.httpOnly = true
    else if (key === 'secure') cookie.secure = true
  }
  return cookie
}

/** Adds the cookies a response sets to `cookies`, dropping those it expires. */
function keepCookies(cookies: Cookie[], res: Response, host: string): Cookie[] {
  let jar = cookies
  for (const header of res.headers.getSetCookie()) {
    const cookie = parseSetCookie(header, host)
    if (!cookie) continue
    jar = jar.filter((c) => !(c.name === cookie.name && c.path === cookie.path))
    const expired = cookie.expires !== -1 && cookie.expires * 1000 < Date.now()
    if (!expired && cookie.value !== 'deleted') jar.push(cookie)
  }
  return jar
}

/**
 * `fetch` against the instance as curl would: no redirects followed, and only the session's
 * cookies whose path covers `path` (WordPress scopes some cookies to /wp-admin).
 */
export function appFetch(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  return fetchWithSession(origin, path, init, { scopeCookies: true })
}

/**
 * Signs in through wp-login.php's form: a GET first (WordPress answers the POST only when the
 * browser proved it keeps cookies: `wordpress_test_cookie`), then the POST, whose 302 sets the
 * auth cookies. Throws when WordPress does not sign the user in.
 */
export async function signInByForm(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const page = await appFetch(origin, '/wp-login.php')
  await page.arrayBuffer()
  let cookies = keepCookies([], page, host)
  const body = new URLSearchParams({
    log: user.name,
    pwd: user.password,
    'wp-submit': 'Log In',
    redirect_to: `${origin}/wp-admin/`,
    testcookie: '1',
  })
  const res = await appFetch(origin, '/wp-login.php', {
    method: 'POST',
    body,
    session: { cookies, origins: [] },
  })
  await res.arrayBuffer()
  cookies = keepCookies(cookies, res, host)
  if (res.status !== 302 || !cookies.some((c) => c.name.startsWith('wordpress_logged_in_')))
    throw new Error(`WordPress refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
