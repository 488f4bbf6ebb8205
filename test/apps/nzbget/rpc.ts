/**
 * NZBGet's JSON-RPC by hand, as a person with curl would use it. The web UI sends its reads
 * (`version`, `status`, `listgroups`, `history`, `log`, `config`...) as `GET /jsonrpc/<method>`
 * with the parameters as nameless query fields (`/jsonrpc/history?=false`), and every other call
 * as `POST /jsonrpc` with `{"nocache": <ms>, "method": ..., "params": [...]}`. The answer is
 * `{"version": "1.1", "result": ...}` or `{"version": "1.1", "error": {"name", "code",
 * "message"}}`, always HTTP 200 once the Basic login passed (401 before).
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'
import type { AppInstance } from '../types'
import { resultText } from '../match'

/** `Authorization: Basic` for `user` (RFC 7617: `name:password` in UTF-8, base64). */
export function basicAuthorization(user: { name: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.name}:${user.password}`, 'utf8').toString('base64')}`
}

/**
 * `fetch(origin + path)` as curl would send it: with `-u user:password` when `init.session` is
 * given (Basic is the whole login: a saved login of this site is an empty storage state plus the
 * user and password), anonymous otherwise. A header the caller set itself wins.
 */
export function fetchBasic(
  origin: string,
  user: { name: string; password: string },
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.session && !headers.has('authorization'))
    headers.set('authorization', basicAuthorization(user))
  return fetchWithSession(origin, path, { ...init, headers })
}

/** How the helpers below reach an instance: its `fetch`, signed in with `session`. */
export interface Caller {
  fetch: AppInstance['fetch']
  session: StorageState
}

/** One JSON-RPC answer. */
interface RpcAnswer {
  result?: unknown
  error?: { name?: string; code?: number; message?: string } | null
}

async function answerOf(what: string, res: Response): Promise<unknown> {
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${what} answered HTTP ${res.status}`)
  const answer = JSON.parse(text) as RpcAnswer
  if (answer.error)
    throw new Error(`${what}: ${answer.error.message ?? JSON.stringify(answer.error)}`)
  return answer.result
}

/** Calls `method` as the web UI calls a write: `POST /jsonrpc`. Its result, or throws. */
export async function call(c: Caller, method: string, params: unknown[]): Promise<unknown> {
  const res = await c.fetch('/jsonrpc', {
    method: 'POST',
    session: c.session,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify({ nocache: Date.now(), method, params }),
  })
  return answerOf(method, res)
}

/** Calls a read as the web UI does: `GET /jsonrpc/<method>?=<p1>&=<p2>`. Its result, or throws. */
export async function read(c: Caller, method: string, params: unknown[] = []): Promise<unknown> {
  const query = params.map((p) => `=${encodeURIComponent(String(p))}`).join('&')
  const res = await c.fetch(`/jsonrpc/${method}${query ? `?${query}` : ''}`, { session: c.session })
  return answerOf(method, res)
}

/** One download of `listgroups` (the fields the keys use). */
export interface Group {
  NZBID: number
  NZBName: string
  Status: string
  Category: string
  MaxPriority: number
}

/** One entry of `history`. */
export interface HistoryEntry {
  ID: number
  NZBID: number
  Name: string
  Status: string
  Category: string
}

/** The queue, in its order (`listgroups`). */
export async function groups(c: Caller): Promise<Group[]> {
  return (await read(c, 'listgroups')) as Group[]
}

/** The history, newest first (`history` without the hidden entries, as the History tab asks). */
export async function history(c: Caller): Promise<HistoryEntry[]> {
  return (await read(c, 'history', [false])) as HistoryEntry[]
}

/** The download named `name`, or null when it is not in the queue. */
export async function groupNamed(c: Caller, name: string): Promise<Group | null> {
  return (await groups(c)).find((g) => g.NZBName === name) ?? null
}

/** The id of the download named `name`; throws when there is none (a replay needs it). */
export async function idOf(c: Caller, name: string): Promise<number> {
  const group = await groupNamed(c, name)
  if (!group) throw new Error(`no download named ${name} in the queue`)
  return group.NZBID
}

/** The server's `status` (the fields the keys use). */
export interface Status {
  DownloadLimit: number
  DownloadPaused: boolean
  /** When NZBGet resumes by itself (0: not scheduled) and its clock now, both epoch seconds. */
  ResumeTime: number
  ServerTime: number
}

/** `status`: speed limit, pause state, scheduled resume... */
export async function status(c: Caller): Promise<Status> {
  return (await read(c, 'status')) as Status
}

/** Retries `probe` for up to `ms` (every 100 ms) until it gives a non-null value; null if never. */
export async function poll<T>(probe: () => Promise<T | null>, ms = 3000): Promise<T | null> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== null || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

export { resultText }
