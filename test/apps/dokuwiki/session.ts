/**
 * Signing in to DokuWiki over plain HTTP and sending requests with a saved session, as a person
 * with curl would: the session lives in cookies only (the PHP session `DokuWiki` and the auth
 * cookie `DW<md5>`), so a {@link StorageState} with those cookies is all a request needs.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** Parses `Set-Cookie` headers into storage-state cookies for `host` (deleted ones dropped). */
function parseSetCookies(headers: Headers, host: string): Cookie[] {
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
    out.push({ name, value, domain: host, path, expires, httpOnly, sameSite: 'Lax' })
  }
  return out
}

/** Merges cookies by name (later wins). */
function mergeCookies(a: Cookie[], b: Cookie[]): Cookie[] {
  const byName = new Map(a.map((c) => [c.name, c]))
  for (const c of b) byName.set(c.name, c)
  return [...byName.values()]
}

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
  let cookies = parseSetCookies(first.headers, host)
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
  cookies = mergeCookies(cookies, parseSetCookies(res.headers, host))
  if (!cookies.some((c) => /^DW[0-9a-f]{32}$/.test(c.name)))
    throw new Error(`DokuWiki refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
