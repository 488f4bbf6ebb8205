import type { StorageState } from '../../../src/shared/trace'

type Cookie = StorageState['cookies'][number]

/**
 * Reads `Set-Cookie` headers into the cookies a browser on `host` would keep. Tornado quotes
 * some values (`username-...="2|1:0|..."`); a browser keeps the quotes as part of the value and
 * sends them back as they are, so they stay.
 */
export function parseSetCookies(headers: Headers, host: string): Cookie[] {
  const cookies: Cookie[] = []
  for (const line of headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';')
    const eq = pair.indexOf('=')
    if (eq <= 0) continue
    const cookie: Cookie = {
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax',
    }
    for (const attribute of attributes) {
      const [key = '', value = ''] = attribute.split('=').map((s) => s.trim())
      const lower = key.toLowerCase()
      if (lower === 'path') cookie.path = value
      else if (lower === 'httponly') cookie.httpOnly = true
      else if (lower === 'expires') cookie.expires = Math.floor(Date.parse(value) / 1000)
    }
    cookies.push(cookie)
  }
  return cookies
}

/** Adds `fresh` to `jar`, replacing cookies of the same name. */
export function mergeCookies(jar: Cookie[], fresh: Cookie[]): Cookie[] {
  const names = new Set(fresh.map((c) => c.name))
  return [...jar.filter((c) => !names.has(c.name)), ...fresh]
}

/** The value of the cookie `name` in `session`, or throws: the keys need it to be there. */
export function cookieValue(session: StorageState, name: string): string {
  const cookie = session.cookies.find((c) => c.name === name)
  if (!cookie) throw new Error(`the session has no ${name} cookie`)
  return cookie.value
}
