import type { Db } from './db'

/**
 * Whether a table may have changed since a reader last looked, so the reader can keep what it
 * read (parsed tools, API keys) and still see every change at once.
 */
export interface ChangeMark {
  /** Call after every write to the table through this connection. */
  wrote(): void
  /**
   * Moves with every `wrote()` on this connection (for the table) and with every commit of
   * another connection to the file (SQLite `PRAGMA data_version`, which stays put for the
   * connection's own commits). Equal revisions: the table is as it was.
   */
  revision(): string
}

/**
 * Writes per connection and table: each repository of one connection over the same table (the
 * tools of every workspace) shares a count, so a write through one moves the others' revision.
 */
const writesOf = new WeakMap<Db, Map<string, { n: number }>>()

/** The change mark of `table` on `db`. */
export function createChangeMark(db: Db, table: string): ChangeMark {
  const tables = writesOf.get(db) ?? new Map<string, { n: number }>()
  writesOf.set(db, tables)
  const writes = tables.get(table) ?? { n: 0 }
  tables.set(table, writes)
  // `db.pragma` compiles its statement on every call: this one is kept.
  const dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version')
  return {
    wrote: () => void writes.n++,
    revision: () => `${writes.n}:${dataVersion.get()!.data_version}`,
  }
}
