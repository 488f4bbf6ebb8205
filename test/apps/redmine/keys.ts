import type { StorageState } from '../../../src/shared/trace'
import type { AnswerKey, AppInstance } from '../types'
import { apiGet, csrfToken, withSetCookies } from './http'
import { ADMIN } from './seed'

/** A tool's result as text, whatever shape the engine gave it (HTML string, JSON, ...). */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/**
 * True when a sign-in's result is Redmine's redirect away from the sign-in forms: the engine
 * answers a form post acknowledged by a redirect with `{status, location, title}`, and Redmine
 * redirects (to `back_url`, `/` or `/my/page`) only once the login is complete; a wrong
 * password or code shows the form again with 200, and a first factor redirects to
 * `/account/twofa/confirm`.
 */
export function signedInRedirect(result: unknown): boolean {
  if (result === null || typeof result !== 'object') return false
  const { status, location } = result as { status?: unknown; location?: unknown }
  if (typeof status !== 'number' || status < 300 || status > 399) return false
  if (typeof location !== 'string' || !location) return false
  return !/\/(login|account\/twofa)/.test(new URL(location, 'http://127.0.0.1/').pathname)
}

/**
 * Runs a key's check on what a hand-made request answered and throws its complaint: how every
 * `replayByHand` ends, so the hand replay and the tool's run are judged by the same code.
 */
export async function judgeByHand(
  key: AnswerKey,
  app: AppInstance,
  session: StorageState,
  result: unknown,
): Promise<void> {
  const used = key.inputs.map((input) => input.changed[0])
  const problem = await key.check(app, { status: 'succeeded', result }, session, used)
  if (problem) throw new Error(problem)
}

/** GETs a page signed in and returns its HTML (throws unless 200). */
export async function page(app: AppInstance, session: StorageState, path: string): Promise<string> {
  return (await pageWithToken(app, session, path)).html
}

/**
 * GETs a page signed in and returns its HTML, the Rails CSRF token it carries, and the session
 * as the page left it (the token only holds with that cookie, see `withSetCookies`).
 */
export async function pageWithToken(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<{ html: string; token: string; session: StorageState }> {
  const res = await app.fetch(path, { session })
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  const html = await res.text()
  return { html, token: csrfToken(html), session: withSetCookies(session, res) }
}

/**
 * POSTs a urlencoded form signed in, as curl would, and returns the answer's status and
 * Location (Redmine answers a successful form post with a 302 to the record).
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string; body: string }> {
  const res = await app.fetch(path, { method: 'POST', body: new URLSearchParams(fields), session })
  return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() }
}

/** An issue as the REST API shows it (the fields the checks read). */
export interface IssueJson {
  id: number
  subject: string
  status: { id: number; name: string }
  attachments?: Array<{ filename: string }>
  journals?: Array<{ notes: string }>
}

/** Reads one issue through the REST API as the admin (basic auth; the API ignores sessions). */
export async function readIssue(app: AppInstance, id: number, include = ''): Promise<IssueJson> {
  const query = include ? `?include=${include}` : ''
  const body = await apiGet<{ issue: IssueJson }>(app.origin, `/issues/${id}.json${query}`, ADMIN)
  return body.issue
}

/** Every issue of a project, open or closed, through the REST API. */
export async function readIssues(app: AppInstance, project: string): Promise<IssueJson[]> {
  const body = await apiGet<{ issues: IssueJson[] }>(
    app.origin,
    `/projects/${project}/issues.json?status_id=*&limit=100`,
    ADMIN,
  )
  return body.issues
}
