import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { ServiceError } from '../../../shared/errors'

/** What a statement gave back: its rows (columns by name) and how many rows it touched. */
export interface PgResult<R = Record<string, unknown>> {
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
  /** Round trips to the server so far (the bench's "round trips per run"). */
  readonly roundTrips: number
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
    const next = new pg.Client({ ...config, types })
    next.on('error', () => { if (client === next) drop() })
    roundTrips++
    connecting = next.connect().then(() => { client = next; connecting = null; return next },
      (error) => { connecting = null; next.end().catch(() => undefined); throw error })
  }
  return connecting
}
const answer = (id, body) => {
  port.postMessage({ id, ...body, roundTrips })
  Atomics.store(flag, 0, 1)
  Atomics.notify(flag, 0)
}
const toParam = (value) => value instanceof Uint8Array && !Buffer.isBuffer(value)
  ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value
port.on('message', async (message) => {
  const { id, op, sql, params } = message
  if (op === 'close') { drop(); answer(id, {}); port.close(); return }
  try {
    const conn = await connection()
    let result
    if (op === 'exec') {
      roundTrips++
      await conn.query(sql)
      result = { rows: [], rowCount: 0 }
    } else {
      let name = names.get(sql)
      if (name === undefined) { name = 's' + (names.size + 1); names.set(sql, name) }
      roundTrips++
      const r = await conn.query({ name, text: sql, values: params.map(toParam) })
      result = { rows: r.rows, rowCount: r.rowCount ?? r.rows.length }
    }
    answer(id, { result })
  } catch (error) {
    const code = typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) ? error.code : ''
    // No SQLSTATE (a socket error, a connection ended), class 08 or a shutdown: the server went
    // away; the next request connects again.
    const lost = !code || code.startsWith('08') || /^57P0[1-3]$/.test(code)
    if (lost) drop()
    answer(id, { error: { message: String(error.message || error), code, lost } })
  }
})
`

/** SQLSTATEs of a transaction PostgreSQL gave up on that may be run again as is. */
const RETRYABLE = new Set(['40001', '40P01'])

/** A parameter as it crosses to the helper thread (undefined is SQL NULL, as better-sqlite3). */
const toParam = (value: unknown): unknown => (value === undefined ? null : value)

interface Answer {
  id: number
  roundTrips: number
  result?: PgResult
  error?: { message: string; code: string; lost: boolean }
}

/** Longest a caller waits for one answer beyond the statement timeout, ms. */
const ANSWER_MARGIN_MS = 5_000

/**
 * Opens a synchronous connection to `url` (a `postgres://` URL): a helper thread holds a
 * node-postgres client and the calling thread blocks on a shared flag (`Atomics.wait`) until the
 * helper answers, so the caller's repositories stay synchronous. The connection is opened now
 * (throws 503 `unavailable` when it cannot be) and again after it is lost.
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
  let depth = 0
  let closed = false

  const unavailable = (detail: string) => {
    depth = 0
    return new ServiceError(
      'unavailable',
      `The database is not reachable (${detail.trim()}): retry in a few seconds.`,
      { retryAfterSeconds: 2 },
    )
  }
  /** Sends one request and blocks until its answer (answers of requests given up on are dropped). */
  const call = (request: { op: 'query' | 'exec' | 'close'; sql?: string; params?: unknown[] }) => {
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
        if (message.id === id) return message
        continue
      }
      const left = until - Date.now()
      if (left <= 0) throw unavailable('no answer in time')
      Atomics.wait(flag, 0, 0, left)
      Atomics.store(flag, 0, 0)
    }
  }
  const run = (op: 'query' | 'exec', sql: string, params: readonly unknown[] = []): PgResult => {
    const message = call({ op, sql, params: params.map(toParam) })
    if (message.error) {
      if (message.error.lost) throw unavailable(message.error.message || 'connection lost')
      throw new PgError(message.error.message, message.error.code)
    }
    const result = message.result!
    for (const row of result.rows)
      for (const [key, value] of Object.entries(row))
        // Buffers cross threads as plain Uint8Arrays.
        if (value instanceof Uint8Array && !Buffer.isBuffer(value))
          row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    return result
  }
  const query = <R>(sql: string, params?: readonly unknown[]) =>
    run('query', sql, params) as PgResult<R>
  const simple = (sql: string) => void run('exec', sql)

  const transaction = <T>(fn: () => T): T => {
    if (depth > 0) {
      const savepoint = `sp${depth}`
      simple(`SAVEPOINT ${savepoint}`)
      depth++
      try {
        const value = fn()
        simple(`RELEASE SAVEPOINT ${savepoint}`)
        return value
      } catch (error) {
        if (depth > 0) simple(`ROLLBACK TO SAVEPOINT ${savepoint}`)
        throw error
      } finally {
        if (depth > 0) depth--
      }
    }
    for (let attempt = 1; ; attempt++) {
      simple('BEGIN')
      depth = 1
      try {
        const value = fn()
        simple('COMMIT')
        depth = 0
        return value
      } catch (error) {
        if (depth > 0) {
          depth = 0
          try {
            simple('ROLLBACK')
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
  return {
    query,
    exec: simple,
    one: (sql, params) => query(sql, params).rows[0] as never,
    transaction,
    get inTransaction() {
      return depth > 0
    },
    get roundTrips() {
      return roundTrips
    },
    close,
  }
}
