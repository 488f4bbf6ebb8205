/**
 * Sending a request to a corpus app by hand, as a person with curl would, signed in with a saved
 * {@link StorageState}: its cookies as a `Cookie` header and, for apps that keep a token in
 * localStorage, that token as `Authorization: Bearer`.
 */
import { Cookie as ParsedCookie } from 'tough-cookie'
import type { StorageState } from '../../src/shared/trace'
import type { AppInstance } from './types'

type Cookie = StorageState['cookies'][number]

/**
 * The `Cookie` header a browser holding `cookies` (a session's, or a bare jar) would send: every
 * cookie, or with `path` given only those whose cookie path is a prefix of its pathname (some
 * apps scope cookies to `/wp-admin` and the like). Empty when there is nothing to send.
 */
export function cookieHeader(cookies: StorageState | Cookie[] | undefined, path?: string): string {
  if (!cookies) return ''
  const jar = Array.isArray(cookies) ? cookies : cookies.cookies
  const pathname = path === undefined ? undefined : new URL(path, 'http://x').pathname
  return jar
    .filter((c) => pathname === undefined || pathname.startsWith(c.path))
    .map((c) => `${c.name}=${c.value}`)
    .join('; ')
}

/**
 * `fetch(origin + path)` with `init.session`'s cookies and, when `bearer` is given, that token as
 * `Authorization: Bearer`; a header the caller set itself wins. Redirects are not followed unless
 * `follow` is true (or `init.redirect` says otherwise), so a key sees an app's 302 as the answer.
 * `scopeCookies` sends only the cookies whose path covers `path`.
 */
export function fetchWithSession(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
  options: { follow?: boolean; bearer?: string | null; scopeCookies?: boolean } = {},
): Promise<Response> {
  const { session, ...rest } = init
  const headers = new Headers(rest.headers)
  if (options.bearer && !headers.has('authorization'))
    headers.set('authorization', `Bearer ${options.bearer}`)
  const cookies = cookieHeader(session, options.scopeCookies ? path : undefined)
  if (cookies && !headers.has('cookie')) headers.set('cookie', cookies)
  const redirect: RequestRedirect = options.follow ? 'follow' : 'manual'
  return fetch(`${origin}${path}`, { redirect, ...rest, headers })
}

/**
 * The cookies a response sets (its `Set-Cookie` headers, parsed by tough-cookie as RFC 6265
 * §5.2 says), as storage-state cookies for `host`. A cookie the response deletes is left out:
 * one already expired (`Max-Age=0`, a past `Expires`), or PHP's deletion, the value `deleted` or
 * an empty one.
 */
export function setCookiesOf(headers: Headers, host: string): Cookie[] {
  const out: Cookie[] = []
  for (const line of headers.getSetCookie()) {
    const parsed = ParsedCookie.parse(line, { loose: true })
    if (!parsed || parsed.value === '' || parsed.value === 'deleted') continue
    const expiry = parsed.expiryTime()
    if (expiry !== undefined && Number.isFinite(expiry) && expiry < Date.now()) continue
    out.push({
      name: parsed.key,
      value: parsed.value,
      domain: host,
      path: parsed.path ?? '/',
      expires: expiry !== undefined && Number.isFinite(expiry) ? Math.floor(expiry / 1000) : -1,
      httpOnly: parsed.httpOnly,
      sameSite: 'Lax',
    })
  }
  return out
}

/** `jar` with `fresh` added, a cookie of `fresh` replacing the one of the same name. */
export function mergeCookies(jar: Cookie[], fresh: Cookie[]): Cookie[] {
  const byName = new Map(jar.map((c) => [c.name, c]))
  for (const c of fresh) byName.set(c.name, c)
  return [...byName.values()]
}

/**
 * GETs `path` of a corpus app as its signed-in person (`session`; anonymous when undefined) and
 * returns the answer's text; throws unless the app answered 200.
 */
export async function getText(
  app: AppInstance,
  session: StorageState | undefined,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, session ? { session } : {})
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/**
 * Opens the signed-in page `path` of a Django app and returns its first form's CSRF token
 * (`csrfmiddlewaretoken`), the session plus any `csrftoken` cookie the page set (Django's CSRF
 * check wants the pair: the form's token and the cookie), and the page's HTML. Throws when the
 * page holds no token.
 */
export async function djangoForm(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<{ token: string; session: StorageState; html: string }> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`${path} holds no CSRF token (${res.status})`)
  const host = new URL(app.origin).hostname
  const cookies = mergeCookies(session.cookies, setCookiesOf(res.headers, host))
  return { token, session: { ...session, cookies }, html }
}
