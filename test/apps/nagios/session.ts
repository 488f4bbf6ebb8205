/**
 * Signing in to Nagios' web interface and using it by hand, as a person with curl would. Apache
 * guards every page of Nagios with HTTP Basic auth (no session cookie); the CGIs take the user
 * from it. The one cookie is cmd.cgi's CSRF cookie (`NagFormId`), set by a command's form page
 * and checked, with the form's hidden `nagFormId` field, when the form is committed.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { CGI } from './seed'
import {
  basicAuthorization,
  fetchBasic,
  signInBasic as signInBasicAt,
  type BasicUser,
} from '../basicAuth'
import { resultText } from '../match'

export { basicAuthorization, fetchBasic }

/**
 * Checks the credentials with one request (the program status as JSON) and returns the storage
 * state a browser holds afterwards: empty, since Basic auth leaves no cookie or localStorage.
 * Throws when Apache refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, {
    path: `${CGI}/statusjson.cgi?query=programstatus`,
    app: 'Nagios',
  })
}

/** Reads a statusjson.cgi query's `data`, signed in; throws unless Nagios answered success. */
async function statusJson<T>(app: AppInstance, session: StorageState, query: string): Promise<T> {
  const res = await app.fetch(`${CGI}/statusjson.cgi?${query}`, { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`statusjson.cgi?${query} answered ${res.status}`)
  const body = JSON.parse(text) as { result: { type_text: string; message: string }; data: T }
  if (body.result.type_text !== 'Success')
    throw new Error(`statusjson.cgi?${query}: ${body.result.message}`)
  return body.data
}

/** What statusjson.cgi tells of one service (the fields the keys read). */
export interface ServiceStatus {
  host_name: string
  description: string
  status: number
  plugin_output: string
  last_check: number
  next_check: number
  notifications_enabled: boolean
  problem_has_been_acknowledged: boolean
  scheduled_downtime_depth: number
}

/** One service's status, signed in. */
export async function serviceStatus(
  app: AppInstance,
  session: StorageState,
  host: string,
  service: string,
): Promise<ServiceStatus> {
  const q = new URLSearchParams({ query: 'service', hostname: host, servicedescription: service })
  return (await statusJson<{ service: ServiceStatus }>(app, session, q.toString())).service
}

/** One comment as statusjson.cgi lists it (times in milliseconds). */
export interface CommentStatus {
  comment_id: number
  comment_type: number
  host_name: string
  service_description?: string
  entry_type: number
  author: string
  comment_data: string
}

/** Every comment, by id. */
export async function comments(app: AppInstance, session: StorageState): Promise<CommentStatus[]> {
  const data = await statusJson<{ commentlist: Record<string, CommentStatus> }>(
    app,
    session,
    'query=commentlist&details=true',
  )
  return Object.values(data.commentlist)
}

/** One scheduled downtime as statusjson.cgi lists it (times in milliseconds). */
export interface DowntimeStatus {
  downtime_id: number
  host_name: string
  service_description?: string
  start_time: number
  end_time: number
  fixed: boolean
  duration: number
  comment: string
}

/** Every scheduled downtime. */
export async function downtimes(
  app: AppInstance,
  session: StorageState,
): Promise<DowntimeStatus[]> {
  const data = await statusJson<{ downtimelist: Record<string, DowntimeStatus> }>(
    app,
    session,
    'query=downtimelist&details=true',
  )
  return Object.values(data.downtimelist)
}

/**
 * Sends one command as the person does in two steps: GETs the command's form page
 * (`cmd.cgi?cmd_typ=N&...`, which sets the CSRF cookie `NagFormId` and repeats it in the hidden
 * field `nagFormId`), then POSTs the form with `cmd_mod=2`, the cookie and the field. Throws
 * unless Nagios says the command was submitted (it carries it out a moment later).
 */
export async function sendCommand(
  app: AppInstance,
  session: StorageState,
  formQuery: Record<string, string>,
  fields: Record<string, string>,
): Promise<void> {
  const form = await app.fetch(`${CGI}/cmd.cgi?${new URLSearchParams(formQuery)}`, { session })
  const html = await form.text()
  const cookie = /NagFormId=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')?.[1]
  const hidden = /NAME='nagFormId' VALUE='([^']+)'/i.exec(html)?.[1]
  if (!cookie || !hidden) throw new Error(`cmd.cgi's form set no CSRF cookie (${form.status})`)
  const body = new URLSearchParams({
    nagFormId: hidden,
    cmd_typ: formQuery.cmd_typ!,
    cmd_mod: '2',
    ...fields,
    btnSubmit: 'Commit',
  })
  const res = await app.fetch(`${CGI}/cmd.cgi`, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `NagFormId=${cookie}` },
    body,
  })
  const answer = await res.text()
  if (res.status !== 200 || !answer.includes('successfully submitted'))
    throw new Error(`cmd.cgi refused command ${formQuery.cmd_typ}: ${pageText(answer).slice(-300)}`)
}

/** A page's text without tags and with runs of white space folded. */
export function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
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

export { resultText }
