import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import { ServiceError } from '../../../shared/errors'
import { WORKER_SOURCE } from './pgWorkerSource'

/** What a statement gave back: its rows (columns by name) and how many rows it touched. */
interface PgResult<R = Record<string, unknown>> {
  rows: R[]
  rowCount: number
}

/**
 * One synchronous PostgreSQL connection: the store's repositories keep the synchronous shape the
 * whole core calls (see `pgStore.ts` for why), so each statement blocks this thread for one
 * network round trip. Statements are prepared once per SQL text and connection.
 */
export interface SyncPg {
  /**
   * Runs one statement with `$1…$n` parameters (null, strings, numbers, booleans, Buffers for
   * bytea). Throws `PgError` for a statement PostgreSQL refused (with its SQLSTATE), and 503
   * `unavailable` when the server cannot be reached (the next call connects again).
   */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): PgResult<R>
  /**
   * Runs SQL text without parameters and without preparing it (a migration's statements, `SET`,
   * DDL): several statements may be separated by `;`.
   */
  exec(sql: string): void
  /** The first row of `query`, or undefined. */
  one<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): R | undefined
  /**
   * Runs `fn` in a transaction (a savepoint when one is open already): committed when it returns,
   * rolled back when it throws. A transaction that fails to serialize (SQLSTATE 40001, 40P01) is
   * run again, up to 5 times, since `fn` only touches the database.
   */
  transaction<T>(fn: () => T): T
  readonly inTransaction: boolean
  /**
   * Queues a write whose answer the caller does not need, inside a transaction: it is sent with
   * the transaction's next statement or its COMMIT, in order, and a failure fails that statement
   * (so the transaction). Outside a transaction it runs at once, as `query`.
   */
  defer(sql: string, params?: readonly unknown[]): void
  /**
   * Queues a read to send with the next statement (one round trip for both). Its result is kept
   * until the same statement with the same parameters is asked for by `query`/`one`, which then
   * costs no round trip, or until the current task of the event loop ends (dropped unread). Only
   * for reads whose answer a moment earlier is as good as one now: nothing the caller writes in
   * between may change it. A prefetch that fails is forgotten (its reader reads again).
   */
  prefetch(sql: string, params?: readonly unknown[]): void
  /**
   * Drops every prefetched result and every prefetch not sent yet: a repository calls it before
   * a write that may change what was prefetched (a tool save moves the tools' revision), so the
   * caller's next read sees its own write.
   */
  forget(): void
  /**
   * Round trips to the server so far (the bench's "round trips per run"): a statement sent
   * alone is one, statements sent together (queued ones with the next) are one.
   */
  readonly roundTrips: number
  /** Statements sent to the server so far (each of a batch counts). */
  readonly statements: number
  /**
   * Calls `listener` with the SQL text of each statement this connection sends from now on
   * (`BEGIN`, `COMMIT` and savepoints included; parameters are never given, they may hold
   * secrets), until the returned function is called. For tests and the bench's statement list.
   */
  watch(listener: (sql: string) => void): () => void
  close(): void
}

/** A statement PostgreSQL refused. `code` is its SQLSTATE (23505 unique violation...). */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
    this.name = 'PgError'
  }
}

export interface SyncPgOptions {
  /** Longest a statement may run before PostgreSQL cancels it, ms: bounds a blocked thread. */
  statementTimeoutMs?: number
  /** Longest a statement waits for a row lock, ms. */
  lockTimeoutMs?: number
  /** Longest a connection attempt waits, seconds. */
  connectTimeoutS?: number
  /** Name shown in `pg_stat_activity`. */
  applicationName?: string
}

/** SQLSTATEs of a transaction PostgreSQL gave up on that may be run again as is. */
const RETRYABLE = new Set(['40001', '40P01'])

/** A parameter as it crosses to the helper thread (undefined is SQL NULL, as better-sqlite3). */
const toParam = (value: unknown): unknown => (value === undefined ? null : value)

interface Failure {
  message: string
  code: string
  lost: boolean
}

interface Answer {
  id: number
  roundTrips: number
  statements: number
  /** One per statement sent, in order: its result, or why it failed. */
  results?: Array<PgResult | { error: Failure }>
  error?: Failure
}

/** A statement waiting for the next round trip (see `SyncPg.defer` and `SyncPg.prefetch`). */
interface Queued {
  sql: string
  params: unknown[]
  /** Set for a prefetch: where its result is kept for the query that asks for it. */
  prefetch?: string
}

/** Longest a caller waits for one answer beyond the statement timeout, ms. */
const ANSWER_MARGIN_MS = 5_000

/** The key a prefetched result is kept under: the statement and its parameters. */
const prefetchKey = (sql: string, params: readonly unknown[]): string =>
  `${sql}\u0000${JSON.stringify(params)}`

/** One connection's helper thread and state: what the functions below share. */
interface PgConnection {
  worker: Worker
  /** The calling thread's end of the channel to the helper. */
  port: MessagePort
  /** Raised by the helper when it answered (`Atomics.wait` on it). */
  flag: Int32Array
  statementTimeoutMs: number
  connectTimeoutMs: number
  nextId: number
  roundTrips: number
  statements: number
  /** 0 outside a transaction, 1 in one, one more per open savepoint. */
  depth: number
  closed: boolean
  listeners: Set<(sql: string) => void>
  /** Statements to send with the next round trip. */
  queued: Queued[]
  /** Results of prefetched reads not asked for yet (kept until the current task ends). */
  prefetched: Map<string, PgResult>
  forgetScheduled: boolean
  /** Whether the open transaction's `BEGIN` went out already (else a rollback sends nothing). */
  begun: boolean
}

/**
 * Opens a synchronous connection to `url` (a `postgres://` URL): a helper thread holds a
 * node-postgres client (pipeline mode) and the calling thread blocks on a shared flag
 * (`Atomics.wait`) until the helper answers, so the caller's repositories stay synchronous. The
 * connection is opened now (throws 503 `unavailable` when it cannot be) and again after it is
 * lost.
 *
 * Statements whose answers nobody waits for ride with the next one that is waited for, in one
 * round trip (each is still its own statement, in order): a transaction's `BEGIN` and
 * savepoints, writes queued with `defer`, reads queued with `prefetch`. A transaction whose
 * function sent nothing costs no round trip.
 */
export function connectSyncPg(url: string, options: SyncPgOptions = {}): SyncPg {
  const conn = startHelper(url, options)
  // Connect now: a wrong URL or a database that is down fails the caller's start.
  try {
    simple(conn, 'SELECT 1')
  } catch (error) {
    closeConnection(conn)
    throw error
  }
  return {
    query: (sql, params) => query(conn, sql, params),
    exec: (sql) => simple(conn, sql),
    defer(sql, params) {
      if (conn.depth === 0) query(conn, sql, params)
      else queue(conn, sql, params)
    },
    forget: () => forgetPrefetched(conn),
    prefetch: (sql, params = []) => prefetch(conn, sql, params),
    one: (sql, params) => query(conn, sql, params).rows[0] as never,
    transaction: (fn) => runTransaction(conn, fn),
    get inTransaction() {
      return conn.depth > 0
    },
    get roundTrips() {
      return conn.roundTrips
    },
    get statements() {
      return conn.statements
    },
    watch(listener) {
      conn.listeners.add(listener)
      return () => void conn.listeners.delete(listener)
    },
    close: () => closeConnection(conn),
  }
}

/** Starts the helper thread of a connection to `url` (it connects on its first request). */
function startHelper(url: string, options: SyncPgOptions): PgConnection {
  const statementTimeoutMs = options.statementTimeoutMs ?? 15_000
  const connectTimeoutMs = (options.connectTimeoutS ?? 3) * 1000
  const flag = new Int32Array(new SharedArrayBuffer(4))
  const { port1, port2 } = new MessageChannel()
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('pg'),
      port: port2,
      flag,
      config: {
        connectionString: url,
        connectionTimeoutMillis: connectTimeoutMs,
        statement_timeout: statementTimeoutMs,
        lock_timeout: options.lockTimeoutMs ?? 10_000,
        idle_in_transaction_session_timeout: 60_000,
        application_name: options.applicationName ?? 'sitecall',
        options: '-c client_min_messages=warning',
      },
    },
    transferList: [port2],
  })
  worker.unref()
  port1.unref()
  return {
    worker,
    port: port1,
    flag,
    statementTimeoutMs,
    connectTimeoutMs,
    nextId: 0,
    roundTrips: 0,
    statements: 0,
    depth: 0,
    closed: false,
    listeners: new Set(),
    queued: [],
    prefetched: new Map(),
    forgetScheduled: false,
    begun: false,
  }
}

/** The 503 of a connection that cannot be reached; what it had queued or open is dropped. */
function unavailable(conn: PgConnection, detail: string): ServiceError {
  conn.depth = 0
  conn.queued = []
  conn.prefetched.clear()
  return new ServiceError(
    'unavailable',
    `The database is not reachable (${detail.trim()}): retry in a few seconds.`,
    { retryAfterSeconds: 2 },
  )
}

/** Tells the `watch` listeners of a statement sent. */
function told(conn: PgConnection, sql: string): void {
  for (const listener of conn.listeners) listener(sql)
}

/** Sends one request and blocks until its answer (answers of requests given up on are dropped). */
function call(
  conn: PgConnection,
  request: { op: 'batch' | 'exec' | 'close'; sql?: string; items?: Queued[] },
): Answer {
  if (conn.closed) throw new Error('The database connection is closed.')
  const id = ++conn.nextId
  Atomics.store(conn.flag, 0, 0)
  conn.port.postMessage({ id, ...request })
  const until = Date.now() + conn.statementTimeoutMs + conn.connectTimeoutMs + ANSWER_MARGIN_MS
  for (;;) {
    const received = receiveMessageOnPort(conn.port)
    if (received) {
      const message = received.message as Answer
      conn.roundTrips = message.roundTrips
      conn.statements = message.statements
      if (message.id === id) return message
      continue
    }
    const left = until - Date.now()
    if (left <= 0) throw unavailable(conn, 'no answer in time')
    Atomics.wait(conn.flag, 0, 0, left)
    Atomics.store(conn.flag, 0, 0)
  }
}

/** The error of a failed statement: 503 when the connection was lost, else a `PgError`. */
function refused(conn: PgConnection, error: Failure): Error {
  return error.lost
    ? unavailable(conn, error.message || 'connection lost')
    : new PgError(error.message, error.code)
}

/** Buffers cross threads as plain Uint8Arrays. */
function withBuffers(result: PgResult): PgResult {
  for (const row of result.rows)
    for (const [key, value] of Object.entries(row))
      if (value instanceof Uint8Array && !Buffer.isBuffer(value))
        row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return result
}

/**
 * Sends what is queued and `last` (when given) in one round trip; returns `last`'s result.
 * Throws the first failure among them in order (a prefetch's failure only when the
 * connection was lost: its reader then reads again).
 */
function flush(conn: PgConnection, last?: Queued): PgResult | undefined {
  const items = last ? [...conn.queued, last] : conn.queued
  conn.queued = []
  if (!items.length) return undefined
  if (conn.depth > 0) conn.begun = true
  const message = call(conn, { op: 'batch', items })
  if (message.error) throw refused(conn, message.error)
  const results = message.results!
  let first: Failure | undefined
  for (const [i, item] of items.entries()) {
    const result = results[i]!
    if ('error' in result) {
      if (!first && (!item.prefetch || result.error.lost)) first = result.error
    } else if (item.prefetch) conn.prefetched.set(item.prefetch, withBuffers(result))
  }
  if (first) throw refused(conn, first)
  const answer = results[items.length - 1]!
  return last && !('error' in answer) ? withBuffers(answer) : undefined
}

/** `SyncPg.query`: a prefetched result when one was kept, else one round trip. */
function query<R>(conn: PgConnection, sql: string, params: readonly unknown[] = []): PgResult<R> {
  const values = params.map(toParam)
  if (conn.prefetched.size || conn.queued.some((item) => item.prefetch)) {
    const key = prefetchKey(sql, values)
    // Prefetched but not sent yet: it goes out now with what is queued.
    if (conn.queued.some((item) => item.prefetch === key)) flush(conn)
    const kept = conn.prefetched.get(key)
    if (kept) {
      conn.prefetched.delete(key)
      return kept as PgResult<R>
    }
  }
  if (conn.closed) throw new Error('The database connection is closed.')
  told(conn, sql)
  return flush(conn, { sql, params: values }) as PgResult<R>
}

/** Queues a statement for the next round trip. */
function queue(conn: PgConnection, sql: string, params: readonly unknown[] = []): void {
  if (conn.closed) throw new Error('The database connection is closed.')
  told(conn, sql)
  conn.queued.push({ sql, params: params.map(toParam) })
}

/** `SyncPg.exec`: what is queued, then `sql` as simple (unprepared) SQL text. */
function simple(conn: PgConnection, sql: string): void {
  flush(conn)
  told(conn, sql)
  const message = call(conn, { op: 'exec', sql })
  if (message.error) throw refused(conn, message.error)
}

/** `SyncPg.transaction`: a savepoint inside an open transaction, else a retried transaction. */
function runTransaction<T>(conn: PgConnection, fn: () => T): T {
  if (conn.depth > 0) return inSavepoint(conn, fn)
  for (let attempt = 1; ; attempt++) {
    // Sent with the transaction's first statement.
    queue(conn, 'BEGIN')
    conn.depth = 1
    conn.begun = false
    try {
      const value = fn()
      if (conn.begun || conn.queued.length > 1) {
        // Answered or refused, a COMMIT ends the transaction (PostgreSQL rolls back one whose
        // statement failed, the COMMIT's own round trip included): no ROLLBACK follows it.
        conn.depth = 0
        query(conn, 'COMMIT')
      } else conn.queued = []
      conn.depth = 0
      return value
    } catch (error) {
      if (conn.depth > 0) {
        conn.depth = 0
        if (!conn.begun) conn.queued = []
        else
          try {
            query(conn, 'ROLLBACK')
          } catch {
            // The connection broke: the error below says so.
          }
      }
      const retry = error instanceof PgError && RETRYABLE.has(error.code) && attempt < 5
      if (!retry) throw error
    }
  }
}

/** Runs `fn` in a savepoint of the open transaction, rolled back to when `fn` throws. */
function inSavepoint<T>(conn: PgConnection, fn: () => T): T {
  const savepoint = `sp${conn.depth}`
  queue(conn, `SAVEPOINT ${savepoint}`)
  conn.depth++
  try {
    const value = fn()
    queue(conn, `RELEASE SAVEPOINT ${savepoint}`)
    return value
  } catch (error) {
    if (conn.depth > 0) queue(conn, `ROLLBACK TO SAVEPOINT ${savepoint}`)
    throw error
  } finally {
    if (conn.depth > 0) conn.depth--
  }
}

/** `SyncPg.close`: ends the helper's client and the thread; safe to call twice. */
function closeConnection(conn: PgConnection): void {
  if (conn.closed) return
  try {
    call(conn, { op: 'close' })
  } catch {
    // The helper is gone already.
  }
  conn.closed = true
  conn.port.close()
  void conn.worker.terminate()
}

/** `SyncPg.forget`: drops prefetched results and prefetches not sent yet. */
function forgetPrefetched(conn: PgConnection): void {
  conn.prefetched.clear()
  conn.queued = conn.queued.filter((item) => !item.prefetch)
}

/** `SyncPg.prefetch`: queues a read once per statement and parameters. */
function prefetch(conn: PgConnection, sql: string, params: readonly unknown[]): void {
  const values = params.map(toParam)
  const key = prefetchKey(sql, values)
  if (conn.prefetched.has(key) || conn.queued.some((item) => item.prefetch === key)) return
  if (conn.closed) return
  told(conn, sql)
  conn.queued.push({ sql, params: values, prefetch: key })
  forgetLater(conn)
}

/** Drops prefetched results nobody asked for once the current task ends. */
function forgetLater(conn: PgConnection): void {
  if (conn.forgetScheduled) return
  conn.forgetScheduled = true
  setImmediate(() => {
    conn.forgetScheduled = false
    forgetPrefetched(conn)
  })
}
