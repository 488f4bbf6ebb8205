/**
 * What Redis Commander's answer keys do by hand, as a person with curl would: read a key or the
 * server info through its JSON API, run a command through its command-line endpoint, and check
 * what a read answered. Every path names the fixed connection id (see `server.ts`).
 */
import type { StorageState } from '../../../src/shared/trace'
import { resultText } from '../match'
import type { AppInstance, RequestKey } from '../types'
import { CONNECTION_ID } from './server'

export { resultText }

/** The connection id as the UI puts it in a path (`encodeURIComponent`). */
export const CONN = encodeURIComponent(CONNECTION_ID)

/** `/apiv2/key/<connection>/<key>`: a key's details (GET) or its save/rename/delete (POST). */
export function keyPath(key: string): string {
  return `/apiv2/key/${CONN}/${encodeURIComponent(key)}`
}

/** Any key's path: `/apiv2/key/<connection>/<key>` (the key is the last segment). */
export const KEY_PATH = /\/apiv2\/key\/[^/]+\/[^/]+/

/** The command line's request: `POST /apiv2/exec/<connection>` with the form field `cmd`. */
export function execKey(cmd: string): RequestKey {
  return { method: 'POST', path: /\/apiv2\/exec\/[^/]+/, operation: { field: 'cmd', value: cmd } }
}

/** A key as `GET /apiv2/key/<connection>/<key>` answers it (the fields of its type only). */
export interface KeyDetails {
  key: string
  /** `string`, `hash`, `list`, `set`, `zset`..., `none` when the key does not exist. */
  type: string
  /** Seconds left, -1 without an expiry (absent for `none`). */
  ttl?: number
  /** A string's value. */
  value?: string
  /** A hash's fields. */
  data?: Record<string, string>
  /** A list's items, head first (the first page). */
  items?: Array<{ number: number; value: string }>
}

/** Reads `key` through the API; throws unless Redis Commander answers 200 with JSON. */
export async function readKey(
  app: AppInstance,
  session: StorageState,
  key: string,
): Promise<KeyDetails> {
  const res = await app.fetch(keyPath(key), { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${keyPath(key)} answered ${res.status}`)
  return JSON.parse(text) as KeyDetails
}

/** Sends one request by hand and returns its answer as JSON (or text); throws unless 200. */
export async function send(
  app: AppInstance,
  session: StorageState,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<unknown> {
  const res = await app.fetch(path, {
    method,
    session,
    ...(form
      ? {
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
          body: new URLSearchParams(form).toString(),
        }
      : {}),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Runs one command line through the API (what the command-line panel sends); its `data`. */
export async function exec(app: AppInstance, session: StorageState, cmd: string): Promise<unknown> {
  const answer = (await send(app, session, 'POST', `/apiv2/exec/${CONN}`, { cmd })) as {
    data?: unknown
  }
  return answer.data
}

/** The keys matching `pattern` now (`KEYS`), sorted. */
export async function keysMatching(
  app: AppInstance,
  session: StorageState,
  pattern: string,
): Promise<string[]> {
  const data = await exec(app, session, `keys ${pattern}`)
  if (!Array.isArray(data)) throw new Error(`keys ${pattern} answered ${JSON.stringify(data)}`)
  return (data as string[]).sort()
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
