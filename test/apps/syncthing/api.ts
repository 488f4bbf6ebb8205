/**
 * What the answer keys of Syncthing send by hand, as a person with curl would, signed in with a
 * saved session (`app.fetch` adds the CSRF header): the whole config read and written back, the
 * ignore patterns, a rescan, and the event log that shows which folders were scanned.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { seededFolder } from './seed'

/** One folder as `GET /rest/config` gives it (the fields the keys look at). */
export interface FolderConfig {
  id: string
  label: string
  path: string
  paused: boolean
  rescanIntervalS: number
  devices: Array<{ deviceID: string }>
  [field: string]: unknown
}

/** One device as `GET /rest/config` gives it. */
interface DeviceConfig {
  deviceID: string
  name: string
  addresses: string[]
  [field: string]: unknown
}

/** The whole config, as the GUI reads it and writes it back. */
export interface SyncthingConfig {
  folders: FolderConfig[]
  devices: DeviceConfig[]
  [section: string]: unknown
}

/** `GET /rest/config`: the whole configuration (what the GUI loads and edits). */
export async function readConfig(
  app: AppInstance,
  session: StorageState,
): Promise<SyncthingConfig> {
  const res = await app.fetch('/rest/config', { session })
  if (!res.ok) throw new Error(`GET /rest/config answered ${res.status}`)
  return (await res.json()) as SyncthingConfig
}

/**
 * `PUT /rest/config` with the whole configuration, as the GUI's `saveConfig()` sends every change
 * in 1.19 (folders, devices, settings alike). Syncthing answers 200 with an empty body.
 */
async function writeConfig(
  app: AppInstance,
  session: StorageState,
  config: SyncthingConfig,
): Promise<void> {
  const res = await app.fetch('/rest/config', {
    method: 'PUT',
    session,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`PUT /rest/config answered ${res.status}: ${text}`)
}

/** Reads the config, lets `change` edit it, writes it back whole (what every GUI save does). */
export async function changeConfig(
  app: AppInstance,
  session: StorageState,
  change: (config: SyncthingConfig) => void,
): Promise<void> {
  const config = await readConfig(app, session)
  change(config)
  await writeConfig(app, session, config)
}

/** The folder with this id in a config, or undefined. */
export function folderById(config: SyncthingConfig, id: string): FolderConfig | undefined {
  return config.folders.find((f) => f.id === id)
}

/** The folder with this label in a config; throws when there is none. */
export function folderByLabel(config: SyncthingConfig, label: string): FolderConfig {
  const folder = config.folders.find((f) => f.label === label)
  if (!folder) throw new Error(`no folder is labelled ${label}`)
  return folder
}

/**
 * The seeded folder a picked label names, as the config holds it now: found by its seeded id,
 * so a tool that relabels another folder with the label does not pass. A string says what is
 * wrong (gone, or relabelled).
 */
export async function seededFolderNow(
  app: AppInstance,
  session: StorageState,
  label: string,
): Promise<FolderConfig | string> {
  const { id } = seededFolder(label)
  const folder = folderById(await readConfig(app, session), id)
  if (!folder) return `the folder ${label} (${id}) is gone`
  return folder
}

/** One event of `GET /rest/events`. */
interface SyncthingEvent {
  id: number
  type: string
  data?: { folder?: string; from?: string; to?: string }
}

/**
 * How many times the folder `id` entered the `scanning` state since the start, from the event
 * log the GUI polls (`GET /rest/events`, the default subscription keeps the last 1000 events).
 * Seeded folders have no watcher and a one-hour interval: 1 is the start's scan, 2 a rescan.
 */
export async function scanCount(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<number> {
  const res = await app.fetch('/rest/events?since=0&timeout=1', { session })
  if (!res.ok) throw new Error(`GET /rest/events answered ${res.status}`)
  const events = (await res.json()) as SyncthingEvent[]
  return events.filter(
    (e) => e.type === 'StateChanged' && e.data?.folder === id && e.data.to === 'scanning',
  ).length
}

/** `GET /rest/db/ignores?folder=<id>`: the folder's ignore patterns as lines. */
export async function readIgnores(
  app: AppInstance,
  session: StorageState,
  id: string,
): Promise<string[]> {
  const res = await app.fetch(`/rest/db/ignores?folder=${encodeURIComponent(id)}`, { session })
  if (!res.ok) throw new Error(`GET /rest/db/ignores answered ${res.status}`)
  const body = (await res.json()) as { ignore: string[] | null }
  return body.ignore ?? []
}

/** A run's result as one searchable string. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
