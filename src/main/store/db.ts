import Database from 'better-sqlite3'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPrivateFile, secureDataDir } from './fileModes'

export type Db = Database.Database

/** Where the numbered `NNN_name.sql` files live (copied next to the bundle in the Electron build). */
export function defaultMigrationsDir(): string {
  return fileURLToPath(new URL('./migrations', import.meta.url))
}

/**
 * Opens (creating if needed) the SQLite file at `path` in WAL mode with foreign keys on, and
 * applies every migration newer than `PRAGMA user_version`, each in its own transaction, so a
 * crash mid-upgrade leaves the file at the last whole version. `:memory:` works for tests. The
 * folder becomes a private data dir (`0700`, files `0600`) before the file opens.
 * Throws if a migration fails (the file keeps its previous version).
 */
export function openDatabase(path: string, migrationsDir = defaultMigrationsDir()): Db {
  if (path !== ':memory:') {
    secureDataDir(dirname(path))
    createPrivateFile(path)
  }
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  // WAL with NORMAL sync is durable across app crashes; only an OS crash can lose the last commit.
  db.pragma('synchronous = NORMAL')
  // A checkpoint fsyncs twice on the thread that commits. At SQLite's default (every 1,000 WAL
  // pages, about every 80 runs) those fsyncs stalled calls for milliseconds each; every 10,000
  // pages they come ten times less often, and the same hot pages (the runs table's tail and its
  // index leaves) are copied once per checkpoint instead of ten times. The WAL
  // is cut back to 64 MB after each one.
  db.pragma('wal_autocheckpoint = 10000')
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`)
  db.pragma('busy_timeout = 5000')
  migrate(db, migrationsDir)
  cacheStatements(db)
  return db
}

/**
 * Repositories call `db.prepare(sql)` on every use; compiling the same SQL again on each call was
 * a measurable part of a run (the bench's profile). Statements are kept by their SQL text, which
 * is safe while no caller switches a statement's mode (`pluck`, `raw`, `expand`) or iterates one
 * while reusing it: none does.
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db)
  const cache = new Map<string, ReturnType<typeof prepare>>()
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql)
    if (!statement) {
      statement = prepare(sql)
      cache.set(sql, statement)
    }
    return statement
  }) as Db['prepare']
}

function migrate(db: Db, dir: string): void {
  const current = db.pragma('user_version', { simple: true }) as number
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
  for (const file of files) {
    const version = Number(file.slice(0, 3))
    if (version <= current) continue
    const sql = readFileSync(join(dir, file), 'utf8')
    db.transaction(() => {
      db.exec(sql)
      db.pragma(`user_version = ${version}`)
    })()
  }
}
