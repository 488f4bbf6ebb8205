import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStore } from '../../../src/main/store/store'

let home: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-wal-'))
})

afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0)

describe('WAL checkpoints off the event loop', () => {
  it('copies committed pages into the database file from a helper thread, and closes with the store', async () => {
    const path = join(home, 'sitecall.db')
    const store = createStore(path)
    try {
      store.db.exec('CREATE TABLE filler (data BLOB NOT NULL)')
      const add = store.db.prepare('INSERT INTO filler (data) VALUES (?)')
      // About 8 MB: past the helper's start, far below the writer's own checkpoint (10,000 pages).
      for (let batch = 0; batch < 20; batch++)
        store.db.transaction(() => {
          for (let i = 0; i < 100; i++) add.run(randomBytes(4000))
        })()
      const written = sizeOf(`${path}-wal`)
      expect(written).toBeGreaterThan(8_000_000)
      expect(sizeOf(path)).toBeLessThan(1_000_000)
      // The writer never checkpointed: the pages reach the file through the helper.
      for (let waited = 0; sizeOf(path) < 8_000_000 && waited < 20_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50))
      expect(sizeOf(path)).toBeGreaterThan(8_000_000)
    } finally {
      store.close()
    }
    // The helper's connection closed first, so the writer's close removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false)
  })
})
