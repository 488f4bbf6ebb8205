import { createHash } from 'node:crypto'
import type { Body, Trace } from '../../../shared/trace'
import {
  openExchange,
  openStorageState,
  openUserinfo,
  sealExchange,
  sealStorageState,
  sealUserinfo,
  type CredentialSealer,
} from '../traceCredentials'
import { mapUrls, toExchange, type ExchangeRow, type TraceRepository } from '../traceRepository'
import type { SyncPg } from './pgSync'

/** Traces of a workspace holding a credential in the clear (as SQLite's PLAINTEXT_TRACES). */
const PLAINTEXT_TRACES = `
  SELECT id FROM traces WHERE tenant = $1 AND id IN (
  SELECT id FROM traces
    WHERE (storage_state IS NOT NULL AND storage_state NOT LIKE 'sitecall-%')
      OR (start_url LIKE '%://%@%' AND start_url NOT LIKE '%://sitecall-%@%')
  UNION SELECT e.trace_id FROM exchanges e, json_each_text(e.request_headers::json) h
    WHERE lower(h.key) IN ('cookie', 'authorization', 'proxy-authorization')
      AND h.value NOT LIKE 'sitecall-%'
  UNION SELECT e.trace_id FROM exchanges e, json_each_text(e.response_headers::json) h
    WHERE lower(h.key) = 'set-cookie' AND h.value NOT LIKE 'sitecall-%'
  UNION SELECT trace_id FROM exchanges
    WHERE (url LIKE '%://%@%' AND url NOT LIKE '%://sitecall-%@%')
      OR (page_url LIKE '%://%@%' AND page_url NOT LIKE '%://sitecall-%@%'))`

const EXCHANGE_SELECT = `SELECT e.*, rq.encoding AS req_encoding, rq.content AS req_content,
    rs.encoding AS res_encoding, rs.content AS res_content
  FROM exchanges e LEFT JOIN bodies rq ON rq.hash = e.request_body_hash
  LEFT JOIN bodies rs ON rs.hash = e.response_body_hash`

/**
 * A workspace's traces on PostgreSQL (the `TraceRepository` contract): a trace is saved whole in
 * one transaction, bodies deduplicated by hash and shared by every workspace.
 */
export function createPgTraceRepository(pg: SyncPg, workspace: string): TraceRepository {
  let sealerOf: () => CredentialSealer | null = () => null
  const save = (trace: Trace) => pg.transaction(() => saveTrace(pg, workspace, sealerOf(), trace))
  const plaintextIds = () =>
    pg.query<{ id: string }>(PLAINTEXT_TRACES, [workspace]).rows.map((r) => r.id)
  const repository: TraceRepository = {
    workspace,
    save,
    useSealer(sealer) {
      sealerOf = sealer
    },
    plaintextCount: () => plaintextIds().length,
    sealPlaintext() {
      if (!sealerOf()) return 0
      const ids = plaintextIds()
      for (const id of ids) {
        const trace = repository.get(id)
        if (trace) save(trace)
      }
      return ids.length
    },
    get: (id) => readTrace(pg, workspace, sealerOf(), id),
    getExchange(traceId, exchangeId) {
      const row = pg.one<ExchangeRow>(
        `${EXCHANGE_SELECT} WHERE e.trace_id = $1 AND e.id = $2
           AND e.trace_id IN (SELECT id FROM traces WHERE tenant = $3)`,
        [traceId, exchangeId, workspace],
      )
      return row ? openExchange(toExchange(row), sealerOf()) : null
    },
    list: () => listTraces(pg, workspace),
    delete: (id) => pg.transaction(() => deleteTrace(pg, workspace, id)),
  }
  return repository
}

/** Stores a body once by its SHA-256 (of encoding, NUL, text); null for no body. */
function storeBody(pg: SyncPg, body: Body | null): string | null {
  if (!body) return null
  const hash = createHash('sha256')
    .update(body.encoding)
    .update('\0')
    .update(body.text)
    .digest('hex')
  pg.query(
    'INSERT INTO bodies (hash, encoding, content) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [hash, body.encoding, body.text],
  )
  return hash
}

/** Writes a trace (replacing one of the same id in this workspace), sealed by `sealer`; in a transaction. */
function saveTrace(
  pg: SyncPg,
  workspace: string,
  sealer: CredentialSealer | null,
  trace: Trace,
): void {
  pg.query('DELETE FROM traces WHERE id = $1 AND tenant = $2', [trace.id, workspace])
  const inserted = pg.query(
    `INSERT INTO traces (id, tenant, intent, start_url, created_at, storage_state)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
    [
      trace.id,
      workspace,
      trace.intent,
      sealUserinfo(trace.startUrl, sealer),
      trace.createdAt,
      sealStorageState(trace.storageState, sealer),
    ],
  ).rowCount
  if (!inserted) throw new Error(`Trace ${trace.id} belongs to another workspace.`)
  for (const recorded of trace.exchanges) {
    const e = sealExchange(recorded, sealer)
    pg.query(
      `INSERT INTO exchanges (trace_id, id, seq, method, url, request_headers,
         request_body_hash, status, response_headers, response_body_hash, resource_type,
         started_at, duration_ms, page_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        trace.id,
        e.id,
        e.seq,
        e.method,
        e.url,
        JSON.stringify(e.requestHeaders),
        storeBody(pg, e.requestBody),
        e.status,
        JSON.stringify(e.responseHeaders),
        storeBody(pg, e.responseBody),
        e.resourceType,
        e.startedAt,
        e.durationMs,
        e.pageUrl,
      ],
    )
  }
  for (const a of trace.actions)
    pg.query('INSERT INTO actions (trace_id, seq, kind, at, data) VALUES ($1, $2, $3, $4, $5)', [
      trace.id,
      a.seq,
      a.kind,
      a.at,
      JSON.stringify(mapUrls(a, (u) => sealUserinfo(u, sealer))),
    ])
}

/** A trace of this workspace with its exchanges and actions, opened by `sealer`; null when none. */
function readTrace(
  pg: SyncPg,
  workspace: string,
  sealer: CredentialSealer | null,
  id: string,
): Trace | null {
  const row = pg.one<{
    id: string
    intent: string
    start_url: string
    created_at: number
    storage_state: string | null
  }>('SELECT * FROM traces WHERE id = $1 AND tenant = $2', [id, workspace])
  if (!row) return null
  const exchanges = pg
    .query<ExchangeRow>(`${EXCHANGE_SELECT} WHERE e.trace_id = $1 ORDER BY e.seq`, [id])
    .rows.map((r) => openExchange(toExchange(r), sealer))
  const actions = pg
    .query<{ data: string }>('SELECT data FROM actions WHERE trace_id = $1 ORDER BY seq', [id])
    .rows.map((r) =>
      mapUrls(JSON.parse(r.data) as Trace['actions'][number], (u) => openUserinfo(u, sealer)),
    )
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

/** The workspace's traces, newest first, with their exchange counts. */
function listTraces(pg: SyncPg, workspace: string): ReturnType<TraceRepository['list']> {
  return pg
    .query<{ id: string; intent: string; start_url: string; created_at: number; n: number }>(
      `SELECT t.id, t.intent, t.start_url, t.created_at,
       (SELECT COUNT(*) FROM exchanges e WHERE e.trace_id = t.id) AS n
     FROM traces t WHERE t.tenant = $1 ORDER BY t.created_at DESC`,
      [workspace],
    )
    .rows.map((r) => ({
      id: r.id,
      intent: r.intent,
      startUrl: r.start_url,
      createdAt: r.created_at,
      exchangeCount: r.n,
    }))
}

/** Deletes a trace of this workspace and the bodies no other exchange uses; in a transaction. */
function deleteTrace(pg: SyncPg, workspace: string, id: string): boolean {
  if (!pg.one('SELECT 1 AS x FROM traces WHERE id = $1 AND tenant = $2', [id, workspace]))
    return false
  const hashes = pg
    .query<{ h: string }>(
      `SELECT request_body_hash AS h FROM exchanges WHERE trace_id = $1
         AND request_body_hash IS NOT NULL
       UNION SELECT response_body_hash FROM exchanges
         WHERE trace_id = $1 AND response_body_hash IS NOT NULL`,
      [id],
    )
    .rows.map((r) => r.h)
  const deleted = pg.query('DELETE FROM traces WHERE id = $1', [id]).rowCount > 0
  for (const hash of hashes)
    pg.query(
      `DELETE FROM bodies WHERE hash = $1
         AND NOT EXISTS (SELECT 1 FROM exchanges WHERE request_body_hash = $1)
         AND NOT EXISTS (SELECT 1 FROM exchanges WHERE response_body_hash = $1)`,
      [hash],
    )
  return deleted
}
