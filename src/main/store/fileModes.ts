import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The data dir's mode: only its owner may list or enter it. */
const DIR_MODE = 0o700
/** Every file of the data dir: only its owner may read or write it. */
const FILE_MODE = 0o600

/**
 * The files of a data dir that are ours: the database and its WAL/SHM/journal, the lock file and
 * `settings.json`. Only these are touched, so a `SITECALL_HOME` pointed at a folder holding other
 * things (a home dir) keeps their modes.
 */
const OURS = /^(sitecall\.|settings\.json$)/

/**
 * Makes `dir` a private data dir: creates it `0700`, and brings an existing one
 * and its own files to `0700`/`0600`, so a data dir made by an older version under a `022` umask
 * is closed at the next start. No-op on Windows, whose ACLs are not POSIX modes (the profile dir
 * is private there already). Throws what `chmod` throws when the dir belongs to another user.
 */
export function secureDataDir(dir: string): void {
  if (process.platform === 'win32') return
  mkdirSync(dir, { recursive: true, mode: DIR_MODE })
  chmodSync(dir, DIR_MODE)
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile() && OURS.test(entry.name)) chmodSync(join(dir, entry.name), FILE_MODE)
}

/**
 * Creates `path` empty with mode `0600` unless it exists. SQLite gives the `-wal` and `-shm`
 * files the mode of the database file, so creating that one private keeps all three private
 * whatever the umask is.
 */
export function createPrivateFile(path: string): void {
  if (process.platform === 'win32') return
  closeSync(openSync(path, 'a', FILE_MODE))
  chmodSync(path, FILE_MODE)
}
