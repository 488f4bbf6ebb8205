/**
 * Signing in to phpMyAdmin over plain HTTP, as a person with curl would: the cookie login form
 * (`pma_username`, `pma_password`, the session's `token` and `set_session`) posted to
 * `index.php?route=/`. The login lives in cookies only: the PHP session `phpMyAdmin`, the user
 * `pmaUser-1` and the encrypted password `pmaAuth-1`.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** Parses `Set-Cookie` headers into storage-state cookies for `host` (deleted ones dropped). */
export function parseSetCookies(headers: Headers, host: string): Cookie[] {
  const out: Cookie[] = []
  for (const line of headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(';')
    const eq = pair!.indexOf('=')
    const name = pair!.slice(0, eq).trim()
    const value = pair!.slice(eq + 1).trim()
    let path = '/'
    let expires = -1
    let httpOnly = false
    for (const attr of attrs) {
      const [k, v] = attr.split('=').map((s) => s.trim())
      const key = k!.toLowerCase()
      if (key === 'path' && v) path = v
      if (key === 'expires' && v) expires = Math.floor(Date.parse(v) / 1000)
      if (key === 'httponly') httpOnly = true
    }
    // PHP deletes a cookie by setting it to "deleted" with a date in the past.
    if (value === 'deleted' || (expires !== -1 && expires * 1000 < Date.now())) continue
    out.push({ name, value, domain: host, path, expires, httpOnly, sameSite: 'Strict' })
  }
  return out
}

/** Merges cookies by name (later wins). */
export function mergeCookies(a: Cookie[], b: Cookie[]): Cookie[] {
  const byName = new Map(a.map((c) => [c.name, c]))
  for (const c of b) byName.set(c.name, c)
  return [...byName.values()]
}

/** The value of the hidden `<input name="...">` in `html`, or null when there is none. */
export function hiddenField(html: string, name: string): string | null {
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
  let cookies = parseSetCookies(first.headers, host)
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
  cookies = mergeCookies(cookies, parseSetCookies(res.headers, host))
  if (!cookies.some((c) => c.name === 'pmaAuth-1'))
    throw new Error(`phpMyAdmin refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
