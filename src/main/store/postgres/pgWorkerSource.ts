/**
 * The thread that holds the connection: plain CommonJS run with `eval` (as `walCheckpoints.ts`),
 * so neither a bundler nor vitest has to know of a second entry file. It answers each request on
 * its port, then raises the shared flag the caller waits on. `pg` (node-postgres, pure
 * JavaScript) parses columns: int8 and numeric as numbers (milliseconds and counts, within 2^53),
 * bytea as Buffers.
 */
export const WORKER_SOURCE = `
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
