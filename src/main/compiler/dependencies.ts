import { relativeTimeName } from '../../shared/relativeTime'
import type {
  EvidenceSignal,
  Extractor,
  GeneratedValue,
  LoginBinding,
  LoginCompose,
  ToolStep,
} from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { findComposedSource } from './composedCredential'
import { httpAuthSchemeOf } from './httpAuth'
import { snake } from './naming'
import { isOperationValue, operationOf } from './operation'
import { pathSegments, requestValues } from './requestValues'
import { templateOf, withPathInputs, type ValueSite } from './stepTemplate'
import {
  findCreatorSource,
  findExchangeSource,
  findStorageSource,
  requestCookies,
  setCookies,
  type ExchangeSource,
} from './valueSources'
import { singular } from './valueSpelling'
import { clockInValue } from './observations'

/** The request parts of a tool that come from somewhere other than its inputs. */
export interface DependencyPlan {
  /** Dependency steps in the order they run, before the target. */
  steps: ToolStep[]
  /** Placeholder text for each traced value of the target request, by site. */
  bindings: Map<ValueSite, string>
  login: LoginBinding | undefined
  signals: EvidenceSignal[]
}

export interface DependencyOptions {
  /** Values the person typed: these are inputs, never traced. */
  typed: string[]
  /** Slot placeholder of each typed value (`{{input.p0}}`), for dependency requests. */
  slotOf: Map<string, string>
  /** Exchanges the caller names as dependencies (manual compile): always become steps. */
  forced?: string[]
  /** Path segments of the target that are input slots (`/search/{query}`): never traced. */
  pathSlots?: number[]
  /**
   * The target's path inputs by segment index (`/issues/{{input.p1}}`: 1 → `{{input.p1}}`): a
   * dependency request to the same collection with the same recorded segment (the edit page
   * `GET /issues/5` of `PATCH /issues/5`) takes the input, so the run reads the record it writes.
   */
  pathInputs?: Map<number, string>
  sameSite: (e: Exchange) => boolean
}

/** Chains deeper than this are cut: real sites need two or three hops (token ► page ► API). */
const MAX_DEPTH = 6
/** Shorter values are too likely to match by chance (`1`, `true`, `en`). */
const MIN_TRACED_LENGTH = 6
/** Headers the browser computes; anything else a page adds by script is traced. */
// A cache revalidation (`If-None-Match` with the ETag an earlier answer gave, RFC 9110 §13.1.2)
// would make a run's read answer 304 with no body: a replay never sends one (DROPPED_HEADERS).
const UNTRACED_HEADERS =
  /^(accept|accept-language|content-type|x-requested-with|dnt|sec-.*|:.*|cookie|host|origin|referer|user-agent|content-length|connection|accept-encoding|priority|pragma|cache-control|if-none-match|if-modified-since)$/i
/** An id handed out by the site: a segment with a digit (`acc_7Hq2Lm`, a UUID, `12345678`). */
const ID_SEGMENT = /^(?=.*\d)[A-Za-z0-9._~:-]+$/
const NONCE_KEY = /nonce|request[-_]?id|trace[-_]?id|correlation|idempotency|cache[-_]?buster|^_$/i
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const WEEK_MS = 7 * 24 * 3600 * 1000
/** How near the moment of sending a clock value is "now" rather than a time computed from it. */
const NOW_MS = 2 * 60 * 1000
/** Query keys pages use for a cache-buster (`_=1732…` of jQuery, `nocache`, `cb`). */
const CACHE_BUSTER = /^(_|_?(nocache|no_cache|cache|cachebust(er)?|cb|rnd|rand|random|t|ts))$/i

/**
 * Traces every value of the target request that is neither an input nor a constant to its source,
 * the ids in its URL path included (a segment of 6+ characters with a digit that is not an input
 * slot): an earlier answer (JSON leaf, header, Set-Cookie, `<meta>`, hidden `<input>`, inline
 * script) becomes a dependency step with an extractor, recursively, so a CSRF token is fetched
 * anew on every run; values kept in the browser's storage (a bearer token in localStorage) and the
 * session cookies are bound to the site's login; per-request values (UUIDs, timestamps, nonces)
 * are generated at run time. Everything else stays as recorded.
 */
export function planDependencies(
  trace: Trace,
  target: Exchange,
  options: DependencyOptions,
): DependencyPlan {
  const plan: Planning = {
    trace,
    target,
    options,
    typed: new Set(options.typed),
    steps: new Map(),
    stepBindings: new Map(),
    login: { cookies: [], values: [] },
    signals: [],
  }
  for (const id of options.forced ?? []) {
    const exchange = trace.exchanges.find((e) => e.id === id)
    if (exchange && exchange.seq < target.seq) {
      stepIdOf(plan, exchange)
      plan.stepBindings.set(exchange.id, traceRequest(plan, exchange, 1))
    }
  }
  const bindings = traceRequest(plan, target, 0)
  return finish(plan, bindings)
}

/** What planning has found so far: the steps with their extractors and bindings, the login. */
interface Planning {
  trace: Trace
  target: Exchange
  options: DependencyOptions
  typed: Set<string>
  /** By exchange id, in the order they were found. */
  steps: Map<string, { exchange: Exchange; extract: Extractor[] }>
  /** Each step's own traced values, by exchange id. */
  stepBindings: Map<string, Map<ValueSite, string>>
  login: LoginBinding
  signals: EvidenceSignal[]
}

/** One value of a request to trace, as {@link tracedValues} lists it. */
interface TracedValue {
  site: ValueSite
  key: string
  value: string
  /** A name the site made, not an id: looked up only as a created record's name in JSON. */
  loose?: boolean
}

/**
 * The placeholders of one request's traced values, by site; each source found becomes a step
 * traced in turn (up to {@link MAX_DEPTH}). The cookies the request sends that no step sets are
 * the login's.
 */
function traceRequest(plan: Planning, exchange: Exchange, depth: number): Map<ValueSite, string> {
  const bindings = new Map<ValueSite, string>()
  const skipPath = new Set(exchange === plan.target ? (plan.options.pathSlots ?? []) : [])
  const mounts = assetSegments(plan.trace)
  for (const traced of tracedValues(exchange)) {
    if (plan.typed.has(traced.value)) continue
    if (traced.site.startsWith('path:') && mounts.has(traced.value)) continue
    const isPath = traced.site.startsWith('path:')
    // An id in the path comes from an earlier answer, or it is a constant of the endpoint.
    if (isPath && skipPath.has(Number(traced.site.slice(5)))) continue
    const placeholder = isPath
      ? pathSource(plan, exchange, traced, depth)
      : valueSource(plan, exchange, traced, depth)
    if (placeholder) bindings.set(traced.site, placeholder)
  }
  for (const cookie of requestCookies(exchange))
    if (!setByStep(plan, cookie.name) && !plan.login.cookies.includes(cookie.name))
      plan.login.cookies.push(cookie.name)
  return bindings
}

/**
 * A path segment's source: an earlier answer (a loose name only from a created record's JSON),
 * never the login's and never generated (a UUID in a path names a resource); null keeps it.
 */
function pathSource(
  plan: Planning,
  exchange: Exchange,
  { site, key, value, loose }: TracedValue,
  depth: number,
): string | null {
  if (depth >= MAX_DEPTH) return null
  const earlier = earlierThan(plan, exchange)
  const source =
    (loose ? findCreatorSource(value, earlier, plan.options.sameSite) : null) ??
    findExchangeSource(value, earlier, plan.options.sameSite)
  if (!source || isLoginExchange(source.exchange)) return null
  if (loose && source.from !== 'json') return null
  return dependOn(plan, source, key, `path segment ${site.slice(5)} ("${value}")`, depth)
}

/** Any other value's source: a bearer token is traced without its `Bearer `, put back after. */
function valueSource(
  plan: Planning,
  exchange: Exchange,
  traced: TracedValue,
  depth: number,
): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(traced.value)
  const raw = bearer ? { ...traced, value: bearer[1]! } : traced
  const placeholder = sourceOf(plan, exchange, raw, !!bearer, depth)
  if (placeholder) return bearer ? `Bearer ${placeholder}` : placeholder
  return composedValue(plan, traced)
}

/**
 * A credential the page built from several stored fields (`composedCredential.ts`; failure kind
 * 5 of issue 24: a login seen is a login kept), rebuilt per run from the saved login; any scheme
 * word before it (`Session`, `Basic`) is kept. Null when it is not one.
 */
function composedValue(plan: Planning, { site, value }: TracedValue): string | null {
  const scheme = /^([A-Za-z][\w-]*)\s+(\S+)$/.exec(value)
  const found = findComposedSource(scheme ? scheme[2]! : value, plan.trace.storageState)
  if (!found) return null
  const { origin, key, ...compose } = found
  plan.signals.push(
    signal(
      'login_value',
      `${site} is built from localStorage "${key}": ${compose.paths.join(` "${compose.separator}" `)}, ${compose.encoding}`,
    ),
  )
  const placeholder = loginValue(plan, 'localStorage', origin, key, '', compose)
  return scheme ? `${scheme[1]} ${placeholder}` : placeholder
}

/**
 * The first that holds of: the login's localStorage, an earlier answer, the login's cookie, a
 * value made fresh per request, and for a bearer token with no known home the saved login's
 * token. Null keeps the recorded value.
 */
function sourceOf(
  plan: Planning,
  exchange: Exchange,
  { site, key, value }: TracedValue,
  bearer: boolean,
  depth: number,
): string | null {
  const stored = findStorageSource(value, plan.trace.storageState)
  if (stored?.from === 'localStorage') {
    plan.signals.push(signal('login_value', `${site} is kept in localStorage "${stored.key}"`))
    return loginValue(plan, 'localStorage', stored.origin, stored.key, stored.path)
  }
  const source =
    depth < MAX_DEPTH
      ? findExchangeSource(value, earlierThan(plan, exchange), plan.options.sameSite, (e) =>
          resourceAffinity(e, exchange),
        )
      : null
  if (source && !isLoginExchange(source.exchange)) return dependOn(plan, source, key, site, depth)
  // The sign-in answered with the page the person had asked for: signed in, that page gives it.
  const asked = source && pageBehindSignIn(source.exchange, earlierThan(plan, source.exchange))
  if (source && asked) {
    plan.signals.push(
      signal(
        'page_behind_sign_in',
        `${site} came in the sign-in's answer, the page ${asked.method} ${pathOf(asked.url)} asked for: read from that page, signed in`,
      ),
    )
    return dependOn(plan, { ...source, exchange: asked }, key, site, depth)
  }
  if (stored?.from === 'cookie') {
    plan.signals.push(signal('login_value', `${site} is the login's cookie "${stored.key}"`))
    return loginValue(plan, 'cookie', stored.origin, stored.key, '')
  }
  const generated = generatedKind(key, value, exchange.startedAt)
  if (generated) {
    plan.signals.push(signal('generated', `${site} is made fresh per request (${generated})`))
    return `{{gen.${generated}}}`
  }
  const clock = clockInValue(value, exchange.startedAt, CACHE_BUSTER.test(key) ? WEEK_MS : NOW_MS)
  if (clock) {
    plan.signals.push(signal('generated', `${site} carries the clock of the moment it was sent`))
    return `${clock.prefix}{{gen.now_ms}}${clock.suffix}`
  }
  // A bearer token with no known home (an imported HAR has no storage): it is the session's,
  // so the run takes the token the saved login keeps, wherever in its storage that is.
  if (bearer && site === 'header:authorization') {
    plan.signals.push(signal('login_value', `${site} is a bearer token: the saved login's token`))
    return loginValue(plan, 'localStorage', httpUrl(exchange.url)!.origin, ANY_TOKEN, '')
  }
  return null
}

/**
 * How much of `target`'s resource `source` names: the length of the leading words two requests
 * share in their path and operation (`/tryton/ method=model.party.party.read` and `…party.write`
 * share `/tryton/ method=model.party.party.`; a read of `/api/items/3` shares all of a write's
 * `/api/items/3`). A value several answers hold is read from the answer about what the request
 * acts on.
 */
function resourceAffinity(source: Exchange, target: Exchange): number {
  const a = resourceKey(source)
  const b = resourceKey(target)
  let common = 0
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++)
    if (/[/.=&\s]/.test(a[i]!)) common = i + 1
  return a === b ? a.length : common
}

/** Each exchange's path and operation, parsed once per trace (every traced value asks again). */
const resourceKeys = new WeakMap<Exchange, string>()

function resourceKey(exchange: Exchange): string {
  let key = resourceKeys.get(exchange)
  if (key === undefined) {
    key = `${httpUrl(exchange.url)?.pathname ?? ''} ${operationOf(exchange) ?? ''}`
    resourceKeys.set(exchange, key)
  }
  return key
}

/**
 * Makes `source`'s exchange a step (traced in turn, one level deeper) with an extractor for the
 * value, and returns the extractor's placeholder.
 */
function dependOn(
  plan: Planning,
  source: ExchangeSource,
  key: string,
  what: string,
  depth: number,
): string {
  const placeholder = extractorName(plan, stepIdOf(plan, source.exchange), source, key)
  plan.signals.push(
    signal(
      'dependency',
      `${what} comes from ${source.from} ${source.path} of ${source.exchange.method} ${pathOf(source.exchange.url)}`,
    ),
  )
  if (!plan.stepBindings.has(source.exchange.id))
    plan.stepBindings.set(source.exchange.id, traceRequest(plan, source.exchange, depth + 1))
  return placeholder
}

/** The plan in the order it runs: steps by their place in the trace, then the target's bindings. */
function finish(plan: Planning, bindings: Map<ValueSite, string>): DependencyPlan {
  const { login, target, options } = plan
  // Cookies a dependency step sets come from the run's own jar, not from the login.
  login.cookies = login.cookies.filter((name) => !setByStep(plan, name))
  const ordered = [...plan.steps.values()].sort((a, b) => a.exchange.seq - b.exchange.seq)
  const httpAuth = httpAuthSchemeOf(plan.trace, [target, ...ordered.map((s) => s.exchange)])
  if (httpAuth) login.httpAuth = { scheme: httpAuth }
  return {
    steps: ordered.map(({ exchange, extract }) => ({
      id: `d${exchange.seq}`,
      exchangeId: exchange.id,
      request: templateOf(
        exchange,
        withPathInputs(exchange, target, plan.stepBindings.get(exchange.id), options.pathInputs),
        options.slotOf,
      ),
      extract,
    })),
    bindings,
    login: login.cookies.length || login.values.length || login.httpAuth ? login : undefined,
    signals: plan.signals,
  }
}

function earlierThan(plan: Planning, exchange: Exchange): Exchange[] {
  return plan.trace.exchanges.filter((x) => x.seq < exchange.seq)
}

/** The step id of an exchange (`d<seq>`), making it a step on first use. */
function stepIdOf(plan: Planning, exchange: Exchange): string {
  if (!plan.steps.has(exchange.id)) plan.steps.set(exchange.id, { exchange, extract: [] })
  return `d${exchange.seq}`
}

/** The placeholder of a step's extractor for `source`, adding one (uniquely named) if new. */
function extractorName(
  plan: Planning,
  stepId: string,
  source: ExchangeSource,
  key: string,
): string {
  const step = plan.steps.get(source.exchange.id)!
  const same = step.extract.find(
    (x) => x.from === source.from && x.path === source.path && x.index === source.index,
  )
  if (same) return `{{step.${stepId}.${same.name}}}`
  // A literal's path is script text, no name: the request key names it.
  let name =
    (source.from === 'literal' ? '' : extractorBaseName(source.path)) || snake(key) || 'value'
  while (step.extract.some((x) => x.name === name)) name = `${name}_${step.extract.length}`
  step.extract.push({
    name,
    from: source.from,
    path: source.path,
    ...(source.index === undefined ? {} : { index: source.index }),
  })
  return `{{step.${stepId}.${name}}}`
}

/** The placeholder of a value the saved login keeps, adding it (uniquely named) if new. */
function loginValue(
  plan: Planning,
  from: 'localStorage' | 'cookie',
  origin: string,
  key: string,
  path: string,
  compose?: LoginCompose,
): string {
  const { login } = plan
  const same = JSON.stringify(compose ?? null)
  const existing = login.values.find(
    (v) =>
      v.from === from &&
      v.origin === origin &&
      v.key === key &&
      v.path === path &&
      JSON.stringify(v.compose ?? null) === same,
  )
  if (existing) return `{{login.${existing.name}}}`
  let name = snake(path.split('.').pop() || key) || 'token'
  while (login.values.some((v) => v.name === name)) name = `${name}_${login.values.length}`
  login.values.push({ name, from, origin, key, path, ...(compose ? { compose } : {}) })
  return `{{login.${name}}}`
}

/** Whether a step found so far sets the cookie (the run's jar then holds it). */
function setByStep(plan: Planning, name: string): boolean {
  return [...plan.steps.values()].some((s) => setCookies(s.exchange).some((c) => c.name === name))
}

/** How many distinct static assets must sit under a segment for it to be the app's mount. */
const MOUNT_ASSETS = 3
const ASSET_TYPES = new Set(['stylesheet', 'script', 'image', 'font'])
const ASSET_PATH = /\.(css|js|mjs|png|gif|jpe?g|svg|ico|woff2?|ttf)$/i
const mountMemo = new WeakMap<Trace, Set<string>>()

/**
 * Path segments under which the trace loaded at least {@link MOUNT_ASSETS} distinct static assets
 * (stylesheets, scripts, images, fonts): where the app is mounted (`/nagios4/…`, `/cgi-bin/nagios4/…`),
 * a constant of every route, never a record's id (a record's own image is one asset).
 */
function assetSegments(trace: Trace): Set<string> {
  const memo = mountMemo.get(trace)
  if (memo) return memo
  const paths = new Map<string, Set<string>>()
  for (const e of trace.exchanges) {
    const path = httpUrl(e.url)?.pathname ?? ''
    if (!ASSET_TYPES.has(e.resourceType ?? '') && !ASSET_PATH.test(path)) continue
    for (const segment of pathSegments(e.url).slice(0, -1)) {
      const seen = paths.get(segment) ?? new Set<string>()
      seen.add(path)
      paths.set(segment, seen)
    }
  }
  const out = new Set([...paths].filter(([, p]) => p.size >= MOUNT_ASSETS).map(([s]) => s))
  mountMemo.set(trace, out)
  return out
}

/** The values of a request worth tracing: id-like path segments, query, body, script-set headers. */
function tracedValues(exchange: Exchange): TracedValue[] {
  const out: TracedValue[] = []
  pathSegments(exchange.url).forEach((segment, index, all) => {
    if (segment.length >= MIN_TRACED_LENGTH && ID_SEGMENT.test(segment))
      out.push({ site: `path:${index}`, key: all[index - 1] ?? 'id', value: segment })
    // A name the site made ("Untitled Folder") is looked up too, but only in a JSON answer.
    else if (
      index === all.length - 1 &&
      index > 0 &&
      /\s|[A-Z]/.test(segment) &&
      segment.length >= 3
    )
      out.push({
        site: `path:${index}`,
        key: all[index - 1] ?? 'name',
        value: segment,
        loose: true,
      })
  })
  for (const v of requestValues(exchange)) {
    if (v.value === null || typeof v.value === 'boolean') continue
    // The operation an action API or a JSON-RPC call names is a constant of the tool: a list of
    // method names an earlier answer holds (`system.listMethods`) is no source of it.
    if (isOperationValue(v)) continue
    const value = String(v.value)
    // A plain word (`directory`, `delete`, `password`) is a constant of the route that an earlier
    // answer may hold by coincidence, never a token or an id to read fresh.
    if (value.length >= MIN_TRACED_LENGTH && !PLAIN_WORDS.test(value))
      out.push({ site: `${v.location}:${v.path}`, key: v.key, value })
  }
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (UNTRACED_HEADERS.test(name) || value.length < MIN_TRACED_LENGTH) continue
    out.push({ site: `header:${name.toLowerCase()}`, key: name, value })
  }
  return out
}

/**
 * The localStorage key of a login value that names no key: the engine takes the token the saved
 * login keeps under any key (a JWT, or an `access_token`/`token` field of a JSON item).
 */
const ANY_TOKEN = '*'

/** One to three words of letters: an enum or an operation name, not a value to trace. */
const PLAIN_WORDS = /^[A-Za-z]{1,24}([ _:-][A-Za-z]{1,24}){0,2}$/

/** A request that signs in (its body carries a password): its answers belong to the login. */
function isLoginExchange(exchange: Exchange): boolean {
  return requestValues(exchange).some((v) => /^(pass(word)?|passwd|pwd)$/i.test(v.key))
}

/** An HTML answer that asks for a password: a sign-in form. */
const PASSWORD_FIELD = /<input\b[^>]*\btype\s*=\s*["']?password\b/i

/**
 * The page a sign-in interposed itself before (ikiwiki's `do=edit` answering its sign-in form,
 * the sign-in's own answer then being the editor): the last GET of the sign-in's host before it
 * that answered 200 with a password field. Signed in, that page answers what the sign-in did.
 * Null when the person signed in of their own accord (no such page).
 */
function pageBehindSignIn(login: Exchange, earlier: readonly Exchange[]): Exchange | null {
  const host = httpUrl(login.url)?.host
  for (let i = earlier.length - 1; i >= 0; i--) {
    const e = earlier[i]!
    if (e.method !== 'GET' || httpUrl(e.url)?.host !== host || e.status !== 200) continue
    if (!PASSWORD_FIELD.test(e.responseBody?.text ?? '')) continue
    // The page must be more than the sign-in form: one of its own (a path or query) was asked.
    return httpUrl(e.url)?.search || httpUrl(e.url)?.pathname !== httpUrl(login.url)?.pathname
      ? e
      : null
  }
  return null
}

/**
 * Which fresh value replaces `value` on every run, or null when it is a constant: a UUID, a nonce,
 * the clock's now, or a time at a fixed distance from now (`time:<offsetMs>:<exemplar>`,
 * `../../shared/relativeTime.ts`).
 */
function generatedKind(
  key: string,
  value: string,
  sentAt: number,
): GeneratedValue | `time:${string}` | null {
  // A time the page took from its clock as it sent (a "sent at"), or a cache-buster however
  // long ago the page was loaded: now.
  const near = CACHE_BUSTER.test(key) ? WEEK_MS : NOW_MS
  if (/^\d{13}$/.test(value) && Math.abs(Number(value) - sentAt) < near) return 'now_ms'
  if (/^\d{10}$/.test(value) && Math.abs(Number(value) * 1000 - sentAt) < near) return 'now_s'
  // A time computed from that clock (a window ending in two hours, a due date tomorrow): the
  // same distance from the run's now (times relative to the recording).
  const relative = relativeTimeName(value, sentAt)
  if (relative) return relative.slice('gen.'.length) as `time:${string}`
  if (UUID.test(value)) return 'uuid'
  if (NONCE_KEY.test(key) && /^[A-Za-z0-9_-]{8,}$/.test(value)) return 'nonce'
  return null
}

/**
 * An extractor's name from its JSON path: the last key in snake case, and a bare `id` takes its
 * parent's singular noun (`workspaces[0].id` → `workspace_id`) so a chain's values read apart.
 */
function extractorBaseName(path: string): string {
  // The key of a map entry (`result.torrents["8af4…"]~`) is the id of a `torrent`.
  const keyOf = /(?:^|\.)([^.[\]]+)\[[^\]]*\]~$/.exec(path)
  if (keyOf) return `${singular(snake(keyOf[1]!))}_id`
  const parts = path.split('.').map((p) => snake(p.replace(/\[\d+\]/g, '')))
  const last = parts.pop() ?? ''
  const parent = parts.pop()
  return last === 'id' && parent ? `${singular(parent)}_id` : last
}

function signal(name: string, detail: string): EvidenceSignal {
  return { name, weight: 0, detail }
}

function pathOf(url: string): string {
  return httpUrl(url)?.pathname ?? url
}
