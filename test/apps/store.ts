/**
 * The stored recordings of the real-app corpus: per workflow, the trace Sitecall's recorder made
 * (`<workflow>.trace.json.gz`) and the plain HAR Playwright made of the same workflow
 * (`<workflow>.har.json.gz`), each gzipped JSON with the origin the app ran on when recorded.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { Har } from '../../src/main/recorder/har'
import type { Trace } from '../../src/shared/trace'
import { APP_FIXTURES_DIR } from './registry'

export type RecordingPath = 'recording' | 'har'

export interface StoredTrace {
  origin: string
  trace: Trace
}
export interface StoredHar {
  origin: string
  har: Har
}

const fileOf = (app: string, workflow: string, path: RecordingPath): string =>
  join(APP_FIXTURES_DIR, app, `${workflow}.${path === 'recording' ? 'trace' : 'har'}.json.gz`)

/**
 * Static assets a page loads: the compiler never targets them or reads their bytes (only their
 * URLs, to find where an app is mounted), so a stored recording keeps them without a body.
 */
const ASSET_TYPES = new Set(['script', 'stylesheet', 'font', 'image', 'media'])

/**
 * Writes one stored recording (gzip level 9, JSON without indentation), the bodies of its static
 * assets left out (`ASSET_TYPES`: a bundled script can weigh megabytes and is loaded on every page).
 */
export function writeStored(
  app: string,
  workflow: string,
  path: RecordingPath,
  value: StoredTrace | StoredHar,
): string {
  mkdirSync(join(APP_FIXTURES_DIR, app), { recursive: true })
  const file = fileOf(app, workflow, path)
  writeFileSync(file, gzipSync(JSON.stringify(withoutAssetBodies(value)), { level: 9 }))
  return file
}

function withoutAssetBodies(value: StoredTrace | StoredHar): StoredTrace | StoredHar {
  if ('trace' in value) {
    const exchanges = value.trace.exchanges.map((e) =>
      ASSET_TYPES.has(e.resourceType) ? { ...e, responseBody: null } : e,
    )
    return { ...value, trace: { ...value.trace, exchanges } }
  }
  const entries = value.har.log.entries.map((entry) => {
    const type = (entry as { _resourceType?: string })._resourceType ?? ''
    if (!ASSET_TYPES.has(type)) return entry
    const { text: _bytes, encoding: _encoding, ...content } = entry.response.content
    return { ...entry, response: { ...entry.response, content } }
  })
  return { ...value, har: { ...value.har, log: { ...value.har.log, entries } } }
}

/** Reads a stored recorder trace, or null when none was recorded. */
export function readStoredTrace(app: string, workflow: string): StoredTrace | null {
  const file = fileOf(app, workflow, 'recording')
  return existsSync(file)
    ? (JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as StoredTrace)
    : null
}

/** Reads a stored plain HAR, or null when none was recorded. */
export function readStoredHar(app: string, workflow: string): StoredHar | null {
  const file = fileOf(app, workflow, 'har')
  return existsSync(file)
    ? (JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as StoredHar)
    : null
}

/**
 * Moves a recording to another origin of the same app (another port on 127.0.0.1): every form of
 * the recorded `host:port` in the JSON (plain and percent-encoded) becomes the new one.
 */
export function rebase<T>(value: T, from: string, to: string): T {
  if (from === to) return value
  const a = new URL(from).host
  const b = new URL(to).host
  const text = JSON.stringify(value)
    .split(a)
    .join(b)
    .replace(new RegExp(a.replace(':', '%3[aA]').replace(/\./g, '\\.'), 'g'), b.replace(':', '%3A'))
  return JSON.parse(text) as T
}
