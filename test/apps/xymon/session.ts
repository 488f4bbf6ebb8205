/**
 * Signing in to Xymon's admin pages and using Xymon by hand, as a person with curl would.
 * lighttpd guards `/xymon-seccgi/` (enadis, acknowledge, criticaleditor) with HTTP Basic auth (no
 * session cookie); the public pages and CGIs need no login. The admin CGIs refuse a POST whose
 * Referer is not one of their own pages (Xymon's CSRF check): a browser sends it by itself, curl
 * with `-e`, so the hand-made requests here do too.
 *
 * The keys read Xymon's state straight from xymond with Xymon's own client (`xymon 127.0.0.1:PORT
 * "xymondboard ..."`, `"schedule"`), as an admin on the server would.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchBasic, signInBasic as signInBasicAt, type BasicUser } from '../basicAuth'
import { runCommand } from '../childProcess'
import { resultText } from '../match'
import type { AppInstance } from '../types'
import { SECURE, XYMON_BIN, fqdn } from './seed'

export { fetchBasic, resultText }

/** Checks the credentials with one GET of the Enable/disable page; the state is empty. */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: `${SECURE}/enadis.sh`, app: 'Xymon' })
}

/** The xymond port of each running instance, by origin (the keys talk to xymond directly). */
const XYMOND_PORTS = new Map<string, number>()

export function registerXymond(origin: string, port: number): void {
  XYMOND_PORTS.set(origin, port)
}

export function forgetXymond(origin: string): void {
  XYMOND_PORTS.delete(origin)
}

/** Sends one message to the instance's xymond with Debian's `xymon` client; returns its answer. */
async function xymond(app: AppInstance | string, message: string): Promise<string> {
  const origin = typeof app === 'string' ? app : app.origin
  const port = XYMOND_PORTS.get(origin)
  if (!port) throw new Error(`no xymond known for ${origin}`)
  return runCommand(`${XYMON_BIN}/xymon`, [`127.0.0.1:${port}`, message], { timeout: 15_000 })
}

/** What xymond tells of one status (the fields the keys read). */
export interface BoardEntry {
  host: string
  test: string
  color: string
  /** Until when the test is disabled (seconds since the epoch), 0 when it is not. */
  disableTime: number
  disableMessage: string
  /** Until when the alert is acknowledged (seconds), 0 when it is not. */
  ackTime: number
  ackMessage: string
}

/** One status of the board; throws when xymond does not know it. */
export async function boardEntry(
  app: AppInstance,
  host: string,
  test: string,
): Promise<BoardEntry> {
  const line = (
    await xymond(
      app,
      `xymondboard host=^${fqdn(host).replace(/\./g, '\\.')}$ test=^${test}$ fields=hostname,testname,color,disabletime,dismsg,acktime,ackmsg`,
    )
  ).trim()
  if (!line) throw new Error(`xymond knows no status ${host}.${test}`)
  const [h, t, color, dis, dismsg, ack, ackmsg] = line.split('|')
  return {
    host: h!,
    test: t!,
    color: color!,
    disableTime: Number(dis) || 0,
    disableMessage: unescape(dismsg ?? ''),
    ackTime: Number(ack) || 0,
    ackMessage: unescape(ackmsg ?? ''),
  }
}

/** xymond's `\n` escapes in a board field back to new lines. */
function unescape(text: string): string {
  return text.replace(/\\n/g, '\n')
}

/** One scheduled job as xymond lists it: id, when (seconds), the command. */
export interface ScheduledJob {
  id: number
  at: number
  command: string
}

/** Every scheduled job. */
export async function scheduledJobs(app: AppInstance): Promise<ScheduledJob[]> {
  return (await xymond(app, 'schedule'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [id, at, , ...rest] = l.split('|')
      return { id: Number(id), at: Number(at), command: unescape(rest.join('|')) }
    })
}

/** The Referer a browser sends from a page of the instance: the page itself. */
function referer(app: AppInstance, path: string): Record<string, string> {
  return { referer: `${app.origin}${path}` }
}

/**
 * POSTs a form to an admin CGI as the browser does from that CGI's own page: signed in, with the
 * Referer of the page, form-encoded; returns the status and the body.
 */
export async function postAdminForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<{ status: number; text: string; location: string | null }> {
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...referer(app, path) },
    body: new URLSearchParams(fields).toString(),
  })
  return { status: res.status, text: await res.text(), location: res.headers.get('location') }
}

/** A page's text without tags and with runs of white space folded. */
export function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Polls `probe` until it returns null (or the time is up) and returns its last answer. */
export async function settle(
  probe: () => Promise<string | null>,
  timeoutMs = 8000,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const problem = await probe()
    if (problem === null || Date.now() > deadline) return problem
    await new Promise((r) => setTimeout(r, 300))
  }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
