import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPrivateFile } from '../store/fileModes'

/**
 * The file by which a running `sitecall serve` tells other processes of its data dir where it
 * answers and with which owner credential: `sitecall mcp` started beside it bridges stdio to its
 * `/mcp`. Mode 0600 inside the 0700 data dir: whoever may read it may read
 * the database too.
 */
export const SERVE_FILE = 'sitecall.serve.json'

/** How often `serve` writes a fresh owner token to the file: well inside the token's hour. */
const SERVE_FILE_REFRESH_MS = 20 * 60_000

/** What the serve file holds. */
export interface ServeFile {
  /** The serving process. */
  pid: number
  /** Its base URL, e.g. `http://127.0.0.1:7411`. */
  url: string
  /** An owner token of that process (valid an hour; the file is rewritten every 20 minutes). */
  token: string
}

/**
 * Writes (or replaces, atomically: a private temp file renamed over it) the serve file of `home`.
 * Throws what the file system throws.
 */
function writeServeFile(home: string, value: ServeFile): void {
  const path = join(home, SERVE_FILE)
  const temp = `${path}.${process.pid}.tmp`
  createPrivateFile(temp)
  writeFileSync(temp, JSON.stringify(value))
  renameSync(temp, path)
}

/**
 * The serve file of `home`, or null when there is none, it is unreadable or it belongs to a
 * process that is gone (`kill(pid, 0)` answers ESRCH: a killed `serve` leaves it behind).
 */
export function readServeFile(home: string): ServeFile | null {
  let value: Partial<ServeFile>
  try {
    value = JSON.parse(readFileSync(join(home, SERVE_FILE), 'utf8')) as Partial<ServeFile>
  } catch {
    // No file (no serve ever started) or a torn one: no serve to tell of.
    return null
  }
  if (
    typeof value.pid !== 'number' ||
    typeof value.url !== 'string' ||
    typeof value.token !== 'string'
  )
    return null
  try {
    process.kill(value.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return null
  }
  return { pid: value.pid, url: value.url, token: value.token }
}

/** Removes the serve file of `home` when it is this process's; safe to call twice. */
function removeServeFile(home: string): void {
  const path = join(home, SERVE_FILE)
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ServeFile>
    if (value.pid === process.pid) unlinkSync(path)
  } catch {
    // Gone already, or never written.
  }
}

/**
 * Keeps the serve file of `home` while a process serves at `url` (`sitecall serve`, the desktop
 * app): written at once with a fresh owner token of `issueToken`, rewritten every
 * `SERVE_FILE_REFRESH_MS`. Returns the function that stops and removes it (call it on close).
 */
export function keepServeFile(home: string, url: string, issueToken: () => string): () => void {
  const write = () => writeServeFile(home, { pid: process.pid, url, token: issueToken() })
  write()
  const refresh = setInterval(() => {
    try {
      write()
    } catch {
      // A data dir that went away: the next bridge finds no file and says so.
    }
  }, SERVE_FILE_REFRESH_MS)
  refresh.unref()
  return () => {
    clearInterval(refresh)
    removeServeFile(home)
  }
}
