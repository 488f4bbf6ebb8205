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

/** Writes one stored recording (gzip level 9, JSON without indentation). */
export function writeStored(
  app: string,
  workflow: string,
  path: RecordingPath,
  value: StoredTrace | StoredHar,
): string {
  mkdirSync(join(APP_FIXTURES_DIR, app), { recursive: true })
  const file = fileOf(app, workflow, path)
  writeFileSync(file, gzipSync(JSON.stringify(value), { level: 9 }))
  return file
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
