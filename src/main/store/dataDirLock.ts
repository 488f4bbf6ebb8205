import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ServiceError } from '../../shared/errors'
import { createPrivateFile } from './fileModes'
import { safeJson } from '../../shared/safeJson'

/** The lock file of a data dir. */
export const LOCK_FILE = 'sitecall.lock'

/** What the lock file holds: who runs the engine on this data dir. */
interface LockHolder {
  pid: number
  /** How the process was started, e.g. `sitecall serve --port 7411` or `Sitecall desktop app`. */
  command: string
  /** Milliseconds since the Unix epoch when it took the lock. */
  since: number
}

export interface DataDirLock {
  holder: LockHolder
  /** Removes the lock file if it is still this one; safe to call twice. */
  release(): void
}

/**
 * Takes the exclusive lock of the data dir `home` (one process runs the engine
 * per data dir, else each start's recovery ends the other's runs): creates `sitecall.lock` with
 * `{pid, command, since}` atomically (a hard link of a private temp file: it fails when the file
 * exists). A lock whose process is gone (`kill(pid, 0)` answers ESRCH) is taken over. Throws 409
 * `resource_locked` naming the holder's pid, command and start when another live process holds
 * it, this process included (a second engine in one process is just as wrong). The lock is also
 * removed when the process exits normally.
 */
export function lockDataDir(
  home: string,
  command = describeProcess(),
  clock: () => number = Date.now,
): DataDirLock {
  const path = join(home, LOCK_FILE)
  const holder: LockHolder = { pid: process.pid, command, since: clock() }
  const text = JSON.stringify(holder)
  const temp = `${path}.${process.pid}.tmp`
  createPrivateFile(temp)
  writeFileSync(temp, text)
  try {
    // Two tries: the second after taking over a stale lock.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (tryLink(temp, path)) return held(path, holder, text)
      const current = readHolder(path)
      if (current && isAlive(current.pid)) throw lockedBy(home, current)
      takeOverStale(path, current)
    }
    throw lockedBy(home, readHolder(path))
  } finally {
    unlinkQuietly(temp)
  }
}

/** `sitecall serve --port 0`, `Sitecall desktop app`: what a refused second process is told. */
export function describeProcess(argv = process.argv): string {
  if (process.versions.electron) return 'Sitecall desktop app'
  const script = argv[1] ? basename(argv[1]).replace(/\.m?[jt]s$/, '') : 'node'
  return [script, ...argv.slice(2)].join(' ').slice(0, 200)
}

function held(path: string, holder: LockHolder, text: string): DataDirLock {
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    // Only our own lock: a process that took over after us must keep its file.
    if (readText(path) === text) unlinkQuietly(path)
  }
  process.on('exit', release)
  return { holder, release }
}

function tryLink(temp: string, path: string): boolean {
  try {
    linkSync(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/**
 * Moves a dead holder's file aside. Renaming is atomic: when another starter replaced the stale
 * file with its own live lock between our read and the rename, that file is put back.
 */
function takeOverStale(path: string, stale: LockHolder | null): void {
  const aside = `${path}.${process.pid}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const moved = readHolder(aside)
  if (moved && stale && moved.pid !== stale.pid && isAlive(moved.pid)) tryLink(aside, path)
  unlinkQuietly(aside)
}

function readHolder(path: string): LockHolder | null {
  const text = readText(path)
  if (text === null) return null
  // A half-written file of a process that died while writing it is no JSON and holds nothing.
  const value = safeJson(text) as Partial<LockHolder> | null | undefined
  return typeof value?.pid === 'number'
    ? { pid: value.pid, command: String(value.command ?? '?'), since: Number(value.since ?? 0) }
    : null
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    // No lock file (or none readable): no holder to name.
    return null
  }
}

/** Whether a process `pid` exists: EPERM means it does, under another user. */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function lockedBy(home: string, holder: LockHolder | null): ServiceError {
  const who = holder
    ? `pid ${holder.pid} (${holder.command}), running since ${new Date(holder.since).toISOString()}`
    : 'another process'
  return new ServiceError(
    'resource_locked',
    `The data dir ${home} is in use by ${who}. Stop it first, or set SITECALL_HOME to another data dir; one process runs the engine per data dir.`,
    holder ? { holder } : {},
  )
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone.
  }
}
