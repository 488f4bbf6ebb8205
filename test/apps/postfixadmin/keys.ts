/**
 * What the answer keys of PostfixAdmin do by hand, as a person with curl would: read the session's
 * CSRF token from a page, post a form, and read the app's state back from its own CSV export
 * (`list.php?table=<t>&output=csv`), which lists every row of a table with its fields.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { pageToken } from './session'

/** The form page a create/edit opens first: it carries the session's CSRF token. */
export const FORM_PAGE = (table: string): RequestKey => ({
  method: 'GET',
  path: '/edit.php',
  operation: { field: 'table', value: table },
})
/** The virtual list (mailboxes and aliases of a domain): its links and forms carry the token. */
export const VIRTUAL_LIST: RequestKey = { method: 'GET', path: '/list-virtual.php' }
/** The create/edit post of one table (`edit.php?table=<t>`, with `edit=<id>` when editing). */
export const EDIT_POST = (table: string): RequestKey => ({
  method: 'POST',
  path: '/edit.php',
  operation: { field: 'table', value: table },
})

/** The session's CSRF token, read from `path` (any page with a form). */
export async function sessionToken(
  app: AppInstance,
  session: StorageState,
  path = '/list-virtual.php',
): Promise<string> {
  const res = await app.fetch(path, { session })
  const token = pageToken(await res.text())
  if (!token) throw new Error(`no token in ${path} (${res.status})`)
  return token
}

/**
 * Posts `fields` (with the session's token) to `path` as a browser posts a form; returns the
 * answer's status and Location. PostfixAdmin answers a done change with a 302.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string; body: string }> {
  const token = await sessionToken(app, session)
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, ...fields }),
  })
  return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() }
}

/** Splits one CSV line (PostfixAdmin quotes fields holding commas, spaces or quotes). */
function csvLine(line: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(cur)
      cur = ''
    } else cur += c
  }
  out.push(cur)
  return out
}

/**
 * The rows of a table's CSV export (`domain`, `mailbox`, `alias`), as objects keyed by the
 * export's column titles (`Username`, `Quota`, `Active`, `Alias`, `To`, `Domain`, ...). Read in a
 * session of its own: the export filters by the domain last opened in the virtual list and by
 * the last search, both kept in the PHP session, so the caller's session could hide rows.
 */
async function csvRows(
  app: AppInstance,
  _session: StorageState,
  table: string,
  domain?: string,
): Promise<Array<Record<string, string>>> {
  const q = new URLSearchParams({ table, output: 'csv' })
  if (domain) q.set('domain', domain)
  const res = await app.fetch(`/list.php?${q}`, { session: await app.signIn() })
  const text = (await res.text()).replace(/^\uFEFF/, '')
  if (res.status !== 200) throw new Error(`CSV export of ${table} answered ${res.status}`)
  const [head, ...lines] = text.split(/\r?\n/).filter((l) => l.trim())
  const titles = csvLine(head ?? '')
  return lines.map((l) => {
    const cells = csvLine(l)
    return Object.fromEntries(titles.map((t, i) => [t, cells[i] ?? '']))
  })
}

/** One row of a table's CSV export whose `column` equals `value`, or undefined. */
export async function csvRow(
  app: AppInstance,
  session: StorageState,
  table: string,
  column: string,
  value: string,
  domain?: string,
): Promise<Record<string, string> | undefined> {
  return (await csvRows(app, session, table, domain)).find((r) => r[column] === value)
}

/** The domain part of an address. */
export const domainOf = (address: string) => address.slice(address.indexOf('@') + 1)

/**
 * Whether a mailbox user can log in to PostfixAdmin's user pages (`/users/login.php`) with
 * `password`: proves a mailbox's password without reading its hash.
 */
export async function mailboxLogsIn(
  app: AppInstance,
  username: string,
  password: string,
): Promise<boolean> {
  const first = await app.fetch('/users/login.php')
  const token = pageToken(await first.text())
  const cookie = /postfixadmin_session=[^;]+/.exec(first.headers.getSetCookie().join('\n'))?.[0]
  if (!token || !cookie) throw new Error('the user login page gave no token/session')
  const res = await app.fetch('/users/login.php', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ token, fUsername: username, fPassword: password, lang: 'en' }),
  })
  await res.arrayBuffer()
  return res.status === 302 && /main\.php/.test(res.headers.get('location') ?? '')
}

/** A run's result as one searchable string (HTML entities of addresses unescaped). */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/&#64;|%40/g, '@')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
