import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { ServiceError } from '../../../shared/errors'

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

/**
 * The thread that holds the connection: plain CommonJS run with `eval` (as `walCheckpoints.ts`),
 * so neither a bundler nor vitest has to know of a second entry file. It answers each request on
 * its port, then raises the shared flag the caller waits on. `pg` (node-postgres, pure
 * JavaScript) parses columns: int8 and numeric as numbers (milliseconds and counts, within 2^53),
 * bytea as Buffers.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads')
const pg = require(workerData.driver)
const { port, flag, config } = workerData
const asNumber = (text) => Number(text)
const types = {
  getTypeParser: (oid, format) =>
    oid === 20 || oid === 1700 ? asNumber : pg.types.getTypeParser(oid, format),
}
let client = null
let connecting = null
let names = new Map()
let roundTrips = 0
let statements = 0
const drop = () => {
  const old = client
  client = null
  connecting = null
  names = new Map()
  if (old) old.end().catch(() => undefined)
}
const connection = () => {
  if (client) return Promise.resolve(client)
  if (!connecting) {
    const next = new pg.Client({ ...config, types, pipeline: true })
    next.on('error', () => { if (client === next) drop() })
    roundTrips++
    connecting = next.connect().then(() => { client = next; connecting = null; return next },
      (error) => { connecting = null; next.end().catch(() => undefined); throw error })
  }
  return connecting
}
const answer = (id, body) => {
  port.postMessage({ id, ...body, roundTrips, statements })
  Atomics.store(flag, 0, 1)
  Atomics.notify(flag, 0)
}
const toParam = (value) => value instanceof Uint8Array && !Buffer.isBuffer(value)
  ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value
const failure = (error) => {
  const code = error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code)
    ? error.code : ''
  // No SQLSTATE (a socket error, a connection ended), class 08 or a shutdown: the server went
  // away; the next request connects again.
  const lost = !code || code.startsWith('08') || /^57P0[1-3]$/.test(code)
  return { message: String((error && error.message) || error), code, lost }
}
port.on('message', async (message) => {
  const { id, op, sql, items } = message
  if (op === 'close') { drop(); answer(id, {}); port.close(); return }
  try {
    const conn = await connection()
    if (op === 'exec') {
      roundTrips++
      statements++
      await conn.query(sql)
      answer(id, { results: [{ rows: [], rowCount: 0 }] })
      return
    }
    // Every statement of the batch is written before any answer is read (pipeline mode, each
    // with its own Sync): one round trip for all of them, each still its own statement.
    roundTrips++
    statements += items.length
    const sent = items.map((item) => {
      let name = names.get(item.sql)
      if (name === undefined) { name = 's' + (names.size + 1); names.set(item.sql, name) }
      return conn.query({ name, text: item.sql, values: item.params.map(toParam) })
    })
    const settled = await Promise.allSettled(sent)
    const results = settled.map((s) => s.status === 'fulfilled'
      ? { rows: s.value.rows, rowCount: s.value.rowCount ?? s.value.rows.length }
      : { error: failure(s.reason) })
    if (results.some((r) => r.error && r.error.lost)) drop()
    answer(id, { results })
  } catch (error) {
    const described = failure(error)
    if (described.lost) drop()
    answer(id, { error: described })
  }
})
`

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
  let nextId = 0
  let roundTrips = 0
  let statements = 0
  let depth = 0
  let closed = false
  const listeners = new Set<(sql: string) => void>()
  /** Statements to send with the next round trip. */
  let queued: Queued[] = []
  /** Results of prefetched reads not asked for yet (kept until the current task ends). */
  const prefetched = new Map<string, PgResult>()
  let forgetScheduled = false
  /** Whether the open transaction's `BEGIN` went out already (else a rollback sends nothing). */
  let begun = false

  const unavailable = (detail: string) => {
    depth = 0
    queued = []
    prefetched.clear()
    return new ServiceError(
      'unavailable',
      `The database is not reachable (${detail.trim()}): retry in a few seconds.`,
      { retryAfterSeconds: 2 },
    )
  }
  const told = (sql: string) => {
    for (const listener of listeners) listener(sql)
  }
  /** Sends one request and blocks until its answer (answers of requests given up on are dropped). */
  const call = (request: { op: 'batch' | 'exec' | 'close'; sql?: string; items?: Queued[] }) => {
    if (closed) throw new Error('The database connection is closed.')
    const id = ++nextId
    Atomics.store(flag, 0, 0)
    port1.postMessage({ id, ...request })
    const until = Date.now() + statementTimeoutMs + connectTimeoutMs + ANSWER_MARGIN_MS
    for (;;) {
      const received = receiveMessageOnPort(port1)
      if (received) {
        const message = received.message as Answer
        roundTrips = message.roundTrips
        statements = message.statements
        if (message.id === id) return message
        continue
      }
      const left = until - Date.now()
      if (left <= 0) throw unavailable('no answer in time')
      Atomics.wait(flag, 0, 0, left)
      Atomics.store(flag, 0, 0)
    }
  }
  const refused = (error: Failure) =>
    error.lost
      ? unavailable(error.message || 'connection lost')
      : new PgError(error.message, error.code)
  /** Buffers cross threads as plain Uint8Arrays. */
  const withBuffers = (result: PgResult): PgResult => {
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
  const flush = (last?: Queued): PgResult | undefined => {
    const items = last ? [...queued, last] : queued
    queued = []
    if (!items.length) return undefined
    if (depth > 0) begun = true
    const message = call({ op: 'batch', items })
    if (message.error) throw refused(message.error)
    const results = message.results!
    let first: Failure | undefined
    for (const [i, item] of items.entries()) {
      const result = results[i]!
      if ('error' in result) {
        if (!first && (!item.prefetch || result.error.lost)) first = result.error
      } else if (item.prefetch) prefetched.set(item.prefetch, withBuffers(result))
    }
    if (first) throw refused(first)
    const answer = results[items.length - 1]!
    return last && !('error' in answer) ? withBuffers(answer) : undefined
  }
  const query = <R>(sql: string, params: readonly unknown[] = []): PgResult<R> => {
    const values = params.map(toParam)
    if (prefetched.size || queued.some((item) => item.prefetch)) {
      const key = prefetchKey(sql, values)
      // Prefetched but not sent yet: it goes out now with what is queued.
      if (queued.some((item) => item.prefetch === key)) flush()
      const kept = prefetched.get(key)
      if (kept) {
        prefetched.delete(key)
        return kept as PgResult<R>
      }
    }
    if (closed) throw new Error('The database connection is closed.')
    told(sql)
    return flush({ sql, params: values }) as PgResult<R>
  }
  const queue = (sql: string, params: readonly unknown[] = []) => {
    if (closed) throw new Error('The database connection is closed.')
    told(sql)
    queued.push({ sql, params: params.map(toParam) })
  }
  const simple = (sql: string) => {
    flush()
    told(sql)
    const message = call({ op: 'exec', sql })
    if (message.error) throw refused(message.error)
  }

  const transaction = <T>(fn: () => T): T => {
    if (depth > 0) {
      const savepoint = `sp${depth}`
      queue(`SAVEPOINT ${savepoint}`)
      depth++
      try {
        const value = fn()
        queue(`RELEASE SAVEPOINT ${savepoint}`)
        return value
      } catch (error) {
        if (depth > 0) queue(`ROLLBACK TO SAVEPOINT ${savepoint}`)
        throw error
      } finally {
        if (depth > 0) depth--
      }
    }
    for (let attempt = 1; ; attempt++) {
      // Sent with the transaction's first statement.
      queue('BEGIN')
      depth = 1
      begun = false
      try {
        const value = fn()
        if (begun || queued.length > 1) {
          // Answered or refused, a COMMIT ends the transaction (PostgreSQL rolls back one whose
          // statement failed, the COMMIT's own round trip included): no ROLLBACK follows it.
          depth = 0
          query('COMMIT')
        } else queued = []
        depth = 0
        return value
      } catch (error) {
        if (depth > 0) {
          depth = 0
          if (!begun) queued = []
          else
            try {
              query('ROLLBACK')
            } catch {
              // The connection broke: the error below says so.
            }
        }
        const retry = error instanceof PgError && RETRYABLE.has(error.code) && attempt < 5
        if (!retry) throw error
      }
    }
  }

  // Connect now: a wrong URL or a database that is down fails the caller's start.
  try {
    simple('SELECT 1')
  } catch (error) {
    close()
    throw error
  }
  function close() {
    if (closed) return
    try {
      call({ op: 'close' })
    } catch {
      // The helper is gone already.
    }
    closed = true
    port1.close()
    void worker.terminate()
  }
  /** Drops prefetched results nobody asked for once the current task ends. */
  const forgetLater = () => {
    if (forgetScheduled) return
    forgetScheduled = true
    setImmediate(() => {
      forgetScheduled = false
      prefetched.clear()
      queued = queued.filter((item) => !item.prefetch)
    })
  }
  return {
    query,
    exec: simple,
    defer(sql, params) {
      if (depth === 0) query(sql, params)
      else queue(sql, params)
    },
    forget() {
      prefetched.clear()
      queued = queued.filter((item) => !item.prefetch)
    },
    prefetch(sql, params = []) {
      const values = params.map(toParam)
      const key = prefetchKey(sql, values)
      if (prefetched.has(key) || queued.some((item) => item.prefetch === key)) return
      if (closed) return
      told(sql)
      queued.push({ sql, params: values, prefetch: key })
      forgetLater()
    },
    one: (sql, params) => query(sql, params).rows[0] as never,
    transaction,
    get inTransaction() {
      return depth > 0
    },
    get roundTrips() {
      return roundTrips
    },
    get statements() {
      return statements
    },
    watch(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    close,
  }
}
