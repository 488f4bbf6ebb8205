import { createHash } from 'node:crypto'
import type { Db } from './db'
import type { Action, Body, Exchange, Trace } from '../../shared/trace'
import {
  openExchange,
  openStorageState,
  openUserinfo,
  sealExchange,
  sealStorageState,
  sealUserinfo,
  type CredentialSealer,
} from './traceCredentials'

/** An exchange row with its bodies joined, as both stores read it. */
export interface ExchangeRow {
  id: string
  seq: number
  method: string
  url: string
  request_headers: string
  request_body_hash: string | null
  req_encoding: 'utf8' | 'base64' | null
  req_content: string | null
  status: number
  response_headers: string
  response_body_hash: string | null
  res_encoding: 'utf8' | 'base64' | null
  res_content: string | null
  resource_type: string
  started_at: number
  duration_ms: number
  page_url: string
}

interface TraceListItem {
  id: string
  intent: string
  startUrl: string
  createdAt: number
  exchangeCount: number
}

/**
 * One workspace's traces with their exchanges and actions; bodies deduplicated by SHA-256 of
 * their content (shared by every workspace: a body is reached only through an exchange). Every
 * query names the workspace: a trace of another workspace is not found, listed,
 * replaced or deleted through this repository.
 */
export interface TraceRepository {
  /** The workspace this repository reads and writes. */
  readonly workspace: string
  /**
   * Saves a whole trace in one transaction (replacing one of this workspace with the same id).
   * Throws when the id belongs to a trace of another workspace (nothing is written).
   */
  save(trace: Trace): void
  /** The whole trace, or null when there is none with that id. */
  get(id: string): Trace | null
  /** One exchange of a trace, or null. */
  getExchange(traceId: string, exchangeId: string): Exchange | null
  list(): TraceListItem[]
  /**
   * Deletes a trace with its exchanges and actions, and the bodies no other exchange uses, in one
   * transaction; false when there was none. Tools compiled from it keep working (they hold their
   * own requests); their evidence then names a trace that is gone.
   */
  delete(id: string): boolean
  /**
   * Where credentials are sealed: `sealer()` is asked at each save and read;
   * null (a locked vault, or never set) stores markers in their place and reads sealed values as
   * markers.
   */
  useSealer(sealer: () => CredentialSealer | null): void
  /**
   * Seals the credentials of traces written in the clear (by versions before sealing): each such
   * trace is read and saved again under the current sealer. Does nothing while no sealer is
   * available (a locked vault); returns how many traces were sealed.
   */
  sealPlaintext(): number
  /** How many traces hold a credential in the clear (see `sealPlaintext`). */
  plaintextCount(): number
}

/**
 * Traces holding a credential in the clear: a storage state, a credential header value or a
 * URL's userinfo that is neither sealed nor a marker (both start with `sitecall-`).
 */
const PLAINTEXT_TRACES = `
  SELECT id FROM traces WHERE tenant = @workspace AND id IN (
  SELECT id FROM traces
    WHERE (storage_state IS NOT NULL AND storage_state NOT LIKE 'sitecall-%')
      OR (start_url GLOB '*://*@*' AND start_url NOT GLOB '*://sitecall-*@*')
  UNION SELECT e.trace_id FROM exchanges e, json_each(e.request_headers) h
    WHERE lower(h.key) IN ('cookie', 'authorization', 'proxy-authorization')
      AND h.value NOT LIKE 'sitecall-%'
  UNION SELECT e.trace_id FROM exchanges e, json_each(e.response_headers) h
    WHERE lower(h.key) = 'set-cookie' AND h.value NOT LIKE 'sitecall-%'
  UNION SELECT trace_id FROM exchanges
    WHERE (url GLOB '*://*@*' AND url NOT GLOB '*://sitecall-*@*')
      OR (page_url GLOB '*://*@*' AND page_url NOT GLOB '*://sitecall-*@*'))`

/** Creates the repository of `workspace`'s traces over an open database. */
export function createTraceRepository(db: Db, workspace: string): TraceRepository {
  let sealerOf: () => CredentialSealer | null = () => null
  const putBody = db.prepare(
    'INSERT OR IGNORE INTO bodies (hash, encoding, content) VALUES (?, ?, ?)',
  )
  const putExchange = db.prepare(`INSERT INTO exchanges (trace_id, id, seq, method, url,
    request_headers, request_body_hash, status, response_headers, response_body_hash,
    resource_type, started_at, duration_ms, page_url) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
  const putAction = db.prepare(
    'INSERT INTO actions (trace_id, seq, kind, at, data) VALUES (?, ?, ?, ?, ?)',
  )

  const storeBody = (body: Body | null): string | null => {
    if (!body) return null
    const hash = createHash('sha256')
      .update(body.encoding)
      .update('\0')
      .update(body.text)
      .digest('hex')
    putBody.run(hash, body.encoding, body.text)
    return hash
  }

  const save = db.transaction((trace: Trace) => {
    const sealer = sealerOf()
    db.prepare('DELETE FROM traces WHERE id = ? AND tenant = ?').run(trace.id, workspace)
    // A trace of another workspace with this id is still there: the primary key refuses the insert.
    db.prepare(
      `INSERT INTO traces (id, tenant, intent, start_url, created_at, storage_state)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      trace.id,
      workspace,
      trace.intent,
      sealUserinfo(trace.startUrl, sealer),
      trace.createdAt,
      sealStorageState(trace.storageState, sealer),
    )
    for (const recorded of trace.exchanges) {
      const e = sealExchange(recorded, sealer)
      putExchange.run(
        trace.id,
        e.id,
        e.seq,
        e.method,
        e.url,
        JSON.stringify(e.requestHeaders),
        storeBody(e.requestBody),
        e.status,
        JSON.stringify(e.responseHeaders),
        storeBody(e.responseBody),
        e.resourceType,
        e.startedAt,
        e.durationMs,
        e.pageUrl,
      )
    }
    for (const a of trace.actions)
      putAction.run(
        trace.id,
        a.seq,
        a.kind,
        a.at,
        JSON.stringify(mapUrls(a, (u) => sealUserinfo(u, sealer))),
      )
  })

  return {
    workspace,
    save: (trace) => save(trace),
    useSealer(sealer) {
      sealerOf = sealer
    },
    plaintextCount() {
      return db.prepare(PLAINTEXT_TRACES).all({ workspace }).length
    },
    sealPlaintext() {
      if (!sealerOf()) return 0
      const ids = (db.prepare(PLAINTEXT_TRACES).all({ workspace }) as Array<{ id: string }>).map(
        (r) => r.id,
      )
      for (const id of ids) {
        const trace = this.get(id)
        if (trace) save(trace)
      }
      return ids.length
    },
    get: (id) => readTrace(db, workspace, sealerOf, id),
    getExchange(traceId, exchangeId) {
      const row = db
        .prepare(
          `${EXCHANGE_SELECT} WHERE e.trace_id = ? AND e.id = ?
             AND e.trace_id IN (SELECT id FROM traces WHERE tenant = ?)`,
        )
        .get(traceId, exchangeId, workspace) as ExchangeRow | undefined
      return row ? openExchange(toExchange(row), sealerOf()) : null
    },
    list: () => listTraces(db, workspace),
    delete: db.transaction((id: string): boolean => deleteTrace(db, workspace, id)),
  }
}

/** An exchange's row with both its bodies. */
const EXCHANGE_SELECT = `SELECT e.*, rq.encoding AS req_encoding, rq.content AS req_content,
      rs.encoding AS res_encoding, rs.content AS res_content
    FROM exchanges e LEFT JOIN bodies rq ON rq.hash = e.request_body_hash
    LEFT JOIN bodies rs ON rs.hash = e.response_body_hash`

/** `TraceRepository.get`: the workspace's trace, opened with the sealer `sealerOf` gives. */
function readTrace(
  db: Db,
  workspace: string,
  sealerOf: () => CredentialSealer | null,
  id: string,
): Trace | null {
  const row = db.prepare('SELECT * FROM traces WHERE id = ? AND tenant = ?').get(id, workspace) as
    | {
        id: string
        intent: string
        start_url: string
        created_at: number
        storage_state: string | null
      }
    | undefined
  if (!row) return null
  const sealer = sealerOf()
  const exchanges = (
    db.prepare(`${EXCHANGE_SELECT} WHERE e.trace_id = ? ORDER BY e.seq`).all(id) as ExchangeRow[]
  ).map((row) => openExchange(toExchange(row), sealer))
  const actions = (
    db.prepare('SELECT data FROM actions WHERE trace_id = ? ORDER BY seq').all(id) as Array<{
      data: string
    }>
  ).map((r) => mapUrls(JSON.parse(r.data) as Action, (u) => openUserinfo(u, sealer)))
  return {
    id: row.id,
    intent: row.intent,
    startUrl: openUserinfo(row.start_url, sealer),
    createdAt: row.created_at,
    exchanges,
    actions,
    storageState: openStorageState(row.storage_state, sealer),
  }
}

/** `TraceRepository.list`: the workspace's traces, newest first, with their exchange counts. */
function listTraces(db: Db, workspace: string): TraceListItem[] {
  return (
    db
      .prepare(
        `SELECT t.id, t.intent, t.start_url, t.created_at,
          (SELECT COUNT(*) FROM exchanges e WHERE e.trace_id = t.id) AS n
         FROM traces t WHERE t.tenant = ? ORDER BY t.created_at DESC`,
      )
      .all(workspace) as Array<{
      id: string
      intent: string
      start_url: string
      created_at: number
      n: number
    }>
  ).map((r) => ({
    id: r.id,
    intent: r.intent,
    startUrl: r.start_url,
    createdAt: r.created_at,
    exchangeCount: r.n,
  }))
}

/** `TraceRepository.delete` inside its transaction: the trace and the bodies no exchange keeps. */
function deleteTrace(db: Db, workspace: string, id: string): boolean {
  if (!db.prepare('SELECT 1 FROM traces WHERE id = ? AND tenant = ?').get(id, workspace))
    return false
  const hashes = (
    db
      .prepare(
        `SELECT request_body_hash AS h FROM exchanges WHERE trace_id = ? AND h IS NOT NULL
         UNION SELECT response_body_hash FROM exchanges
           WHERE trace_id = ? AND response_body_hash IS NOT NULL`,
      )
      .all(id, id) as Array<{ h: string }>
  ).map((r) => r.h)
  const deleted = db.prepare('DELETE FROM traces WHERE id = ?').run(id).changes > 0
  const unused = db.prepare(
    `DELETE FROM bodies WHERE hash = ?
       AND NOT EXISTS (SELECT 1 FROM exchanges WHERE request_body_hash = ?)
       AND NOT EXISTS (SELECT 1 FROM exchanges WHERE response_body_hash = ?)`,
  )
  for (const hash of hashes) unused.run(hash, hash, hash)
  return deleted
}

export function toExchange(r: ExchangeRow): Exchange {
  const body = (encoding: 'utf8' | 'base64' | null, text: string | null): Body | null =>
    encoding && text !== null ? { encoding, text } : null
  return {
    id: r.id,
    seq: r.seq,
    method: r.method,
    url: r.url,
    requestHeaders: JSON.parse(r.request_headers) as Record<string, string>,
    requestBody: body(r.req_encoding, r.req_content),
    status: r.status,
    responseHeaders: JSON.parse(r.response_headers) as Record<string, string>,
    responseBody: body(r.res_encoding, r.res_content),
    resourceType: r.resource_type,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    pageUrl: r.page_url,
  }
}

/** An action with `map` applied to its URLs (`pageUrl`, `url`, a navigate's `value`). */
export function mapUrls(action: Action, map: (url: string) => string): Action {
  const out = { ...action } as Action & { url?: unknown }
  if (typeof out.pageUrl === 'string') out.pageUrl = map(out.pageUrl)
  if (typeof out.url === 'string') out.url = map(out.url)
  if (out.kind === 'navigate' && typeof out.value === 'string') out.value = map(out.value)
  return out
}
