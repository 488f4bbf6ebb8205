/**
 * Deluge's web UI JSON-RPC, as a person with curl would use it: every call is `POST /json` with
 * `{"method": "<object>.<method>", "params": [...], "id": n}` and the `_session_id` cookie
 * `auth.login` set (path `/json`); the answer is `{"result": ..., "error": null | {message,
 * code}, "id": n}`. `web.*` and `auth.*` are the web server's own methods, `core.*` are proxied
 * to the daemon.
 */
import type { StorageState } from '../../../src/shared/trace'
import { cookieHeader, fetchWithSession } from '../sessionFetch'
import type { AppInstance } from '../types'

let nextId = 1

/** The body of one JSON-RPC call. */
function rpcBody(method: string, params: unknown[]): string {
  return JSON.stringify({ method, params, id: nextId++ })
}

/** One JSON-RPC answer. */
interface RpcAnswer {
  result: unknown
  error: { message: string; code: number } | null
  id: number
}

/** Sends one call with `session`'s cookies; throws when the answer is not JSON-RPC. */
async function rpcSend(
  send: (init: RequestInit) => Promise<Response>,
  method: string,
  params: unknown[],
): Promise<RpcAnswer> {
  const res = await send({
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: rpcBody(method, params),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} answered HTTP ${res.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as RpcAnswer
}

/** Calls `method` on the instance at `origin` with `session`; its result, or throws its error. */
export async function rpcCall(
  origin: string,
  session: StorageState | undefined,
  method: string,
  params: unknown[],
): Promise<unknown> {
  const answer = await rpcSend(
    (init) => fetchWithSession(origin, '/json', { ...init, session }),
    method,
    params,
  )
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}

/**
 * Signs in as the login window does (`auth.login` with the password) and returns the cookie a
 * browser keeps: `_session_id` (64 hex of session id + its checksum) on path `/json`. Throws
 * when Deluge refuses the password (it answers `result: false`).
 */
export async function rpcLogin(origin: string, password: string): Promise<StorageState> {
  const res = await fetch(`${origin}/json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: rpcBody('auth.login', [password]),
  })
  const answer = (await res.json()) as RpcAnswer
  if (answer.result !== true) throw new Error(`deluge-web refused the password (${res.status})`)
  const host = new URL(origin).hostname
  const cookies: StorageState['cookies'] = []
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';')
    const eq = pair.indexOf('=')
    if (eq <= 0) continue
    let path = '/'
    let expires = -1
    for (const attribute of attributes) {
      const [k = '', v = ''] = attribute.split('=').map((s) => s.trim())
      if (k.toLowerCase() === 'path') path = v
      if (k.toLowerCase() === 'expires') expires = Math.floor(Date.parse(v) / 1000)
    }
    cookies.push({
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
      domain: host,
      path,
      expires,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax',
    })
  }
  if (!cookies.some((c) => c.name === '_session_id'))
    throw new Error('deluge-web set no _session_id cookie')
  return { cookies, origins: [] }
}

/** Ends a session as the Logout button does (`auth.delete_session`). */
export async function rpcLogout(origin: string, session: StorageState): Promise<void> {
  const res = await fetch(`${origin}/json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookieHeader(session) },
    body: rpcBody('auth.delete_session', []),
  })
  await res.arrayBuffer()
}

/** Calls `method` on `app` signed in with `session` (what the keys send by hand). */
export async function call(
  app: AppInstance,
  session: StorageState,
  method: string,
  params: unknown[],
): Promise<unknown> {
  const answer = await rpcSend((init) => app.fetch('/json', { ...init, session }), method, params)
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result
}

/** One torrent as `core.get_torrents_status` answers it (the keys the checks ask for). */
export interface TorrentStatus {
  name: string
  state: string
  max_download_speed?: number
}

/** Every torrent in the session by info hash, with `keys` (name and state unless told). */
export async function torrents(
  app: AppInstance,
  session: StorageState,
  keys: string[] = ['name', 'state'],
): Promise<Record<string, TorrentStatus>> {
  return (await call(app, session, 'core.get_torrents_status', [{}, keys])) as Record<
    string,
    TorrentStatus
  >
}

/** The info hash of the torrent named `name` (as the list shows it), or null. */
export async function hashOf(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<string | null> {
  const all = await torrents(app, session)
  return Object.entries(all).find(([, t]) => t.name === name)?.[0] ?? null
}

/** A run's result as one searchable string. */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Throws `problem` when it is not null (replays reuse the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** Tries `read` every 250 ms, up to `times` times, until it answers non-null. */
export async function poll<T>(read: () => Promise<T | null>, times = 20): Promise<T | null> {
  for (let i = 0; i < times; i++) {
    const value = await read()
    if (value !== null) return value
    await new Promise((r) => setTimeout(r, 250))
  }
  return null
}
