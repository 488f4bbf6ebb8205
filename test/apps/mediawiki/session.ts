import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader } from '../sessionFetch'

type Cookie = StorageState['cookies'][number]

/** Parses one `Set-Cookie` header into a Playwright-shaped cookie for 127.0.0.1. */
function parseSetCookie(header: string): Cookie {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim())
  const eq = pair.indexOf('=')
  const cookie: Cookie = {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
  }
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=')
    const name = key.toLowerCase()
    if (name === 'path') cookie.path = value
    else if (name === 'httponly') cookie.httpOnly = true
    else if (name === 'secure') cookie.secure = true
    else if (name === 'expires') cookie.expires = Math.floor(Date.parse(value) / 1000)
    else if (name === 'max-age') cookie.expires = Math.floor(Date.now() / 1000) + Number(value)
    else if (name === 'samesite') {
      const v = value.toLowerCase()
      cookie.sameSite = v === 'strict' ? 'Strict' : v === 'none' ? 'None' : 'Lax'
    }
  }
  return cookie
}

/**
 * Folds a response's `Set-Cookie` headers into `session` (a new state; the old one is unchanged),
 * dropping cookies the server expires, as a browser would.
 */
function absorbCookies(session: StorageState, res: Response): StorageState {
  const cookies = new Map(session.cookies.map((c) => [c.name, c]))
  const now = Date.now() / 1000
  for (const header of res.headers.getSetCookie()) {
    const cookie = parseSetCookie(header)
    if (cookie.expires !== -1 && cookie.expires < now) cookies.delete(cookie.name)
    else cookies.set(cookie.name, cookie)
  }
  return { cookies: [...cookies.values()], origins: session.origins }
}

/**
 * The value of the form field `name` in an HTML page ('' when it has none), or throws naming
 * the field. MediaWiki quotes attributes with " in its own forms and with ' in OOUI widgets.
 */
export function hiddenField(html: string, name: string): string {
  const input = html.match(new RegExp(`<input[^>]*name=["']${name}["'][^>]*>`))
  if (!input) throw new Error(`no ${name} field in the page`)
  const value = input[0].match(/value=(?:"([^"]*)"|'([^']*)')/)
  return decodeEntities(value?.[1] ?? value?.[2] ?? '')
}

/** Undoes the HTML escaping MediaWiki applies to attribute values. */
function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#039;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/**
 * Signs in through the login form over plain HTTP, as a browser does: GET Special:UserLogin (a
 * session cookie and the hidden wpLoginToken), then POST the form. Returns the cookies afterwards.
 */
export async function signInByForm(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  let session: StorageState = { cookies: [], origins: [] }
  const form = await fetch(`${origin}/index.php?title=Special:UserLogin`)
  session = absorbCookies(session, form)
  const token = hiddenField(await form.text(), 'wpLoginToken')
  const res = await fetch(`${origin}/index.php?title=Special:UserLogin&action=submitlogin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieHeader(session), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      title: 'Special:UserLogin',
      wpName: user.name,
      wpPassword: user.password,
      wpLoginToken: token,
      authAction: 'login',
      wpEditToken: '+\\',
      force: '',
      wpLoginAttempt: 'Log in',
    }),
  })
  session = absorbCookies(session, res)
  if (res.status !== 302 || !session.cookies.some((c) => c.name.endsWith('UserID')))
    throw new Error(`MediaWiki refused the login of ${user.name} (HTTP ${res.status})`)
  return session
}
