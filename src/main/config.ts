import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Default port of the local service (docs/architecture.md "Processes"). */
export const DEFAULT_PORT = 7411

export interface Settings {
  /** A Chromium/Chrome binary chosen by the person. */
  chromiumPath?: string
  /** How long run results are kept: whole days and MiB; default 30 days, 1024 MB. */
  resultRetention?: { days?: number; maxMB?: number }
}

/**
 * The data dir: `SITECALL_HOME`, else the platform's app-data dir (Linux `$XDG_DATA_HOME` or
 * `~/.local/share`, macOS `~/Library/Application Support`, Windows `%APPDATA%`) + `Sitecall`.
 */
export function dataDir(
  env: Record<string, string | undefined> = process.env,
  platform = process.platform,
): string {
  if (env.SITECALL_HOME) return env.SITECALL_HOME
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Sitecall')
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Sitecall')
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'sitecall')
}

/** The one SQLite file of a data dir. */
export function databasePath(home: string): string {
  return join(home, 'sitecall.db')
}

/**
 * Writes `settings.json` of the data dir whole, as a new file renamed over the old one (a crash
 * leaves the old or the new file, never half of one), readable by its owner only (docs/architecture.md "Rules that cut across").
 */
export function writeSettings(home: string, settings: Settings): void {
  const path = join(home, 'settings.json')
  const next = `${path}.${process.pid}.tmp`
  writeFileSync(next, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 })
  renameSync(next, path)
}

/** Reads `settings.json` of the data dir; a missing file is no settings, a broken one an error. */
export function readSettings(home: string): Settings {
  const path = join(home, 'settings.json')
  if (!existsSync(path)) return {}
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Settings
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error })
  }
}
