/**
 * Talking to the private CUPS by hand, as a person with curl would: plain HTTP to the web
 * interface (nobody signs in, see NOTES.md), the `org.cups.sid` cookie and form field the CGIs
 * want on every POST, and reading a job's or a printer's state back from the HTML pages.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchWithSession } from '../sessionFetch'
import type { AppInstance, RequestKey } from '../types'

/**
 * The dependency of every write's key: the form's sid comes from a page a CGI rendered (it sets
 * the cookie and prints the same value in every form), so a tool must GET one of the web
 * interface's pages before it posts. Static files (`/cups.css`, the icons) only echo a cookie the
 * browser already sends; they never create one. The person read the list or the queue's page;
 * any of them gives the same sid.
 */
export const READS_A_PAGE: RequestKey = {
  method: 'GET',
  path: /\/(jobs|printers|classes|admin)(\/.*)?/,
}

/** `fetch(origin + path)` with the session's cookies when given; redirects not followed. */
export function fetchCups(
  origin: string,
  path: string,
  init: RequestInit & { session?: StorageState } = {},
): Promise<Response> {
  return fetchWithSession(origin, path, init)
}

/**
 * A fresh `org.cups.sid`: the CGIs set it as a cookie on the first page they render and put the
 * same value in a hidden field of every form; a POST is carried out only when both agree. Read
 * from the Administration page, as a browser gets it.
 */
async function freshSid(app: AppInstance): Promise<string> {
  const res = await app.fetch('/admin/')
  const html = await res.text()
  const cookie = res.headers
    .getSetCookie()
    .map((c) => /^org\.cups\.sid=([^;]+)/.exec(c)?.[1])
    .find(Boolean)
  const field = /NAME="org\.cups\.sid" VALUE="([^"]+)"/.exec(html)?.[1]
  if (!cookie || cookie !== field) throw new Error('GET /admin/ gave no org.cups.sid')
  return cookie
}

/**
 * POSTs a form of the web interface (`path` `/admin/`, `/jobs/`, `/printers/<name>`) with a
 * fresh sid in cookie and field, as the browser does; multipart when `multipart` (the add-printer
 * form's last steps). Returns the page CUPS answered with; throws unless 200.
 */
export async function postForm(
  app: AppInstance,
  path: string,
  fields: Record<string, string>,
  multipart = false,
): Promise<string> {
  const sid = await freshSid(app)
  const all = { 'org.cups.sid': sid, ...fields }
  let body: URLSearchParams | FormData
  if (multipart) {
    body = new FormData()
    for (const [k, v] of Object.entries(all)) body.append(k, v)
  } else body = new URLSearchParams(all)
  const res = await app.fetch(path, {
    method: 'POST',
    headers: { cookie: `org.cups.sid=${sid}` },
    body,
  })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`)
  return html
}

/** GETs `path` and returns its text; throws unless CUPS answered 200. */
export async function getText(app: AppInstance, path: string): Promise<string> {
  const res = await app.fetch(path)
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/** A job's state as the job list words it. */
export type JobState =
  'pending' | 'held' | 'processing' | 'stopped' | 'canceled' | 'aborted' | 'completed'

/**
 * The state of job `id` from the list of all jobs (`/jobs/?which_jobs=all`), or null when the job
 * is not listed. Each row starts with `<printer></A>-<id>&nbsp;` and its State cell reads
 * "held since", "pending since", "canceled at", ...
 */
export async function jobState(app: AppInstance, id: number | string): Promise<JobState | null> {
  const html = await getText(app, '/jobs/?which_jobs=all')
  const rows = html.split('<TR VALIGN="TOP">').slice(1)
  const row = rows.find((r) => new RegExp(`</A>-${id}&nbsp;`).test(r))
  if (!row) return null
  // The template breaks the cell's line before the later states: allow whitespace.
  const state = /<TD>\s*(pending|held|processing|stopped|canceled|aborted|completed)\b/.exec(row)
  return (state?.[1] as JobState | undefined) ?? null
}

/** The page of queue `name` (`/printers/<name>`): its heading holds Idle/Processing/Paused. */
export async function printerPage(app: AppInstance, name: string): Promise<string> {
  return getText(app, `/printers/${encodeURIComponent(name)}`)
}

/** The heading of a queue's page: `office-laser (Idle, Accepting Jobs, Not Shared)`. */
export function printerHeading(html: string): string {
  const h2 = /<H2 CLASS="title">([\s\S]*?)<\/H2>/.exec(html)?.[1] ?? ''
  return h2
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The `media=` default a queue's page shows (`iso_a4_210x297mm`, `na_letter_8.5x11in`). */
export function mediaDefault(html: string): string | null {
  return /media=([^\s<]+)/.exec(html)?.[1] ?? null
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
