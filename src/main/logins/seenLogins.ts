import type { LoginOffer } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { readChallenge, withoutUserinfo } from '../../shared/httpChallenge'
import type { HttpAuthScheme } from '../../shared/toolSpec'
import { headerValue, type Exchange, type StorageState, type Trace } from '../../shared/trace'
import { LEFT_OUT, WITHHELD } from '../store/traceCredentials'
import { siteStorageState } from './siteLogin'
import type { SiteLogins } from './siteLogins'

/**
 * The login a recording or a HAR shows the browser used on one site: what the browser sent it
 * (HTTP authentication, cookies, a bearer token) and the storage state it ended with. Held in
 * memory only; saved, it becomes a site login sealed in the vault.
 */
export interface SeenLogin {
  traceId: string
  /** When the recording started (the trace's `createdAt`), ms since the Unix epoch. */
  recordedAt: number
  /** host[:port] the login is for: the recorded site's, never another. */
  siteHost: string
  /** Cookies and localStorage of the site (a bearer token seen only in headers added as one item). */
  state: StorageState | null
  /**
   * HTTP authentication the browser answered (RFC 9110 §11): Basic carries the password (RFC 7617
   * §2); Digest only the user name (RFC 7616 §3.4: the password never crosses the wire), so its
   * `password` is null and saving asks for it.
   */
  http: { scheme: HttpAuthScheme; username: string; password: string | null } | null
  /** A user name typed on the sign-in page (shown, never saved on its own), or null. */
  typedUsername: string | null
  /** A bearer token was sent (`Authorization: Bearer`), kept in `state`. */
  bearer: boolean
  /** The page the credentials were first used on, for an automatic sign-in. */
  loginUrl: string | null
}

/**
 * The localStorage key a bearer token seen only in `Authorization` headers is kept under: as
 * JSON `{"access_token": …}`, where a run reads a login's token wherever it is kept
 * (`anyToken` in `engine/httpExecutor.ts`).
 */
export const BEARER_ITEM = 'sitecall.bearer'

const BASIC = /^\s*Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i
const DIGEST_USER = /^\s*Digest\s.*?\busername\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i
const BEARER = /^\s*Bearer\s+(\S+)\s*$/i
const USER_FIELD = /user|login|email|e-mail|account|name|who/i

/** A value recorded without a vault or left out of an export: no credential to offer. */
const unusable = (value: string | undefined) =>
  !value || value.includes(WITHHELD) || value.includes(LEFT_OUT)

function hostOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).host : null
}

/** `user:password` of a Basic answer (RFC 7617 §2: UTF-8, the user-id ends at the first colon). */
function basicPair(value: string): { username: string; password: string } | null {
  const encoded = BASIC.exec(value)?.[1]
  if (!encoded) return null
  const pair = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = pair.indexOf(':')
  if (colon < 0) return null
  return { username: pair.slice(0, colon), password: pair.slice(colon + 1) }
}

/**
 * The cookies a HAR's requests carried to the site (it holds no storage state): the last value
 * of each name in the `Cookie` headers sent, updated by the `Set-Cookie` answers after it
 * (RFC 6265 §5.3: a past `Expires` or `Max-Age=0` deletes). Session cookies (`expires: -1`) on
 * the site's host name, path `/` unless the site named one.
 */
function cookiesSent(exchanges: Exchange[], hostname: string): StorageState['cookies'] {
  const jar = new Map<string, StorageState['cookies'][number]>()
  for (const exchange of exchanges) {
    const sent = headerValue(exchange.requestHeaders, 'cookie')
    if (!unusable(sent))
      for (const pair of sent!.split(/;\s*/)) {
        const eq = pair.indexOf('=')
        if (eq <= 0) continue
        const name = pair.slice(0, eq).trim()
        const value = pair.slice(eq + 1).trim()
        const old = jar.get(name)
        jar.set(name, { ...(old ?? { domain: hostname, path: '/', expires: -1 }), name, value })
      }
    const set = headerValue(exchange.responseHeaders, 'set-cookie')
    if (unusable(set)) continue
    for (const line of set!.split('\n')) {
      const [pair = '', ...attributes] = line.split(';')
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      const cookie = { name, value: pair.slice(eq + 1).trim(), domain: hostname, path: '/' }
      let expires = -1
      let gone = false
      const flags: { httpOnly?: boolean; secure?: boolean } = {}
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.split('=')
        const value = rest.join('=').trim()
        const k = key.trim().toLowerCase()
        if (k === 'path' && value.startsWith('/')) cookie.path = value
        else if (k === 'httponly') flags.httpOnly = true
        else if (k === 'secure') flags.secure = true
        else if (k === 'max-age' && Number(value) <= 0) gone = true
        else if (k === 'expires' && Date.parse(value) < exchange.startedAt) gone = true
        else if (k === 'expires' && !Number.isNaN(Date.parse(value)))
          expires = Math.floor(Date.parse(value) / 1000)
      }
      if (gone) jar.delete(name)
      else jar.set(name, { ...cookie, expires, ...flags })
    }
  }
  return [...jar.values()]
}

/**
 * The user name typed just before the first secret field on the sign-in page: the last
 * non-secret fill on that page whose field looks like one (name, type `email`).
 */
function typedUsername(trace: Trace): string | null {
  const secret = trace.actions.find((a) => a.secret)
  if (!secret) return null
  const before = trace.actions.filter(
    (a) =>
      a.seq < secret.seq &&
      a.kind === 'fill' &&
      !a.secret &&
      a.value &&
      a.pageUrl === secret.pageUrl &&
      (a.inputType === 'email' || USER_FIELD.test(`${a.fieldName ?? ''} ${a.name ?? ''}`)),
  )
  return before.at(-1)?.value ?? null
}

/**
 * Finds the login `trace` shows the browser used on `siteHost` (pure): HTTP authentication from
 * the `Authorization` its requests to the site sent (Basic: user and password; Digest: user) or a
 * URL's userinfo, the site's part of the storage state the recording ended with (or, for a HAR,
 * the cookies its requests carried), and a bearer token from `Authorization` (kept as the
 * {@link BEARER_ITEM} localStorage item of the site's origin unless the storage holds it
 * already). Only requests to `siteHost` count: a login is kept for the recorded site alone.
 * Values the store withheld (recorded while the vault was locked) are no login. Null when the
 * trace shows none.
 */
export function findSeenLogin(trace: Trace, siteHost: string): SeenLogin | null {
  const own = trace.exchanges.filter((e) => hostOf(e.url) === siteHost)
  if (!own.length && hostOf(trace.startUrl) !== siteHost) return null
  const hostname = siteHost.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
  let http: SeenLogin['http'] = null
  let loginUrl: string | null = null
  let token: { value: string; origin: string } | null = null
  for (const exchange of own) {
    const authorization = headerValue(exchange.requestHeaders, 'authorization')
    const at = withoutUserinfo(exchange.url)
    if (!unusable(authorization)) {
      const basic = basicPair(authorization!)
      const digest = DIGEST_USER.exec(authorization!)
      const bearer = BEARER.exec(authorization!)?.[1]
      if (basic) http = { scheme: 'basic', ...basic }
      else if (digest && (http === null || http.password === null))
        http = {
          scheme: 'digest',
          username: (digest[1] ?? digest[2] ?? '').replace(/\\(.)/g, '$1'),
          password: null,
        }
      else if (bearer) token = { value: bearer, origin: new URL(exchange.url).origin }
      if ((basic || digest) && !loginUrl) loginUrl = at
    }
    const parsed = URL.canParse(exchange.url) ? new URL(exchange.url) : null
    if (parsed && (parsed.username || parsed.password) && !unusable(parsed.username)) {
      const username = decodeURIComponent(parsed.username)
      const password = decodeURIComponent(parsed.password)
      const challenged = own.find((e) => e.status === 401)
      const scheme =
        readChallenge(
          challenged ? headerValue(challenged.responseHeaders, 'www-authenticate') : undefined,
        )?.scheme ?? 'basic'
      http = { scheme, username, password }
      loginUrl ??= at
    }
  }
  let state =
    siteStorageState(trace.storageState, siteHost) ??
    (trace.storageState ? null : emptyToNull(cookiesSent(own, hostname)))
  if (token && !holdsToken(state, token.value)) {
    const origins = [...(state?.origins ?? [])]
    const item = { name: BEARER_ITEM, value: JSON.stringify({ access_token: token.value }) }
    const at = origins.findIndex((o) => o.origin === token!.origin)
    if (at >= 0)
      origins[at] = { ...origins[at]!, localStorage: [...origins[at]!.localStorage, item] }
    else origins.push({ origin: token.origin, localStorage: [item] })
    state = { cookies: state?.cookies ?? [], origins }
  }
  if (!http && !state) return null
  const signInPage = trace.actions.find((a) => a.secret)?.pageUrl ?? null
  return {
    traceId: trace.id,
    recordedAt: trace.createdAt,
    siteHost,
    state,
    http,
    typedUsername: http ? null : typedUsername(trace),
    bearer: token !== null,
    loginUrl: loginUrl ?? (signInPage && hostOf(signInPage) === siteHost ? signInPage : null),
  }
}

function emptyToNull(cookies: StorageState['cookies']): StorageState | null {
  return cookies.length ? { cookies, origins: [] } : null
}

function holdsToken(state: StorageState | null, token: string): boolean {
  return !!state?.origins.some((o) => o.localStorage.some((item) => item.value.includes(token)))
}

/**
 * What the app and the CLI show of a seen login: never a secret value. `saved`: this login is
 * kept (saved by the offer, or during the recording when the person answered the site's HTTP
 * authentication in the app); `replaces`: another login of the site is saved, which saving
 * replaces.
 */
export function offerOf(
  seen: SeenLogin,
  { saved, replaces }: { saved: boolean; replaces: boolean },
): LoginOffer {
  return {
    traceId: seen.traceId,
    host: seen.siteHost,
    cookieCount: seen.state?.cookies.length ?? 0,
    storageItems: (seen.state?.origins ?? []).reduce((n, o) => n + o.localStorage.length, 0),
    username: seen.http?.username ?? seen.typedUsername,
    httpAuth: seen.http?.scheme ?? null,
    needsPassword: !!seen.http && seen.http.password === null,
    bearer: seen.bearer,
    saved,
    replaces: !saved && replaces,
  }
}

/**
 * One line saying what a login holds, for the CLI: `user ann, 2 cookies, a bearer token`.
 * Never a value but the user name.
 */
export function describeOffer(offer: LoginOffer): string {
  const parts: string[] = []
  if (offer.username) parts.push(`user ${offer.username}`)
  if (offer.httpAuth) parts.push(`HTTP ${offer.httpAuth === 'basic' ? 'Basic' : 'Digest'} auth`)
  if (offer.cookieCount)
    parts.push(`${offer.cookieCount} cookie${offer.cookieCount > 1 ? 's' : ''}`)
  if (offer.bearer) parts.push('a bearer token')
  else if (offer.storageItems)
    parts.push(`${offer.storageItems} stored item${offer.storageItems > 1 ? 's' : ''}`)
  return parts.join(', ')
}

export interface SeenLoginsDeps {
  logins: Pick<SiteLogins, 'save' | 'saveHttpAuth' | 'get' | 'credentials'>
  /** The stored trace, its credentials unsealed when the vault is open. */
  traces: { get(id: string): Trace | null }
  /** How many seen logins memory holds at most (the oldest goes first); default 5. */
  keep?: number
}

/**
 * The logins seen at Stop and at HAR import, offered to the person as saved logins
 * (architecture.md "What recorded traffic asks", 5). A seen login is held in memory only, so one recorded while the vault was locked
 * (its trace then keeps none) can still be saved once the vault opens; it is dropped once saved
 * or skipped, or when newer ones push it out.
 */
export interface SeenLogins {
  /** Finds the login `trace` shows for `siteHost`, holds it for the offer; null when none. */
  note(tenant: string, trace: Trace, siteHost: string): Promise<LoginOffer | null>
  /** The offer for a recording's site: held in memory, else read from its stored trace. */
  offer(tenant: string, traceId: string, siteHost: string): Promise<LoginOffer | null>
  /**
   * Saves the seen login as the site's login, sealed in the vault exactly as a sign-in saves one
   * (`SiteLogins.save`: storage state, and an HTTP authentication's user and password as the
   * secrets `login.<host>.username`/`.password` bound to the site's host). `password` completes a
   * Digest login. Errors: 404 `not_found` (no login seen), 400 `invalid_input` (Digest without a
   * password), 503 `unavailable` while the vault is locked (nothing is kept then).
   */
  save(
    tenant: string,
    traceId: string,
    siteHost: string,
    options?: { password?: string },
  ): Promise<LoginOffer>
  /** Forgets a held login (the person declined it). */
  skip(traceId: string): void
}

/** Creates the {@link SeenLogins} of one app over its saved logins and traces. */
export function createSeenLogins(deps: SeenLoginsDeps): SeenLogins {
  // Never written anywhere: the trace keeps credentials only sealed (docs/architecture.md "Rules that cut across").
  const held = new Map<string, SeenLogin>()
  const keep = deps.keep ?? 5
  /**
   * Whether the seen login is kept already: saved since the recording began (an HTTP
   * authentication the person answered in the app, a start URL's userinfo), or an HTTP
   * authentication login equal to the saved one (a recording that started with it).
   */
  const statusOf = async (tenant: string, seen: SeenLogin) => {
    const summary = deps.logins.get(tenant, seen.siteHost)
    if (!summary) return { saved: false, replaces: false }
    let saved = summary.savedAt >= seen.recordedAt
    if (!saved && seen.http && !seen.state && summary.hasPassword) {
      const kept = await deps.logins.credentials(tenant, seen.siteHost).catch(() => null)
      saved =
        kept?.username === seen.http.username &&
        (seen.http.password === null || kept.password === seen.http.password)
    }
    return { saved, replaces: !saved }
  }
  const seenFor = (traceId: string, siteHost: string): SeenLogin | null => {
    const inMemory = held.get(traceId)
    if (inMemory) return inMemory.siteHost === siteHost ? inMemory : null
    const trace = deps.traces.get(traceId)
    return trace ? findSeenLogin(trace, siteHost) : null
  }
  return {
    async note(tenant, trace, siteHost) {
      const seen = findSeenLogin(trace, siteHost)
      if (!seen) return null
      held.delete(trace.id)
      held.set(trace.id, seen)
      for (const oldest of held.keys()) {
        if (held.size <= keep) break
        held.delete(oldest)
      }
      return offerOf(seen, await statusOf(tenant, seen))
    },
    async offer(tenant, traceId, siteHost) {
      const seen = seenFor(traceId, siteHost)
      return seen ? offerOf(seen, await statusOf(tenant, seen)) : null
    },
    async save(tenant, traceId, siteHost, options = {}) {
      const seen = seenFor(traceId, siteHost)
      if (!seen) throw new ServiceError('not_found', `The recording kept no login for ${siteHost}.`)
      let credentials: { username: string; password: string } | null = null
      if (seen.http) {
        const password = seen.http.password ?? options.password ?? null
        if (password === null)
          throw new ServiceError(
            'invalid_input',
            `${siteHost} took Digest authentication as ${seen.http.username}: its password never crossed the wire, so type it to save the login.`,
          )
        credentials = { username: seen.http.username, password }
      }
      const loginUrl = seen.loginUrl ?? undefined
      if (seen.state)
        await deps.logins.save(tenant, siteHost, seen.state, {
          ...(credentials ? { credentials } : {}),
          ...(loginUrl ? { loginUrl } : {}),
        })
      else if (credentials)
        await deps.logins.saveHttpAuth(
          tenant,
          siteHost,
          credentials,
          loginUrl ?? `http://${siteHost}/`,
        )
      held.delete(traceId)
      return offerOf(seen, { saved: true, replaces: false })
    },
    skip: (traceId) => void held.delete(traceId),
  }
}
