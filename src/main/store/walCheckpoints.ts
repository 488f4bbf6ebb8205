import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the helper thread is asked to copy the WAL's new pages into the database file. */
const CHECKPOINT_EVERY_MS = 250
/** The helper thread starts once the WAL file is this large (a store that writes little has none). */
const START_ABOVE_BYTES = 4 * 1024 * 1024

/**
 * The helper thread: its own connection to the file, running a PASSIVE checkpoint (SQLite "WAL
 * checkpoint": it copies committed pages back into the database file and syncs it, without
 * waiting for or blocking the writer) each time it is asked, and answering with SQLite's figures.
 * Plain CommonJS run with `eval`, so no bundler has to know of a second entry file.
 */
const HELPER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path, { fileMustExist: true })
db.pragma('busy_timeout = 0')
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    Atomics.store(workerData.closed, 0, 1)
    Atomics.notify(workerData.closed, 0)
    parentPort.close()
    return
  }
  try {
    parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)')[0])
  } catch (error) {
    parentPort.postMessage({ error: String(error) })
  }
})
`

/** How long `stop` waits for the helper's connection to close (a checkpoint may be running). */
const CLOSE_WAIT_MS = 2_000

export interface WalCheckpoints {
  /**
   * Stops asking and closes the helper's connection before returning (so the writer's own close
   * is the last and removes the WAL), then ends the thread.
   */
  stop(): void
}

/**
 * Moves the copying of WAL pages off the event loop: a helper thread checkpoints the file at
 * `path` every 250 ms once its WAL passed 4 MB. A checkpoint on the connection that commits
 * (SQLite's automatic one) held the loop for tens of milliseconds (46 ms for 13,664 pages here,
 * two fsyncs included); with the pages already copied by the helper, the automatic checkpoint
 * that still restarts the WAL copies only the last few. When the helper cannot start or fails,
 * the automatic checkpoint does all of it, as before.
 */
export function startWalCheckpoints(path: string): WalCheckpoints {
  if (path === ':memory:') return { stop: () => undefined }
  let helper: Worker | null = null
  let asked = false
  let failed = false
  const closed = new Int32Array(new SharedArrayBuffer(4))

  const start = (): Worker => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const worker = new Worker(HELPER_SOURCE, { eval: true, workerData: { path, driver, closed } })
    worker.unref()
    worker.on('message', () => (asked = false))
    worker.on('error', () => {
      failed = true
      helper = null
    })
    return worker
  }

  const timer = setInterval(() => {
    if (asked || failed) return
    if (!helper) {
      let size = 0
      try {
        size = statSync(`${path}-wal`).size
      } catch {
        // No write-ahead log yet: nothing to checkpoint on this tick.
        return
      }
      if (size < START_ABOVE_BYTES) return
      helper = start()
    }
    asked = true
    helper.postMessage(null)
  }, CHECKPOINT_EVERY_MS)
  timer.unref()

  return {
    stop() {
      clearInterval(timer)
      const worker = helper
      helper = null
      if (!worker) return
      worker.postMessage('close')
      Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS)
      void worker.terminate()
    },
  }
}
