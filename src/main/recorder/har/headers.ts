import type { HarCookie, HarNameValue } from './types'

/**
 * HAR header lists → a trace's header record. Names are lower-cased (as Playwright's
 * `allHeaders()` gives them, so imported and recorded traces look alike). HTTP/2 and HTTP/3
 * pseudo-headers (`:authority`, `:method`, `:path`, `:scheme`, `:status`; RFC 9113 §8.3) are
 * dropped: they restate the request line. Repeated fields are combined as RFC 9110 §5.3 allows:
 * `, ` in general, `; ` for `Cookie` (RFC 9113 §8.2.3), and a newline for `Set-Cookie`, which
 * cannot be combined with commas (RFC 6265 §3) and which Playwright joins the same way.
 */
export function headersFromHar(list: HarNameValue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const header of list ?? []) {
    if (!header || typeof header.name !== 'string' || header.name.startsWith(':')) continue
    const name = header.name.toLowerCase()
    const value = String(header.value ?? '')
    const previous = out[name]
    if (previous === undefined) out[name] = value
    else out[name] = `${previous}${joinerOf(name)}${value}`
  }
  return out
}

/** A trace's header record → HAR header list, splitting what `headersFromHar` combined. */
export function headersToHar(headers: Record<string, string>): HarNameValue[] {
  const out: HarNameValue[] = []
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'set-cookie')
      for (const line of value.split('\n')) out.push({ name, value: line })
    else out.push({ name, value })
  }
  return out
}

function joinerOf(name: string): string {
  if (name === 'set-cookie') return '\n'
  if (name === 'cookie') return '; '
  return ', '
}

/** `Cookie` request header text from a HAR cookie list (for HARs that list cookies only there). */
export function cookieHeaderOf(cookies: HarCookie[] | undefined): string | null {
  const pairs = (cookies ?? []).filter((c) => c && typeof c.name === 'string')
  return pairs.length ? pairs.map((c) => `${c.name}=${c.value ?? ''}`).join('; ') : null
}

/** `Set-Cookie` lines (newline-joined) from a HAR cookie list, with the attributes it names. */
export function setCookieHeaderOf(cookies: HarCookie[] | undefined): string | null {
  const lines = (cookies ?? [])
    .filter((c) => c && typeof c.name === 'string')
    .map((c) => {
      const parts = [`${c.name}=${c.value ?? ''}`]
      if (c.path) parts.push(`Path=${c.path}`)
      if (c.domain) parts.push(`Domain=${c.domain}`)
      if (c.expires) {
        const when = Date.parse(c.expires)
        if (!Number.isNaN(when)) parts.push(`Expires=${new Date(when).toUTCString()}`)
      }
      if (c.httpOnly) parts.push('HttpOnly')
      if (c.secure) parts.push('Secure')
      if (c.sameSite) parts.push(`SameSite=${c.sameSite}`)
      return parts.join('; ')
    })
  return lines.length ? lines.join('\n') : null
}

/** Parses a `Cookie` request header into HAR cookies. */
export function cookiesOfHeader(header: string | undefined): HarCookie[] {
  if (!header) return []
  return header
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=')
      return eq < 0
        ? { name: part, value: '' }
        : { name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() }
    })
}

/** Parses `Set-Cookie` lines (newline-joined) into HAR cookies with their attributes. */
export function cookiesOfSetCookie(header: string | undefined): HarCookie[] {
  if (!header) return []
  return header
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [pair = '', ...attributes] = line.split(';')
      const eq = pair.indexOf('=')
      const cookie: HarCookie = {
        name: (eq < 0 ? pair : pair.slice(0, eq)).trim(),
        value: eq < 0 ? '' : pair.slice(eq + 1).trim(),
      }
      for (const attribute of attributes) {
        const [rawKey = '', ...rest] = attribute.split('=')
        const key = rawKey.trim().toLowerCase()
        const value = rest.join('=').trim()
        if (key === 'path') cookie.path = value
        else if (key === 'domain') cookie.domain = value
        else if (key === 'httponly') cookie.httpOnly = true
        else if (key === 'secure') cookie.secure = true
        else if (key === 'samesite') cookie.sameSite = value
        else if (key === 'expires') {
          const when = Date.parse(value)
          if (!Number.isNaN(when)) cookie.expires = new Date(when).toISOString()
        }
      }
      return cookie
    })
}
