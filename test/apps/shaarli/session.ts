/**
 * Signing in to Shaarli over plain HTTP, as a person with curl would: the login form's one-time
 * `token` comes with the PHP session cookie `shaarli` from `GET /login`, and a good login answers
 * 302 with `shaarli_staySignedIn` (the "Stay signed in" box, ticked by default) next to it.
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
    for (const attr of attrs) {
      const [k, v] = attr.split('=').map((s) => s.trim())
      const key = k!.toLowerCase()
      if (key === 'path' && v) path = v
      if (key === 'expires' && v) expires = Math.floor(Date.parse(v) / 1000)
    }
    // PHP deletes a cookie by setting it to "deleted" with a date in the past.
    if (value === 'deleted' || (expires !== -1 && expires * 1000 < Date.now())) continue
    out.push({ name, value, domain: host, path, expires, httpOnly: false, sameSite: 'Lax' })
  }
  return out
}

/** Merges cookies by name (later wins). */
function mergeCookies(a: Cookie[], b: Cookie[]): Cookie[] {
  const byName = new Map(a.map((c) => [c.name, c]))
  for (const c of b) byName.set(c.name, c)
  return [...byName.values()]
}

/** The value of the first hidden `<input name="token">` of a Shaarli page, or null. */
export function pageToken(html: string): string | null {
  return /<input[^>]*name="token"[^>]*value="([0-9a-f]{40})"/.exec(html)?.[1] ?? null
}

/**
 * Logs in with the login form's fields (`login`, `password`, `longlastingsession`, `token`,
 * `returnurl`) and returns the cookies a browser would hold afterwards. Throws when Shaarli did
 * not sign the user in (it answers a wrong password with the login form again, status 200).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const form = await fetch(`${origin}/login`, { redirect: 'manual' })
  const token = pageToken(await form.text())
  if (!token) throw new Error(`the login page holds no token (${form.status})`)
  let cookies = parseSetCookies(form.headers, host)
  const res = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({
      login: user.name,
      password: user.password,
      longlastingsession: 'on',
      token,
      returnurl: '',
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, parseSetCookies(res.headers, host))
  if (res.status !== 302 || !cookies.some((c) => c.name === 'shaarli_staySignedIn'))
    throw new Error(`Shaarli refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}
