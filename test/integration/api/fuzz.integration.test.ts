import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { parseErrorEntry } from '../../../src/main/api/openapi/errorStatus'
import { REST_ERROR_CODES, RUN_FAILURE_CODES } from '../../../src/shared/errors'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { makeSearchTool } from '../../fixtures/harness/searchTool'

/** Requests the property sends (issue 5: at least 10,000) and the ceiling on its time. */
const RUNS = 10_000
const TIME_LIMIT_MS = 170_000
/** A request not answered in this long is a hang. */
const REQUEST_TIMEOUT_MS = 20_000
const DAY_MS = 86_400_000
/** fast-check's seed: printed with any failure so a run can be repeated with SITECALL_FUZZ_SEED. */
const SEED = Number(process.env.SITECALL_FUZZ_SEED ?? Date.now() % 2 ** 31)

/**
 * Codes a refusal may carry: the interface's tables, as `src/shared/errors.ts` holds them, without
 * the desktop app's own codes (not REST-visible in the interface's tables).
 */
const LOCAL_CODES = new Set(['chromium_not_found', 'recording_failed', 'compile_failed'])
const SPEC_CODES = new Set<string>(
  [...REST_ERROR_CODES, ...RUN_FAILURE_CODES].filter((c) => !LOCAL_CODES.has(c)),
)
/** RFC 6749 §5.2: the token endpoint answers these instead of docs/interface.md envelope. */
const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
])

type Schema = Record<string, unknown>
interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>
  'x-undocumented'?: boolean
}
interface Route {
  method: string
  /** OpenAPI path with `{param}`s. */
  path: string
  op: Operation
}
interface FuzzRequest {
  route: Route
  params: string[]
  query: Array<[string, string]>
  headers: Record<string, string>
  body: string | undefined
}
interface Failure {
  why: string
  route: string
  request: string
  status?: number
  answer?: string
}

let home: string
let core: Core
let site: DirectorySite
let base: string
let tool: ToolSpec
let traceId: string
let runId: string
let routes: Route[]
let keys: Record<'personal' | 'org' | 'revoked', string>

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-fuzz-'))
  site = await startDirectorySite()
  core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    // Off so the generated requests reach the routes instead of a 429 after the first 100.
    rateLimits: null,
    // No browser: indexing and recording fail fast instead of starting Chromium per request.
    env: { ...process.env, SITECALL_CHROMIUM: join(home, 'no-chromium'), SITECALL_KEYCHAIN: 'off' },
    // The sweeps write on their own clock (a waiting run past its deadline ends expired): one
    // that fell inside a refused request would read as that refusal's change.
    expirySweepMs: DAY_MS,
    recheckMs: DAY_MS,
  })
  base = await core.listen()
  ;({
    tool,
    trace: { id: traceId },
  } = await makeSearchTool(core, site))
  const key = (id: string, kind: 'personal' | 'org') =>
    core.store.keys.create({ id, tenant: LOCAL_TENANT, label: id, kind }, Date.now()).key
  keys = {
    personal: key('key_p', 'personal'),
    org: key('key_o', 'org'),
    revoked: key('key_r', 'personal'),
  }
  core.store.keys.revoke('key_r', Date.now())
  // One real run, so run routes have an id that exists.
  const answer = await fetch(`${base}/api/v1/sites/${tool.siteHost}/call/${tool.name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.personal}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'writing' }),
  })
  runId = ((await answer.json()) as { runId: string }).runId
  const doc = (await (
    await fetch(`${base}/openapi.json`, { headers: { authorization: `Bearer ${keys.personal}` } })
  ).json()) as {
    paths: Record<string, Record<string, Operation>>
  }
  routes = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
  watchChanges()
  // The instrument itself: a revocation is a change, marking a key used is not.
  const mark = changeCount()
  core.store.keys.touch('key_p', Date.now())
  expect(changesSince(mark)).toEqual([])
  core.store.keys.create({ id: 'key_x', tenant: LOCAL_TENANT, label: 'x' }, Date.now())
  core.store.keys.revoke('key_x', Date.now())
  expect(changesSince(mark)).toEqual(['insert api_keys', 'update api_keys'])
}, 60_000)

afterAll(async () => {
  await site?.close()
  await core?.close()
  if (home) rmSync(home, { recursive: true, force: true })
})

/**
 * What a refused request must leave alone, and why each exception is right:
 * - `api_keys.last_used_at`: the authenticator marks a known key used before a route refuses
 *   the request; when a key was last used is not data the request changed.
 * - updates of `index_jobs`: jobs that accepted requests started go on after their answer, so
 *   their progress may land during a later request; a refused request must still not add or
 *   remove a job (inserts and deletes count).
 */
const EXCEPTIONS = { api_keys: ['last_used_at'], index_jobs: null } as Record<
  string,
  string[] | null
>

/**
 * Counts every row written, in every table, with SQLite triggers into `fuzz_changes` (the
 * exceptions above aside): O(1) to read before and after each request, where hashing all rows
 * grows with the runs the accepted requests add.
 */
function watchChanges(): void {
  const db = core.store.db
  db.exec('CREATE TABLE fuzz_changes (id INTEGER PRIMARY KEY, what TEXT NOT NULL)')
  for (const table of tables().filter((t) => t !== 'fuzz_changes')) {
    const columns = tableColumns(table)
    const skipped = EXCEPTIONS[table]
    const log = (event: string) => `INSERT INTO fuzz_changes (what) VALUES ('${event} ${table}');`
    db.exec(
      `CREATE TRIGGER "fuzz_i_${table}" AFTER INSERT ON "${table}" BEGIN ${log('insert')} END`,
    )
    db.exec(
      `CREATE TRIGGER "fuzz_d_${table}" AFTER DELETE ON "${table}" BEGIN ${log('delete')} END`,
    )
    if (skipped === null) continue
    const watched = columns.filter((c) => !(skipped ?? []).includes(c)).map((c) => `"${c}"`)
    db.exec(
      `CREATE TRIGGER "fuzz_u_${table}" AFTER UPDATE OF ${watched.join(', ')} ON "${table}" BEGIN ${log('update')} END`,
    )
  }
}

const changeCount = () =>
  (
    core.store.db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM fuzz_changes').get() as {
      n: number
    }
  ).n
const changesSince = (n: number) =>
  (
    core.store.db.prepare('SELECT what FROM fuzz_changes WHERE id > ?').all(n) as Array<{
      what: string
    }>
  ).map((r) => r.what)

const tables = () =>
  (
    core.store.db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as Array<{ name: string }>
  ).map((t) => t.name)
const tableColumns = (table: string) =>
  (core.store.db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map(
    (c) => c.name,
  )

/**
 * A digest of every table's rows (the exceptions above left out, `fuzz_changes` too): the
 * triggers' cross-check, taken around one refused request in every `DIGEST_EVERY`.
 */
function digest(): string {
  const hash = createHash('sha256')
  for (const table of tables().filter((t) => t !== 'fuzz_changes')) {
    const skipped = EXCEPTIONS[table]
    const columns =
      skipped === null ? ['rowid'] : tableColumns(table).filter((c) => !(skipped ?? []).includes(c))
    hash.update(table)
    const sql = `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY rowid`
    for (const row of core.store.db.prepare(sql).raw().iterate())
      hash.update(
        JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
      )
  }
  return hash.digest('hex')
}
/** One request in this many is also checked by a full digest of the rows. */
const DIGEST_EVERY = 100

// ---- generators ---------------------------------------------------------------------------

/** Header-safe text (undici refuses control characters in header values). */
const headerText = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: max,
  })

const realValues = () => [
  tool.siteHost,
  tool.name,
  tool.id,
  traceId,
  'exc_1',
  runId,
  'writing',
  'image',
  site.url,
  `${site.url}/`,
  '127.0.0.1',
]

const text = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...realValues()) },
    { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', '\u0000', '../..', '%00', '{{secret:x}}', 'é✓😀'),
    },
  )

/** Values that fit `schema` most of the time, wrong types and extra fields some of the time. */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const garbage = fc.jsonValue({ maxDepth: 2 })
  if (!schema || depth > 4) return garbage
  if (Array.isArray(schema.anyOf))
    return fc.oneof(...(schema.anyOf as Schema[]).map((s) => fromSchema(s, depth + 1)))
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  let fit: fc.Arbitrary<unknown>
  switch (type) {
    case 'string':
      fit = fc.oneof(
        text(),
        fc.string({
          minLength: (schema.minLength as number) ?? 0,
          maxLength: Math.min((schema.maxLength as number) ?? 40, 60),
        }),
      )
      break
    case 'integer':
      fit = fc.integer({
        min: (schema.minimum as number) ?? -5,
        max: (schema.maximum as number) ?? 500,
      })
      break
    case 'number':
      fit = fc.double({ noNaN: true })
      break
    case 'boolean':
      fit = fc.boolean()
      break
    case 'array':
      fit = fc.array(fromSchema(schema.items as Schema, depth + 1), { maxLength: 3 })
      break
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, s]) => [k, fromSchema(s, depth + 1)])),
        { requiredKeys: ((schema.required as string[]) ?? []).filter((k) => k in props) },
      )
      fit = fc.oneof(
        { weight: 4, arbitrary: record },
        {
          weight: 1,
          arbitrary: fc
            .tuple(record, fc.string({ maxLength: 12 }), garbage)
            .map(([r, k, v]) => ({ ...(r as object), [k]: v })),
        },
      )
      break
    }
    default:
      fit = garbage
  }
  return fc.oneof({ weight: 6, arbitrary: fit }, { weight: 1, arbitrary: garbage })
}

/** The body schema the document gives a route; surface A's generic one with the tool's inputs. */
function bodySchema(route: Route): Schema | undefined {
  const content = route.op.requestBody?.content
  const schema = content && Object.values(content)[0]?.schema
  if (schema && '$ref' in schema && String(schema.$ref).endsWith('/CallBody'))
    return {
      type: 'object',
      properties: {
        ...tool.inputs.properties,
        select: { type: 'array', items: { type: 'string' } },
        deadlineMs: { type: 'integer', minimum: 5000, maximum: 20000 },
      },
    }
  return schema
}

const nested = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 3 }),
    fc.array(tie('node'), { maxLength: 3 }),
  ),
})).node

function body(route: Route): fc.Arbitrary<string | undefined> {
  const schema = bodySchema(route)
  return fc.oneof(
    { weight: 8, arbitrary: fromSchema(schema).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '[1,', '{"a":}', 'null', '""', '   ', '\ufeff{}'),
    },
    { weight: 1, arbitrary: nested.map((v) => JSON.stringify({ query: v, intent: v, value: v })) },
    {
      weight: 1,
      // Large but within the 5 MiB body limit: one field of up to 1 MB.
      arbitrary: fc
        .tuple(
          fc.constantFrom('query', 'intent', 'value', 'url', 'x'),
          fc.integer({ min: 1, max: 1_000_000 }),
        )
        .map(([k, n]) => JSON.stringify({ [k]: 'a'.repeat(n) })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

function headers(): fc.Arbitrary<Record<string, string>> {
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${keys.personal}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${core.ownerToken}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${keys.org}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${keys.revoked}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Bearer svc_live_notAKey',
        'Bearer svc_oat_notAToken',
        'Bearer ',
        'Basic dXNlcjpwdw==',
        'bearer',
      ),
    },
    { weight: 1, arbitrary: headerText(60).map((t) => `Bearer ${t}`) },
    { weight: 2, arbitrary: fc.constant('') },
  )
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'nonsense',
    '',
  )
  /** Absent `absent` times in `absent + 1`. */
  const optional = <T>(arb: fc.Arbitrary<T>, absent = 3) =>
    fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })
  return fc
    .record({
      authorization: auth,
      'content-type': contentType,
      'idempotency-key': optional(
        fc.oneof(headerText(10), headerText(140), headerText(260), fc.constant('op-key-0001')),
        1,
      ),
      'x-service-deadline-ms': optional(
        fc.oneof(fc.integer({ min: -1, max: 400_000 }).map(String), headerText(8)),
      ),
      'x-service-end-user': optional(fc.oneof(headerText(20), headerText(230))),
      'x-service-scope': optional(fc.oneof(headerText(12), fc.constant('no-such-scope')), 6),
      origin: optional(fc.constantFrom('https://evil.example', 'null', 'OWN'), 8),
      accept: optional(fc.constantFrom('text/html', 'application/json', '*/*')),
    })
    .map((h) => {
      const out: Record<string, string> = {}
      for (const [k, v] of Object.entries(h)) if (v !== undefined && v !== '') out[k] = v
      if (out.origin === 'OWN') out.origin = base
      return out
    })
}

const query = () =>
  fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'intent',
          'domain',
          'scope',
          'apps',
          'token',
          'select',
          'client_id',
          'redirect_uri',
        ),
        fc.string({ maxLength: 8 }),
      ),
      text(),
    ),
    { maxLength: 3 },
  )

/** A path parameter: real ids most of the time, else strings that must not break routing. */
// `.` and `..` are dot segments, which the client's URL parser removes (RFC 3986 §5.2.4): the
// request would then name another path, not the route's, and be judged against the wrong contract.
const param = () =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...realValues()) },
      { weight: 2, arbitrary: text() },
    )
    .filter((value) => value !== '.' && value !== '..')

function request(): fc.Arbitrary<FuzzRequest> {
  const fuzzed = routes.filter((r) => !r.path.startsWith('/mcp'))
  return fc.constantFrom(...fuzzed).chain((route) =>
    fc.record({
      route: fc.constant(route),
      params: fc.array(param(), {
        minLength: (route.path.match(/\{/g) ?? []).length,
        maxLength: (route.path.match(/\{/g) ?? []).length,
      }),
      query: query(),
      headers: headers(),
      body: body(route),
    }),
  )
}

// ---- sending and checking -----------------------------------------------------------------

function urlOf(req: FuzzRequest): string {
  let i = 0
  const path = req.route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(req.params[i++]!))
  const search = new URLSearchParams(req.query).toString()
  return `${base}${path}${search ? `?${search}` : ''}`
}

function describeRequest(req: FuzzRequest): string {
  const body =
    req.body && req.body.length > 300
      ? `${req.body.slice(0, 300)}… (${req.body.length} chars)`
      : req.body
  return JSON.stringify({ method: req.route.method, url: urlOf(req), headers: req.headers, body })
}

/** The codes the document lists for the route at this status, or null when it lists none. */
function documentedCodes(route: Route, status: number): Set<string> | null {
  const found = new Set<string>()
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    const code = (
      node as { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }
    ).properties?.error?.properties?.code?.enum
    code?.forEach((c) => found.add(c))
    for (const key of ['allOf', 'oneOf', 'anyOf'])
      for (const child of (node as Record<string, unknown[]>)[key] ?? []) walk(child)
  }
  walk(route.op.responses[String(status)]?.content?.['application/json']?.schema)
  return found.size ? found : null
}

let digestTurn = 0

/** Answers by status, for the summary the test prints (how deep the requests went). */
const answered = new Map<number, number>()

async function send(req: FuzzRequest, failures: Failure[]): Promise<void> {
  const { method } = req.route
  const withBody = req.body !== undefined && method !== 'GET' && method !== 'HEAD'
  const changesBefore = changeCount()
  const digestBefore = ++digestTurn % DIGEST_EVERY === 0 ? digest() : null
  let status: number
  let text: string
  let contentType: string
  try {
    const answer = await fetch(urlOf(req), {
      method,
      headers: req.headers,
      ...(withBody ? { body: req.body } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    status = answer.status
    contentType = answer.headers.get('content-type') ?? ''
    if (contentType.startsWith('text/event-stream')) {
      // The UI's event stream never ends by itself: its opening is the answer.
      await answer.body?.cancel()
      text = ''
    } else text = await answer.text()
  } catch (error) {
    failures.push({
      why: `no answer: ${(error as Error).message}`,
      route: req.route.path,
      request: describeRequest(req),
    })
    return
  }
  answered.set(status, (answered.get(status) ?? 0) + 1)
  const fail = (why: string) =>
    failures.push({
      why,
      route: req.route.path,
      request: describeRequest(req),
      status,
      answer: text.slice(0, 400),
    })
  if (status >= 500 && status !== 502 && status !== 503 && status !== 504)
    return void fail('server fault')
  if (/"code"\s*:\s*"internal"/.test(text)) return void fail('an internal answer')
  if (status < 400) return
  const demo = req.route.path.startsWith('/demo/')
  const changed = changesSince(changesBefore)
  if (changed.length) fail(`a refused request changed the database: ${changed.join(', ')}`)
  if (digestBefore !== null && digest() !== digestBefore)
    fail('a refused request changed the database (digest)')
  // The demo is a foreign-looking site (spec B rule 3): its refusals are the site's own shapes.
  if (demo) return
  // The consent page answers a browser (Accept: text/html) with a page.
  if (contentType.startsWith('text/html') && req.route.path === '/oauth/authorize') return
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return void fail('a refusal that is not JSON')
  }
  // The token endpoint's own errors are RFC 6749 §5.2's; the server's checks before it (Host,
  // Origin, JSON parsing) still answer docs/interface.md envelope.
  const oauthError = (parsed as { error?: unknown }).error
  if (req.route.path === '/oauth/token' && typeof oauthError === 'string') {
    const e = parsed as { error_description?: unknown }
    if (!OAUTH_CODES.has(oauthError) || typeof e.error_description !== 'string')
      fail('a token error outside RFC 6749 §5.2')
    return
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string')
    return void fail('a refusal without the {error:{code,message}} envelope')
  if (!SPEC_CODES.has(error.code))
    return void fail(`code ${error.code} is not in docs/interface.md tables`)
  let statusOk = true
  try {
    statusOk = parseErrorEntry(`${error.code}@${status}`).status === status
  } catch {
    statusOk = false
  }
  if (!statusOk) return void fail(`${error.code} answered with HTTP ${status}, not its spec status`)
  const listed = documentedCodes(req.route, status)
  if (!req.route.op['x-undocumented'] && !listed?.has(error.code))
    fail(`${error.code} at ${status} is not listed in the OpenAPI document for this route`)
}

describe('fuzzing every route', () => {
  it(
    `answers ${RUNS} generated requests without a fault, a hang, or a change by a refusal`,
    async () => {
      const failures: Failure[] = []
      let sent = 0
      const perRoute = new Map<string, number>()
      await fc.assert(
        fc.asyncProperty(request(), async (req) => {
          sent++
          const key = `${req.route.method} ${req.route.path}`
          perRoute.set(key, (perRoute.get(key) ?? 0) + 1)
          await send(req, failures)
          return true
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, endOnFailure: true, seed: SEED },
      )
      console.info(
        `Sent ${sent} requests over ${perRoute.size} routes; answers by status: ${JSON.stringify(Object.fromEntries([...answered].sort((a, b) => a[0] - b[0])))}`,
      )
      const distinct = new Map<string, Failure>()
      for (const f of failures) {
        const key = `${f.why} ${JSON.parse(f.request).method} ${f.route}`
        if (!distinct.has(key)) distinct.set(key, f)
      }
      expect(
        [...distinct.values()],
        `${failures.length} failures (SITECALL_FUZZ_SEED=${SEED})`,
      ).toEqual([])
      expect(sent).toBeGreaterThanOrEqual(RUNS)
      const untouched = routes
        .filter((r) => !r.path.startsWith('/mcp'))
        .map((r) => `${r.method} ${r.path}`)
        .filter((k) => !perRoute.has(k))
      expect(untouched).toEqual([])
    },
    TIME_LIMIT_MS + 60_000,
  )

  it('answers garbage sent to /mcp without a server fault', async () => {
    const tries: Array<[string, RequestInit]> = [
      ['/mcp', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }],
      [
        '/mcp',
        {
          method: 'POST',
          body: '{"jsonrpc":"2.0"}',
          headers: { authorization: `Bearer ${keys.personal}`, 'content-type': 'application/json' },
        },
      ],
      [
        '/mcp',
        {
          method: 'POST',
          body: '[1,2]',
          headers: { authorization: `Bearer ${keys.personal}`, 'content-type': 'application/json' },
        },
      ],
      ['/mcp', { method: 'GET', headers: { authorization: `Bearer ${keys.personal}` } }],
      [
        '/mcp',
        {
          method: 'DELETE',
          headers: { authorization: `Bearer ${keys.personal}`, 'mcp-session-id': 'nope' },
        },
      ],
      [
        '/mcp/%F0%9F%98%80?apps=',
        {
          method: 'POST',
          body: '{}',
          headers: { authorization: `Bearer ${keys.personal}`, 'content-type': 'application/json' },
        },
      ],
      [
        '/mcp?scope=../x',
        {
          method: 'GET',
          headers: { authorization: `Bearer ${keys.org}`, 'x-service-end-user': 'u' },
        },
      ],
    ]
    for (const [path, init] of tries) {
      const answer = await fetch(`${base}${path}`, {
        ...init,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      const text = await answer.text()
      expect(answer.status, `${init.method} ${path}: ${text}`).toBeLessThan(500)
      expect(answer.status, `${init.method} ${path}`).toBeGreaterThanOrEqual(400)
      expect(JSON.parse(text)).toEqual({
        error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
      })
    }
  })
})
