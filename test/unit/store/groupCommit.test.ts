import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../src/main/store/db'
import { createGroupCommit, type GroupCommit } from '../../../src/main/store/groupCommit'

let home: string
let db: Db
/** A second connection to the same file: it sees only what was committed. */
let other: Database.Database
let group: GroupCommit

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-group-commit-'))
  const path = join(home, 'sitecall.db')
  db = openDatabase(path)
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)')
  other = new Database(path, { readonly: true })
  group = createGroupCommit(db)
})

afterEach(() => {
  other.close()
  db.close()
  rmSync(home, { recursive: true, force: true })
})

const insert = (text: string) => () =>
  Number(db.prepare('INSERT INTO notes (text) VALUES (?)').run(text).lastInsertRowid)
const committed = () =>
  (other.prepare('SELECT text FROM notes ORDER BY id').all() as Array<{ text: string }>).map(
    (r) => r.text,
  )
/** Counts commits by other connections (SQLite `PRAGMA data_version`). */
const commits = () => other.pragma('data_version', { simple: true }) as number

describe('group commit', () => {
  it('commits the writes of one event-loop turn together, and settles each once on disk', async () => {
    const before = commits()
    const seen: string[][] = []
    const writes = ['a', 'b', 'c'].map((text) =>
      group.soon(insert(text)).then((id) => {
        seen.push(committed())
        return id
      }),
    )
    expect(committed()).toEqual([])
    expect(await Promise.all(writes)).toEqual([1, 2, 3])
    expect(commits()).toBe(before + 1)
    // Every promise settled after the commit: each saw all three rows on disk.
    expect(seen).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ])
  })

  it('undoes only the write that threw; the others of its turn are kept', async () => {
    const failing = group.soon(() => {
      insert('lost')()
      throw new Error('refused')
    })
    const kept = group.soon(insert('kept'))
    await expect(failing).rejects.toThrow('refused')
    expect(await kept).toBe(1)
    expect(committed()).toEqual(['kept'])
  })

  it('commits at once on flush, so a read sees what is queued; inside a transaction it waits', async () => {
    const queued = group.soon(insert('now'))
    group.flush()
    expect(committed()).toEqual(['now'])
    await queued
    const later = group.soon(insert('later'))
    db.transaction(() => group.flush())()
    expect(committed()).toEqual(['now'])
    await later
    expect(committed()).toEqual(['now', 'later'])
  })
})
