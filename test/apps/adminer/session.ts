/**
 * Signing in to Adminer over plain HTTP and reading its pages by hand, as a person with curl
 * would. Adminer keeps the login in the PHP session (`adminer_sid`) with the password encrypted
 * by the `adminer_key` cookie, so a {@link StorageState} with those two cookies is all a request
 * needs; the database, server and user name travel in every URL's query.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'
import { DATABASE, DB_USER, SERVER } from './seed'

type Cookie = StorageState['cookies'][number]

/** The query every page of the shop database carries: `pgsql=127.0.0.1&username=ada&db=shop&ns=public`. */
export const DB_QUERY = `pgsql=${SERVER}&username=${DB_USER.name}&db=${DATABASE}&ns=public`

/** Parses `Set-Cookie` headers into storage-state cookies for `host`, merged over `jar` by name. */
function withSetCookies(jar: Cookie[], headers: Headers, host: string): Cookie[] {
  const byName = new Map(jar.map((c) => [c.name, c]))
  for (const line of headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(';')
    const eq = pair!.indexOf('=')
    const name = pair!.slice(0, eq).trim()
    const value = pair!.slice(eq + 1).trim()
    let expires = -1
    for (const attr of attrs) {
      const [k, v] = attr.split('=').map((s) => s.trim())
      if (k!.toLowerCase() === 'expires' && v) expires = Math.floor(Date.parse(v) / 1000)
    }
    const httpOnly = attrs.some((a) => a.trim().toLowerCase() === 'httponly')
    if (value === 'deleted' || (expires !== -1 && expires * 1000 < Date.now())) {
      byName.delete(name)
      continue
    }
    byName.set(name, { name, value, domain: host, path: '/', expires, httpOnly, sameSite: 'Lax' })
  }
  return [...byName.values()]
}

/**
 * Posts Adminer's login form (`auth[driver]=pgsql`, `auth[server]`, `auth[username]`,
 * `auth[password]`, `auth[db]`) to `/`, after a first visit that sets `adminer_sid` and
 * `adminer_key`, and returns the cookies a browser would hold afterwards. Adminer answers a
 * login with a 302 to the database without checking it; the database page it leads to answers
 * 403 with the login form when PostgreSQL refused the password, which this throws on.
 */
export async function signInByHttp(origin: string): Promise<StorageState> {
  const host = new URL(origin).hostname
  const first = await fetch(`${origin}/`, { redirect: 'manual' })
  await first.arrayBuffer()
  let cookies = withSetCookies([], first.headers, host)
  const body = new URLSearchParams({
    'auth[driver]': 'pgsql',
    'auth[server]': SERVER,
    'auth[username]': DB_USER.name,
    'auth[password]': DB_USER.password,
    'auth[db]': DATABASE,
  })
  const res = await fetch(`${origin}/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(cookies) },
    body,
  })
  await res.arrayBuffer()
  cookies = withSetCookies(cookies, res.headers, host)
  const check = await fetch(`${origin}/?${DB_QUERY}`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(cookies) },
  })
  const html = await check.text()
  if (check.status !== 200 || !html.includes('Schema: public'))
    throw new Error(`Adminer refused the login of ${DB_USER.name} (${check.status})`)
  return { cookies, origins: [] }
}
