import { isUtf8 } from 'node:buffer'
import { randomBytes, randomUUID } from 'node:crypto'
import { Cookie, CookieJar } from 'tough-cookie'
import { FormData, request } from 'undici'
import type {
  LoginBinding,
  LoginCompose,
  RequestTemplate,
  ToolSpec,
  ToolStep,
  VerifyRule,
} from '../../shared/toolSpec'
import type { StorageState } from '../../shared/trace'
import { SENDER_HEADER } from '../../shared/toolEdit'
import {
  addressDenied,
  DENIED_CONNECT_CODE,
  pinnedDispatcher,
  type HostLookup,
} from './destination'
import { extractValue, filterResult, lookupMiss } from './extract'
import { locationMatches } from '../verify/answerChecks'
import {
  judgeResponse,
  judgeShown,
  loginWallIn,
  type Acknowledgement,
  type Outcome,
  type SiteResponse,
} from './outcome'
import { bindStepSecrets, type RunSecrets } from '../vault'
import { totpCodes, totpSeedNames } from './totp'
import { createRunHttpAuth, type HttpCredentials, type RunHttpAuth } from './httpAuth'
import {
  answerKey,
  renderOrRefuse,
  shownValues,
  secretNames,
  type RenderedRequest,
  type RenderedUpload,
  type TemplateScope,
} from './template'
import { safeJson, safeUrl } from '../../shared/safeJson'

/** `headers` without those the sender owns (`SENDER_HEADER`), whatever a stored tool says. */
function ownHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SENDER_HEADER.test(name)))
}

/** Sends one rendered request; injectable so tests and benchmarks can count or fault it. */
export type SendRequest = (req: RenderedRequest, signal: AbortSignal) => Promise<SiteResponse>

/** Errors raised before any byte left (the write cannot have landed), per undici's codes. */
const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT|EHOSTUNREACH|ENETUNREACH/

/**
 * Sends a request with undici. Redirects are not followed: a 3xx is the site's answer, and a
 * redirect must not carry a request somewhere the destination check did not see.
 */
export const sendWithUndici: SendRequest = async (req, signal) => {
  const res = await request(req.url, {
    method: req.method as 'GET',
    headers: ownHeaders(req.headers),
    body: req.upload ? uploadBody(req.upload) : (req.body ?? undefined),
    signal,
    // Connects only where the destination check allows (no second lookup).
    dispatcher: pinnedDispatcher,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  })
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  const cookies = res.headers['set-cookie']
  const setCookies = cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [cookies]
  return { status: res.statusCode, headers, ...bodyOf(await res.body.bytes()), setCookies }
}

/**
 * An answer's body as text (UTF-8, a leading byte order mark skipped, as undici's `text()`
 * reads it) and, when the bytes are valid UTF-8, those bytes too: the run stores and answers
 * them as they are instead of encoding the text again.
 */
export function bodyOf(raw: Uint8Array): { body: string; bytes?: Buffer } {
  const all = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const bom = all.length > 2 && all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf
  const bytes = bom ? all.subarray(3) : all
  const body = bytes.toString('utf8')
  return isUtf8(bytes) ? { body, bytes } : { body }
}

/**
 * A file body for undici: the raw bytes, or a `FormData` that undici serialises as
 * `multipart/form-data` (RFC 7578) and for which it writes `Content-Type` with its boundary and
 * `Content-Length`.
 */
export function uploadBody(upload: RenderedUpload): Uint8Array | FormData {
  if (upload.kind === 'binary') return upload.bytes
  const form = new FormData()
  for (const part of upload.parts) {
    if ('value' in part) form.append(part.name, part.value)
    else form.append(part.name, new Blob([part.bytes], { type: part.contentType }), part.filename)
  }
  return form
}

export type ExecutionOutcome = Outcome | { ok: false; code: 'outcome_unknown'; message: string }

/** What a run brings besides its inputs: the saved login of the tool's site, if any. */
export interface RunContext {
  login: StorageState | null
  /** The run's workspace secrets for `{{secret:NAME}}`; absent: a step naming one is refused. */
  secrets?: RunSecrets
  /** Resolves site names for the private-address check; default the system resolver. */
  lookup?: HostLookup
  /** Told of every request once it was sent (status null when no answer came): run effects. */
  onSent?: (sent: { method: string; url: string; status: number | null }) => void
  /** The username and password saved with the site's login, read when the site asks HTTP auth. */
  httpCredentials?: () => Promise<HttpCredentials | null>
}

/**
 * Runs a tool's steps over HTTP (docs/architecture.md "executor (http)"): dependency steps first, each
 * answer's extractors naming values for later steps (`{{step.<id>.<name>}}`), then the target,
 * whose answer is judged against `verify`. One cookie jar per run (RFC 6265) starts with the
 * login's cookies and takes every `Set-Cookie`, so a CSRF token and its cookie are fetched anew
 * on every run. Every URL is checked against the tool's site before it is sent. A read that
 * fails on the network is retried once; a write whose answer was lost is `outcome_unknown`,
 * never retried. A tool bound to a login fails `session_or_permission` when none is saved.
 */
export async function executeHttp(
  tool: ToolSpec,
  inputs: TemplateScope,
  send: SendRequest,
  signal: AbortSignal,
  context: RunContext = { login: null },
): Promise<ExecutionOutcome> {
  const last = tool.steps[tool.steps.length - 1]
  if (!last) return { ok: false, code: 'outcome_not_verified', message: 'The tool has no steps.' }
  const login = loginScope(tool.login, context.login)
  if (!login.ok) return login.outcome
  const scope: TemplateScope = { ...inputs, ...login.scope, ...generatedFor(tool) }
  // A sign-in tool starts from no session: with the saved one the site skips its login form.
  const signIn = tool.evidence.signals.some((x) => x.name === 'sign_in')
  const jar = runJar(signIn ? null : context.login)
  const scheme = tool.login?.httpAuth?.scheme
  const auth = createRunHttpAuth(
    context.httpCredentials,
    scheme ? { scheme, siteHost: tool.siteHost } : null,
  )
  const resolved = new Map<string, string | null>()
  for (const step of tool.steps) {
    const isTarget = step === last
    // Secrets enter this step's scope only, resolved at send time and checked before sending.
    const { seeds, secrets: named } = placeholdersOf(step.request)
    const secrets = await bindStepSecrets(named, context.secrets)
    if (!secrets.ok) return seedMissing(secrets, seeds) ?? secrets
    // A one-time code is made from its seed just before sending (`{{totp:NAME}}`).
    const codes = seeds.length ? await totpCodes(step.request, secrets.scope) : {}
    const rendered = renderOrRefuse(step.request, { ...scope, ...secrets.scope, ...codes })
    if ('ok' in rendered) return rendered
    const denied = destinationDenied(rendered.url, tool.siteHost)
    if (denied) return { ok: false, code: 'destination_denied', message: denied }
    const leak = secrets.deniedAt(rendered.url)
    if (leak) return leak
    const inside = await addressDenied(rendered.url, tool.siteHost, context.lookup, resolved)
    if (inside) return { ok: false, code: 'destination_denied', message: inside }
    const cookie = await jar.header(rendered.url)
    if (cookie) rendered.headers.cookie = cookie
    const writes = isTarget && tool.mutating
    let response: SiteResponse
    try {
      response = await sendAnswering(rendered, send, signal, !writes, auth, context.onSent)
    } catch (error) {
      const text = describe(error)
      if (text.includes(DENIED_CONNECT_CODE))
        return { ok: false, code: 'destination_denied', message: text }
      if (!NOT_SENT.test(text))
        context.onSent?.({ method: rendered.method, url: rendered.url, status: null })
      if (writes && !NOT_SENT.test(text))
        return {
          ok: false,
          code: 'outcome_unknown',
          message: `The write may have landed; its answer was lost (${text}).`,
        }
      return {
        ok: false,
        code: 'network_error',
        message: `The site could not be reached: ${text}.`,
      }
    }
    context.onSent?.({ method: rendered.method, url: rendered.url, status: response.status })
    await jar.take(response.setCookies, rendered.url)
    // Inside a sign-in tool a step sent on to the sign-in or code page is the sign-in itself
    // (a first factor redirects to the second); only its target's answer is judged so.
    const redirect =
      signIn && !isTarget
        ? null
        : signInRedirect(response, isTarget ? tool.verify.redirect : undefined)
    if (redirect) return redirect
    if (!isTarget) {
      const held = cookiesOf(await jar.header(rendered.url))
      const failed = readDependency(step, response, scope, held)
      if (failed) return failed
      continue
    }
    const judged = judgeResponse(response, tool.verify, tool.result, rendered.url)
    // A write acknowledged by a redirect: the page it names must show the run's values.
    const values = shownValues(step.request, rendered, tool.verify.redirect?.shows ?? [])
    const read = { tool, jar, send, signal, context, resolved, auth }
    if (judged.ok && values.length && response.headers.location) {
      const page = new URL(response.headers.location, rendered.url).href
      return readBack(judged.result as Acknowledgement, values, page, read)
    }
    if (!judged.ok && postRedirectGet(response, tool))
      return readLanding(
        response.status,
        new URL(response.headers.location!, rendered.url).href,
        read,
      )
    // A search the page did on its data is redone on the answer.
    return filterResult(judged, tool.result, scope)
  }
  return { ok: false, code: 'outcome_not_verified', message: 'The tool has no target step.' }
}

/** What reading a page after a write needs of the run. */
interface ReadAfterWrite {
  tool: ToolSpec
  jar: RunJar
  send: SendRequest
  signal: AbortSignal
  context: RunContext
  resolved: Map<string, string | null>
  auth: RunHttpAuth
}

/**
 * True when a target whose answer is a page (a 2xx document rule) was answered by a redirect
 * with a Location: the site's Post/Redirect/Get. A write takes it when the form was posted from
 * elsewhere than the person's page (ikiwiki's rename answers its editor when posted from the
 * editor, a redirect to the renamed page otherwise); a read whose recorded redirect the browser
 * followed (a filter form answered by the filtered list's URL) was compiled to read that page.
 */
function postRedirectGet(response: SiteResponse, tool: ToolSpec): boolean {
  return (
    response.status >= 300 &&
    response.status < 400 &&
    Boolean(response.headers.location) &&
    tool.verify.status[1] < 300 &&
    tool.result?.kind === 'document'
  )
}

/**
 * Reads the page a target's redirect landed on when the tool's answer is a page
 * (`postRedirectGet`) and judges it as the tool's answer: the same document rule (RFC 9110
 * §15.4.4: the Location names the result), less the recorded title, which named the page the
 * form came back on. Sent as `readBack` sends; a sign-in page or barrier fails as usual.
 */
async function readLanding(
  status: number,
  url: string,
  read: ReadAfterWrite,
): Promise<ExecutionOutcome> {
  const page = await getAfterWrite(status, url, read)
  if ('ok' in page) return page
  const { title: _recorded, ...rule } = read.tool.verify
  return signInRedirect(page) ?? judgeResponse(page, rule, read.tool.result, url)
}

/**
 * Reads the page a write's redirect named and judges that it shows the run's values
 * (`judgeShown`; the rule's `redirect.shows`).
 */
async function readBack(
  ack: Acknowledgement,
  values: string[],
  url: string,
  read: ReadAfterWrite,
): Promise<ExecutionOutcome> {
  const page = await getAfterWrite(ack.status, url, read)
  if ('ok' in page) return page
  return signInRedirect(page) ?? judgeShown(ack, page, values, url)
}

/**
 * GETs the page a write's redirect named. The page is checked against the tool's site like
 * every request, sent with the run's cookie jar, retried once on a network error (a read), and
 * never followed further than a sign-in redirect tells. A page that cannot be read leaves the
 * write unverified: `outcome_not_verified`, never a success.
 */
async function getAfterWrite(
  status: number,
  url: string,
  read: ReadAfterWrite,
): Promise<SiteResponse | Outcome> {
  const { tool, jar, send, signal, context } = read
  const unread = (why: string): Outcome => ({
    ok: false,
    code: 'outcome_not_verified',
    message: `The site answered HTTP ${status} but ${why}.`,
  })
  const denied =
    destinationDenied(url, tool.siteHost) ??
    (await addressDenied(url, tool.siteHost, context.lookup, read.resolved))
  if (denied) return unread(`the page it redirected to cannot be read: ${denied}`)
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml' }
  const cookie = await jar.header(url)
  if (cookie) headers.cookie = cookie
  let page: SiteResponse
  try {
    const get = { method: 'GET', url, headers, body: null }
    page = await sendAnswering(get, send, signal, true, read.auth, context.onSent)
  } catch (error) {
    if (signal.aborted) throw error
    context.onSent?.({ method: 'GET', url, status: null })
    return unread(`the page it redirected to could not be read (${describe(error)})`)
  }
  context.onSent?.({ method: 'GET', url, status: page.status })
  await jar.take(page.setCookies, url)
  return page
}

/** The cookies of a `Cookie` header value (RFC 6265 §5.4), by name. */
function cookiesOf(header: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const pair of header.split(/;\s*/)) {
    const eq = pair.indexOf('=')
    if (eq > 0) out.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
  return out
}

/**
 * Judges a dependency step's answer and puts its extracted values in scope; null when fine.
 * `held`: the cookies the run's jar holds for the step's URL, read when the answer sets none.
 */
export function readDependency(
  step: ToolStep,
  response: SiteResponse,
  scope: TemplateScope,
  held: ReadonlyMap<string, string> = new Map(),
): Outcome | null {
  if (response.status >= 400) {
    const judged = judgeResponse(response, ANY_ANSWER)
    return judged.ok ? null : judged
  }
  // A later body may be this answer, changed (a read-modify-write).
  scope[answerKey(step.id)] = response.body
  for (const extractor of step.extract) {
    // A cookie the answer did not set again is the one the run's jar already holds (a CSRF
    // cookie set once per session, which the saved login brought along).
    const value =
      extractValue(response, extractor, scope) ??
      (extractor.from === 'cookie' ? held.get(extractor.path) : undefined)
    if (value !== undefined) {
      scope[`step.${step.id}.${extractor.name}`] = value
      continue
    }
    // A lookup by name whose list has no such record: the input names nothing.
    const where = `${step.request.method} ${new URL(step.request.url).pathname}`
    const missed = lookupMiss(response, extractor, scope, where)
    if (missed) return missed
    // A sign-in page, a bot check or a second factor where the value used to be says why.
    const page = judgeResponse(
      { ...response, headers: { 'content-type': 'text/html' } },
      ANY_ANSWER,
    )
    if (!page.ok && page.code !== 'schema_or_auth_drift') return page
    const wall = loginWallIn(safeJson(response.body))
    if (wall) return wall
    return {
      ok: false,
      code: 'schema_or_auth_drift',
      message: `${step.request.method} ${new URL(step.request.url).pathname} no longer carries ${extractor.from} "${extractor.path}": record the flow again.`,
    }
  }
  return null
}

/**
 * A step that sends a one-time code whose TOTP seed is not saved: the site asks a second factor
 * that the run cannot answer (spec `mfa_required`: save a TOTP seed for unattended use). Null
 * when the refusal is about another secret.
 */
function seedMissing(
  refusal: { code: string; message: string },
  seeds: readonly string[],
): Extract<Outcome, { ok: false }> | null {
  const seed = seeds.find((name) => refusal.message.includes(`"${name}"`))
  if (!seed || refusal.code !== 'session_or_permission') return null
  return {
    ok: false,
    code: 'mfa_required',
    message: `The site asks a one-time code and its login keeps no TOTP seed (${seed}): save the login with its TOTP seed, or sign in with the code.`,
    signIn: true,
  }
}

const ANY_ANSWER: VerifyRule = { status: [200, 399], mimeType: '', required: [] }

/** Locations of sign-in pages (`/login`, `/users/sign_in`, `/session/new`, `/auth/…`). */
const SIGN_IN_LOCATION = /log[-_]?in|sign[-_]?in|\bauth\b|oauth|authenticat|authori[sz]e|session/i
const SECOND_FACTOR_LOCATION = /\b(otp|totp|2fa|mfa|two-?factor|second-?factor)\b/i

/**
 * A 3xx to a sign-in page: the session is gone (a redirect is never followed, see above); to a
 * second-factor page (`/login/otp`, `/2fa`, `/mfa`): the site asks for a one-time code. Not when
 * the target's rule expects this very redirect (`expected`: a sign-out's recorded
 * redirect to `/login`), and only a sign-in page's own words count (`/author/x` is none).
 */
export function signInRedirect(
  response: SiteResponse,
  expected?: VerifyRule['redirect'],
): Outcome | null {
  if (response.status < 300 || response.status >= 400) return null
  const location = response.headers.location ?? ''
  if (
    expected &&
    (SIGN_IN_LOCATION.test(expected.path) || SECOND_FACTOR_LOCATION.test(expected.path)) &&
    locationMatches(expected.path, locationPath(location))
  )
    return null
  if (SECOND_FACTOR_LOCATION.test(location))
    return {
      ok: false,
      code: 'mfa_required',
      message: `The site asked for a second factor (${location}): sign in with the code, or save a TOTP seed.`,
      signIn: true,
    }
  if (!SIGN_IN_LOCATION.test(location)) return null
  return {
    ok: false,
    code: 'session_or_permission',
    message: `The site sent the request to its sign-in page (${location}): save the login again.`,
    signIn: true,
  }
}

/** The path of a Location header (absolute or relative: RFC 9110 §10.2.2), '' when unreadable. */
function locationPath(location: string): string {
  return safeUrl(location, 'http://localhost/')?.pathname ?? ''
}

const JWT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/
const TOKEN_KEY = /^(access_?token|token|jwt|id_?token|auth_?token|bearer)$/i

/**
 * The token a saved login keeps under any localStorage key (a login value whose key is `*`,
 * compiled from a HAR that showed only the `Authorization` header): the items of `origin` first,
 * then every origin; an item that is a JWT, or a JSON item with an `access_token`/`token`/`jwt`
 * string field (searched two levels deep).
 */
function anyToken(state: StorageState, origin: string): string | undefined {
  const origins = [...state.origins].sort(
    (a, b) => Number(b.origin === origin) - Number(a.origin === origin),
  )
  for (const o of origins)
    for (const item of o.localStorage) {
      if (JWT.test(item.value)) return item.value
      const json = safeJson(item.value)
      if (json === undefined) continue
      const found = tokenField(json, 2)
      if (found) return found
    }
  return undefined
}

function tokenField(node: unknown, depth: number): string | undefined {
  if (!node || typeof node !== 'object' || depth < 0) return undefined
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (typeof value === 'string' && TOKEN_KEY.test(key) && value.length >= 8) return value
    const inner = tokenField(value, depth - 1)
    if (inner) return inner
  }
  return undefined
}

/**
 * The `login.<name>` values a tool takes from its site's saved login (localStorage items, cookie
 * values), or the failure when the tool needs a login and none is saved.
 */
export function loginScope(
  binding: LoginBinding | undefined,
  state: StorageState | null,
): { ok: true; scope: TemplateScope } | { ok: false; outcome: Outcome } {
  if (!binding || (!binding.cookies.length && !binding.values.length))
    return { ok: true, scope: {} }
  const missing: Outcome = {
    ok: false,
    code: 'session_or_permission',
    message: 'This tool needs a saved login for its site: sign in, then call again.',
    signIn: true,
  }
  if (!state) return { ok: false, outcome: missing }
  const scope: TemplateScope = {}
  for (const v of binding.values) {
    let raw: string | undefined
    if (v.from === 'cookie') raw = state.cookies.find((c) => c.name === v.key)?.value
    else if (v.key === '*') raw = anyToken(state, v.origin)
    else
      raw = state.origins
        .find((o) => o.origin === v.origin)
        ?.localStorage.find((item) => item.name === v.key)?.value
    const value =
      raw === undefined || v.key === '*'
        ? raw
        : v.compose
          ? composedValue(raw, v.compose)
          : v.path
            ? pathValue(raw, v.path)
            : raw
    if (value === undefined) return { ok: false, outcome: missing }
    scope[`login.${v.name}`] = value
  }
  return { ok: true, scope }
}

/**
 * A value built from stored JSON `raw` as `compose` says (toolSpec.ts `LoginCompose`): its
 * fields joined, base64 (RFC 4648 §4) of the UTF-8 text; undefined when a field is missing.
 */
function composedValue(raw: string, compose: LoginCompose): string | undefined {
  const parts = compose.paths.map((path) => pathValue(raw, path))
  if (parts.some((p) => p === undefined)) return undefined
  return Buffer.from(parts.join(compose.separator), 'utf8').toString('base64')
}

function pathValue(raw: string, path: string): string | undefined {
  try {
    return extractValue({ status: 200, headers: {}, body: raw }, { name: '', from: 'json', path })
  } catch {
    // A stored value that is not JSON or lacks the path: the login value is missing.
    return undefined
  }
}

/** Whether a tool's steps name a generated value, by tool object (parsed once per version). */
const generates = new WeakMap<ToolSpec, boolean>()

/**
 * The generated values a run of `tool` needs: `generatedScope()` when its steps name one
 * (`{{gen.*}}`), else none. Most tools name none, and drawing a UUID and a nonce for every
 * run was a measurable part of a small read (the bench's profile).
 */
export function generatedFor(tool: ToolSpec): TemplateScope {
  let uses = generates.get(tool)
  if (uses === undefined) {
    uses = JSON.stringify(tool.steps).includes('gen.')
    generates.set(tool, uses)
  }
  return uses ? generatedScope() : {}
}

/** Fresh per-run values (`{{gen.*}}`): a UUID v4, epoch ms and s, a 128-bit hex nonce. */
function generatedScope(now = Date.now()): TemplateScope {
  return {
    'gen.uuid': randomUUID(),
    'gen.now_ms': String(now),
    'gen.now_s': String(Math.floor(now / 1000)),
    'gen.nonce': randomBytes(16).toString('hex'),
  }
}

/**
 * A run's cookies: the `Cookie` header for a URL, and the `Set-Cookie` lines of an answer taken
 * in (RFC 6265 §5.3, §5.4).
 */
interface RunJar {
  header(url: string): Promise<string>
  take(lines: readonly string[] | undefined, url: string): Promise<void>
}

/**
 * The run's cookie jar, made only once there is a cookie to keep: most reads carry no saved
 * cookie and get none back, and asking an empty tough-cookie jar for a URL's cookies still costs
 * a URL parse and a store walk per request (the bench's profile).
 */
function runJar(state: StorageState | null): RunJar {
  let jar: Promise<CookieJar> | null = state?.cookies.length ? jarOf(state) : null
  return {
    header: async (url) => (jar ? (await jar).getCookieString(url) : ''),
    async take(lines, url) {
      if (!lines?.length) return
      jar ??= jarOf(null)
      const filled = await jar
      for (const line of lines) await filled.setCookie(line, url, { ignoreError: true })
    },
  }
}

/**
 * The `{{secret:NAME}}` and `{{totp:NAME}}` names of a request template, scanned once per
 * template: a tool's parsed spec is shared and never changed (toolRepository), so a run need
 * not walk and stringify its templates again.
 */
const scanned = new WeakMap<RequestTemplate, { secrets: string[]; seeds: string[] }>()
function placeholdersOf(template: RequestTemplate): {
  secrets: readonly string[]
  seeds: readonly string[]
} {
  let found = scanned.get(template)
  if (!found) {
    const seeds = totpSeedNames(template)
    found = { secrets: [...secretNames(template), ...seeds], seeds }
    scanned.set(template, found)
  }
  return found
}

/** A cookie jar holding the saved login's cookies (Playwright's storage-state shape). */
async function jarOf(state: StorageState | null): Promise<CookieJar> {
  const jar = new CookieJar(undefined, { allowSpecialUseDomain: true })
  for (const c of state?.cookies ?? []) {
    const cookie = new Cookie({
      key: c.name,
      value: c.value,
      domain: c.domain.replace(/^\./, ''),
      hostOnly: !c.domain.startsWith('.'),
      path: c.path || '/',
      secure: c.secure ?? false,
      httpOnly: c.httpOnly ?? false,
      expires: c.expires > 0 ? new Date(c.expires * 1000) : 'Infinity',
    })
    await jar.store.putCookie(cookie)
  }
  return jar
}

/**
 * Sends a request with the run's HTTP authentication: a Basic answer already accepted goes up
 * front; a 401 challenge the saved login can answer is told as an effect, then the request is
 * sent once more with its answer (a 401 refused the request, so a write did not land).
 */
async function sendAnswering(
  req: RenderedRequest,
  send: SendRequest,
  signal: AbortSignal,
  retry: boolean,
  auth: RunHttpAuth,
  onSent: RunContext['onSent'],
): Promise<SiteResponse> {
  const upFront = await auth.upFront(req.url)
  const first = await sendOnce(
    upFront ? { ...req, headers: { ...req.headers, authorization: upFront } } : req,
    send,
    signal,
    retry,
  )
  const answer = await auth.answer(req.method, req.url, first, upFront)
  if (!answer) return first
  onSent?.({ method: req.method, url: req.url, status: first.status })
  return sendOnce(
    { ...req, headers: { ...req.headers, authorization: answer } },
    send,
    signal,
    retry,
  )
}

async function sendOnce(
  req: RenderedRequest,
  send: SendRequest,
  signal: AbortSignal,
  retry: boolean,
): Promise<SiteResponse> {
  try {
    return await send(req, signal)
  } catch (error) {
    if (!retry || signal.aborted) throw error
    return send(req, signal)
  }
}

/** Why a URL may not be sent for a tool of `siteHost`, or null (docs/architecture.md "Rules that cut across" outbound checks). */
export function destinationDenied(url: string, siteHost: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `"${url}" is not a URL.`
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${parsed.protocol} is not allowed.`
  if (parsed.host !== siteHost) return `${parsed.host} is outside the tool's site ${siteHost}.`
  return null
}

function describe(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string }; message?: string }
  return [e.code, e.cause?.code, e.message].filter(Boolean).join(' ') || String(error)
}
