/**
 * What the answer keys of Tomcat do by hand: open a Manager or Host Manager page for its session
 * and CSRF nonce, post one of its forms, and read the server's state back through the text APIs
 * (as the separate `checker` account, never the person's).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { CHECKER } from './seed'
import { NONCE_FIELD, basicAuthorization, visitOf, type Visit } from './session'
import { resultText as plainResultText } from '../match'

/** The page whose HTML hands out the Manager's nonce (and sets its session cookie). */
export const MANAGER_PAGE: RequestKey = { method: 'GET', path: '/manager/html' }
/** The same for the Host Manager. */
export const HOST_MANAGER_PAGE: RequestKey = { method: 'GET', path: '/host-manager/html' }

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** GETs `path` as the checker (text APIs, status) and returns the text; throws unless 200. */
async function checkerText(app: AppInstance, path: string): Promise<string> {
  const res = await app.fetch(path, { headers: { authorization: basicAuthorization(CHECKER) } })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/** One line of the Manager's text list: `/shop:running:5:shop`. */
export interface AppState {
  running: boolean
  sessions: number
}

/** Every deployed app of `localhost`, by context path. */
export async function listApps(app: AppInstance): Promise<Map<string, AppState>> {
  const text = await checkerText(app, '/manager/text/list')
  const apps = new Map<string, AppState>()
  for (const line of text.split('\n').slice(1)) {
    const [path, state, sessions] = line.trim().split(':')
    if (path && state) apps.set(path, { running: state === 'running', sessions: Number(sessions) })
  }
  return apps
}

/** The virtual hosts Host Manager's text API lists, each with its aliases. */
export async function listHosts(app: AppInstance): Promise<Map<string, string[]>> {
  const text = await checkerText(app, '/host-manager/text/list')
  const hosts = new Map<string, string[]>()
  // One line per host: `[name]:[alias,alias]`.
  for (const line of text.split('\n').slice(1)) {
    const found = /^\[([^\]]*)\]:\[([^\]]*)\]$/.exec(line.trim())
    if (found?.[1]) hosts.set(found[1], (found[2] ?? '').split(',').filter(Boolean))
  }
  return hosts
}

/** Opens `page` (`/manager/html`, `/host-manager/html`) signed in: its cookie and nonce. */
async function visit(app: AppInstance, session: StorageState, page: string): Promise<Visit> {
  const res = await app.fetch(page, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}`)
  return visitOf(res, html)
}

/** The text of the page's "Message:" box (`OK - Stopped application ...`), entities decoded. */
function messageOf(html: string): string {
  const pre = /Message:[\s\S]*?<pre>([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? ''
  return pre
    .replace(/&#47;/g, '/')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim()
}

/**
 * Posts an admin form as its button does: `POST <action>?<query>&<nonce>` with the page's session
 * cookie, the form's fields as the body (a FormData for the upload). Returns the message the
 * answer page shows; throws unless it starts with `OK`.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  page: string,
  action: string,
  query: Record<string, string>,
  body: URLSearchParams | FormData = new URLSearchParams(),
): Promise<string> {
  const v = await visit(app, session, page)
  const search = new URLSearchParams({ ...query, [NONCE_FIELD]: v.nonce })
  const res = await app.fetch(`${action}?${search}`, {
    method: 'POST',
    session,
    headers: { cookie: v.cookie },
    body,
  })
  const html = await res.text()
  const message = messageOf(html)
  if (res.status !== 200 || !message.startsWith('OK'))
    throw new Error(`POST ${action} answered ${res.status}: ${message || html.slice(0, 200)}`)
  return message
}

/**
 * When the app at `path` last started (ms), from the complete server status ("Start time: Sun
 * Nov 29 07:11:06 UTC 2026", to the second); throws when the status lists no such app.
 */
export async function startTimeOf(app: AppInstance, path: string): Promise<number> {
  const html = await checkerText(app, '/manager/status/all')
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#47;/g, '/')
    .replace(/\s+/g, ' ')
  const found = new RegExp(
    `localhost${path} State: \\w+ Start time: ([^:]+:\\d\\d:\\d\\d \\w+ \\d{4})`,
  ).exec(text)
  if (!found?.[1]) throw new Error(`the server status shows no start time of ${path}`)
  const ms = Date.parse(found[1])
  if (Number.isNaN(ms)) throw new Error(`unreadable start time of ${path}: ${found[1]}`)
  return ms
}

/** A run's result as one searchable string (`match.ts`), Tomcat's escaped slashes (`&#47;`) read back. */
export function resultText(result: unknown): string {
  return plainResultText(result).replace(/&#47;/g, '/')
}
