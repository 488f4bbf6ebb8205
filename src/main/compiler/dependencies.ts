import type {
  EvidenceSignal,
  Extractor,
  GeneratedValue,
  LoginBinding,
  RequestTemplate,
  ToolStep,
} from '../../shared/toolSpec'
import type { Exchange, Trace } from '../../shared/trace'
import { safeUrl } from './classify'
import { pathSegments, queryEntries, requestValues } from './requestValues'
import { singular } from './valueSpelling'
import { DROPPED_HEADERS } from './headers'
import { httpAuthSchemeOf } from './httpAuth'
import {
  findCreatorSource,
  findExchangeSource,
  findStorageSource,
  requestCookies,
  setCookies,
  type ExchangeSource,
} from './valueSources'
import { snake } from './naming'
import { safeJson } from '../../shared/safeJson'

/**
 * Where a traced value sits in a request: `query:<name>`, `body:<path>`, `header:<name>` or
 * `path:<index>` (index among the URL's non-empty path segments).
 */
export type ValueSite = string

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
const UNTRACED_HEADERS =
  /^(accept|accept-language|content-type|x-requested-with|dnt|sec-.*|:.*|cookie|host|origin|referer|user-agent|content-length|connection|accept-encoding|priority|pragma|cache-control)$/i
/** An id handed out by the site: a segment with a digit (`acc_7Hq2Lm`, a UUID, `12345678`). */
const ID_SEGMENT = /^(?=.*\d)[A-Za-z0-9._~:-]+$/
const NONCE_KEY = /nonce|request[-_]?id|trace[-_]?id|correlation|idempotency|cache[-_]?buster|^_$/i
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const WEEK_MS = 7 * 24 * 3600 * 1000

/**
 * Traces every value of the target request that is neither an input nor a constant to its source
 *, the ids in its URL path included (a segment of 6+ characters with a
 * digit that is not an input slot): an earlier answer (JSON leaf, header, Set-Cookie, `<meta>`, hidden
 * `<input>`, inline script) becomes a dependency step with an extractor, recursively, so a CSRF
 * token is fetched anew on every run; values kept in the browser's storage (a bearer token in
 * localStorage) and the session cookies are bound to the site's login; per-request values
 * (UUIDs, timestamps, nonces) are generated at run time. Everything else stays as recorded.
 */
export function planDependencies(
  trace: Trace,
  target: Exchange,
  options: DependencyOptions,
): DependencyPlan {
  const steps = new Map<string, { exchange: Exchange; extract: Extractor[] }>()
  const stepBindings = new Map<string, Map<ValueSite, string>>()
  const login: LoginBinding = { cookies: [], values: [] }
  const signals: EvidenceSignal[] = []
  const typed = new Set(options.typed)
  const earlierThan = (e: Exchange) => trace.exchanges.filter((x) => x.seq < e.seq)

  const stepIdOf = (exchange: Exchange): string => {
    if (!steps.has(exchange.id)) steps.set(exchange.id, { exchange, extract: [] })
    return `d${exchange.seq}`
  }
  const extractorName = (stepId: string, source: ExchangeSource, key: string): string => {
    const step = steps.get(source.exchange.id)!
    const same = step.extract.find((x) => x.from === source.from && x.path === source.path)
    if (same) return `{{step.${stepId}.${same.name}}}`
    // A literal's path is script text, no name: the request key names it.
    let name =
      (source.from === 'literal' ? '' : extractorBaseName(source.path)) || snake(key) || 'value'
    while (step.extract.some((x) => x.name === name)) name = `${name}_${step.extract.length}`
    step.extract.push({ name, from: source.from, path: source.path })
    return `{{step.${stepId}.${name}}}`
  }
  const loginValue = (
    from: 'localStorage' | 'cookie',
    origin: string,
    key: string,
    path: string,
  ) => {
    const existing = login.values.find(
      (v) => v.from === from && v.origin === origin && v.key === key && v.path === path,
    )
    if (existing) return `{{login.${existing.name}}}`
    let name = snake(path.split('.').pop() || key) || 'token'
    while (login.values.some((v) => v.name === name)) name = `${name}_${login.values.length}`
    login.values.push({ name, from, origin, key, path })
    return `{{login.${name}}}`
  }

  const trace1 = (exchange: Exchange, depth: number): Map<ValueSite, string> => {
    const bindings = new Map<ValueSite, string>()
    const skipPath = new Set(exchange === target ? (options.pathSlots ?? []) : [])
    for (const { site, key, value, loose } of tracedValues(exchange)) {
      if (typed.has(value)) continue
      if (site.startsWith('path:')) {
        // An id in the path comes from an earlier answer, or it is a constant of the endpoint:
        // never the login's, never generated (a UUID in a path names a resource).
        if (skipPath.has(Number(site.slice(5))) || depth >= MAX_DEPTH) continue
        const source =
          (loose ? findCreatorSource(value, earlierThan(exchange), options.sameSite) : null) ??
          findExchangeSource(value, earlierThan(exchange), options.sameSite)
        if (!source || isLoginExchange(source.exchange)) continue
        if (loose && source.from !== 'json') continue
        bindings.set(site, extractorName(stepIdOf(source.exchange), source, key))
        signals.push(
          signal(
            'dependency',
            `path segment ${site.slice(5)} ("${value}") comes from ${source.from} ${source.path} of ${source.exchange.method} ${pathOf(source.exchange.url)}`,
          ),
        )
        if (!stepBindings.has(source.exchange.id))
          stepBindings.set(source.exchange.id, trace1(source.exchange, depth + 1))
        continue
      }
      const bearer = /^Bearer\s+(\S+)$/i.exec(value)
      const raw = bearer ? bearer[1]! : value
      const wrap = (placeholder: string) => (bearer ? `Bearer ${placeholder}` : placeholder)
      const stored = findStorageSource(raw, trace.storageState)
      if (stored?.from === 'localStorage') {
        bindings.set(site, wrap(loginValue('localStorage', stored.origin, stored.key, stored.path)))
        signals.push(signal('login_value', `${site} is kept in localStorage "${stored.key}"`))
        continue
      }
      const source =
        depth < MAX_DEPTH ? findExchangeSource(raw, earlierThan(exchange), options.sameSite) : null
      if (source && !isLoginExchange(source.exchange)) {
        const stepId = stepIdOf(source.exchange)
        bindings.set(site, wrap(extractorName(stepId, source, key)))
        signals.push(
          signal(
            'dependency',
            `${site} comes from ${source.from} ${source.path} of ${source.exchange.method} ${pathOf(source.exchange.url)}`,
          ),
        )
        if (!stepBindings.has(source.exchange.id))
          stepBindings.set(source.exchange.id, trace1(source.exchange, depth + 1))
        continue
      }
      if (stored?.from === 'cookie') {
        bindings.set(site, wrap(loginValue('cookie', stored.origin, stored.key, '')))
        signals.push(signal('login_value', `${site} is the login's cookie "${stored.key}"`))
        continue
      }
      const generated = generatedKind(key, raw, exchange.startedAt)
      if (generated) {
        bindings.set(site, wrap(`{{gen.${generated}}}`))
        signals.push(signal('generated', `${site} is made fresh per request (${generated})`))
        continue
      }
      // A bearer token with no known home (an imported HAR has no storage): it is the session's,
      // so the run takes the token the saved login keeps, wherever in its storage that is.
      if (bearer && site === 'header:authorization') {
        const origin = safeUrl(exchange.url)!.origin
        bindings.set(site, wrap(loginValue('localStorage', origin, ANY_TOKEN, '')))
        signals.push(signal('login_value', `${site} is a bearer token: the saved login's token`))
      }
    }
    for (const cookie of requestCookies(exchange))
      if (!setByStep(cookie.name) && !login.cookies.includes(cookie.name))
        login.cookies.push(cookie.name)
    return bindings
  }
  const setByStep = (name: string) =>
    [...steps.values()].some((s) => setCookies(s.exchange).some((c) => c.name === name))

  for (const id of options.forced ?? []) {
    const exchange = trace.exchanges.find((e) => e.id === id)
    if (exchange && exchange.seq < target.seq) {
      stepIdOf(exchange)
      stepBindings.set(exchange.id, trace1(exchange, 1))
    }
  }
  const bindings = trace1(target, 0)
  // Cookies a dependency step sets come from the run's own jar, not from the login.
  login.cookies = login.cookies.filter((name) => !setByStep(name))
  const ordered = [...steps.values()].sort((a, b) => a.exchange.seq - b.exchange.seq)
  const httpAuth = httpAuthSchemeOf(trace, [target, ...ordered.map((s) => s.exchange)])
  if (httpAuth) login.httpAuth = { scheme: httpAuth }
  return {
    steps: ordered.map(({ exchange, extract }) => ({
      id: `d${exchange.seq}`,
      exchangeId: exchange.id,
      request: templateOf(
        exchange,
        withPathInputs(exchange, target, stepBindings.get(exchange.id), options.pathInputs),
        options.slotOf,
      ),
      extract,
    })),
    bindings,
    login: login.cookies.length || login.values.length || login.httpAuth ? login : undefined,
    signals,
  }
}

/** The values of a request worth tracing: id-like path segments, query, body, script-set headers. */
function tracedValues(
  exchange: Exchange,
): Array<{ site: ValueSite; key: string; value: string; loose?: boolean }> {
  const out: Array<{ site: ValueSite; key: string; value: string; loose?: boolean }> = []
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
export const ANY_TOKEN = '*'

/** One to three words of letters: an enum or an operation name, not a value to trace. */
const PLAIN_WORDS = /^[A-Za-z]{1,24}([ _:-][A-Za-z]{1,24}){0,2}$/

/** A request that signs in (its body carries a password): its answers belong to the login. */
function isLoginExchange(exchange: Exchange): boolean {
  return requestValues(exchange).some((v) => /^(pass(word)?|passwd|pwd)$/i.test(v.key))
}

/** Which fresh value replaces `value` on every run, or null when it is a constant. */
export function generatedKind(key: string, value: string, sentAt: number): GeneratedValue | null {
  if (/^\d{13}$/.test(value) && Math.abs(Number(value) - sentAt) < WEEK_MS) return 'now_ms'
  if (/^\d{10}$/.test(value) && Math.abs(Number(value) * 1000 - sentAt) < WEEK_MS) return 'now_s'
  if (UUID.test(value)) return 'uuid'
  if (NONCE_KEY.test(key) && /^[A-Za-z0-9_-]{8,}$/.test(value)) return 'nonce'
  return null
}

/**
 * A dependency step's bindings with the target's path inputs added where its path names the same
 * record: the same segments as the target's up to the slot, and the same recorded value there.
 */
function withPathInputs(
  exchange: Exchange,
  target: Exchange,
  bindings: Map<ValueSite, string> | undefined,
  pathInputs: Map<number, string> | undefined,
): Map<ValueSite, string> {
  const out = new Map(bindings ?? [])
  if (!pathInputs?.size) return out
  const own = pathSegments(exchange.url)
  const targets = pathSegments(target.url)
  for (const [index, placeholder] of pathInputs) {
    const site: ValueSite = `path:${index}`
    if (out.has(site) || own[index] === undefined || own[index] !== targets[index]) continue
    if (own.slice(0, index).every((segment, i) => segment === targets[i]))
      out.set(site, placeholder)
  }
  return out
}

/** A dependency step's request: the observed one with its own traced values and inputs placed. */
function templateOf(
  exchange: Exchange,
  bindings: Map<ValueSite, string>,
  slotOf: Map<string, string>,
): RequestTemplate {
  const place = (site: ValueSite, value: string): string =>
    bindings.get(site) ?? slotOf.get(value) ?? value
  const url = safeUrl(exchange.url)!
  const params: string[] = []
  const pathname = placePath(url.pathname, bindings)
  // Each occurrence of a repeated key (`ids[]=a&ids[]=b`) is its own site (`query:ids[]#2`).
  for (const { key, value, path } of queryEntries(exchange.url)) {
    const placed = place(`query:${path}`, value)
    params.push(
      `${encodeURIComponent(key)}=${placed === value ? encodeURIComponent(value) : placed}`,
    )
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    const lower = name.toLowerCase()
    const bound = bindings.get(`header:${lower}`)
    if (bound) headers[lower] = bound
    else if (!DROPPED_HEADERS.test(name)) headers[lower] = value
  }
  let body: RequestTemplate['body'] = null
  const text = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : null
  if (text !== null) {
    const values = requestValues(exchange).filter((v) => v.location === 'body')
    const json = values.length && !values[0]!.form ? safeJson(text) : undefined
    if (json !== undefined)
      body = { kind: 'json', template: placeJson(json, '', (path, v) => place(`body:${path}`, v)) }
    else if (values.length && values[0]!.form)
      body = {
        kind: 'form',
        template: Object.fromEntries(
          values.map((v) => [v.path, place(`body:${v.path}`, String(v.value))]),
        ),
      }
    else body = { kind: 'text', template: text }
  }
  return {
    method: exchange.method,
    url: `${url.origin}${pathname}${params.length ? `?${params.join('&')}` : ''}`,
    headers,
    body,
  }
}

/**
 * A URL path (as written, percent-encoded) with each bound segment (`path:<index>`, counting
 * non-empty segments) replaced by its placeholder; the renderer percent-encodes what it puts there.
 */
export function placePath(pathname: string, bindings: Map<ValueSite, string>): string {
  let index = -1
  return pathname
    .split('/')
    .map((segment) => (segment ? (bindings.get(`path:${++index}`) ?? segment) : segment))
    .join('/')
}

function placeJson(
  value: unknown,
  path: string,
  place: (path: string, value: string) => string,
): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const placed = place(path, String(value))
    return placed === String(value) ? value : placed
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, placeJson(v, path ? `${path}.${k}` : k, place)]),
  )
}

/**
 * An extractor's name from its JSON path: the last key in snake case, and a bare `id` takes its
 * parent's singular noun (`workspaces[0].id` → `workspace_id`) so a chain's values read apart.
 */
function extractorBaseName(path: string): string {
  const parts = path.split('.').map((p) => snake(p.replace(/\[\d+\]/g, '')))
  const last = parts.pop() ?? ''
  const parent = parts.pop()
  return last === 'id' && parent ? `${singular(parent)}_id` : last
}

function signal(name: string, detail: string): EvidenceSignal {
  return { name, weight: 0, detail }
}

function pathOf(url: string): string {
  return safeUrl(url)?.pathname ?? url
}
