/**
 * Signing in to Roundcube over plain HTTP and talking to it as its own page script does: the
 * login form's `_token` comes with the `roundcube_sessid` cookie from the login page; a good login
 * answers 302 and sets `roundcube_sessauth`. Every later AJAX call (`_remote=1`) carries the
 * session's request token in the `X-Roundcube-Request` header, which each page holds in
 * `rcmail.set_env({"request_token": ...})`.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { cookieHeader, mergeCookies, setCookiesOf } from '../sessionFetch'

/** The value of the hidden `<input name="...">` in `html`, or null. */
function hiddenField(html: string, name: string): string | null {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0]
  return tag ? (/value="([^"]*)"/.exec(tag)?.[1] ?? '') : null
}

/**
 * Logs in with the login form's fields (`_token`, `_task`, `_action`, `_timezone`, `_url`,
 * `_user`, `_pass`) and returns the cookies a browser would hold afterwards. Throws when
 * Roundcube did not sign the user in (it answers a wrong password with the form, status 401).
 */
export async function signInByHttp(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const host = new URL(origin).hostname
  const form = await fetch(`${origin}/?_task=login`, { redirect: 'manual' })
  const token = hiddenField(await form.text(), '_token')
  if (!token) throw new Error(`the login page holds no _token (${form.status})`)
  let cookies = setCookiesOf(form.headers, host)
  const res = await fetch(`${origin}/?_task=login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({
      _token: token,
      _task: 'login',
      _action: 'login',
      _timezone: 'UTC',
      _url: '',
      _user: user.name,
      _pass: user.password,
    }),
  })
  await res.arrayBuffer()
  cookies = mergeCookies(cookies, setCookiesOf(res.headers, host))
  if (res.status !== 302 || !cookies.some((c) => c.name === 'roundcube_sessauth'))
    throw new Error(`Roundcube refused the login of ${user.name} (${res.status})`)
  return { cookies, origins: [] }
}

/** The session's request token, read from the mail page as the page script reads it. */
export async function requestToken(app: AppInstance, session: StorageState): Promise<string> {
  const res = await app.fetch('/?_task=mail&_mbox=INBOX', { session })
  const html = await res.text()
  const token = /"request_token":"([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`the mail page holds no request token (${res.status})`)
  return token
}

/**
 * One AJAX call as `rcmail.http_get`/`http_post` sends it: `_remote=1` and the request token in
 * `X-Roundcube-Request`; a POST sends `fields` form-encoded (with `_remote=1`) to the query
 * `?_task=<task>&_action=<action>`. Resolves with the JSON answer; throws on a non-200 answer.
 */
export async function remote(
  app: AppInstance,
  session: StorageState,
  method: 'GET' | 'POST',
  task: string,
  action: string,
  fields: Record<string, string>,
  token?: string,
): Promise<{ exec?: string; env?: Record<string, unknown>; [k: string]: unknown }> {
  const tok = token ?? (await requestToken(app, session))
  const params = new URLSearchParams({ _task: task, _action: action })
  const body = new URLSearchParams({ ...fields, _remote: '1' })
  const path = method === 'GET' ? `/?${params}&${body}` : `/?${params}`
  const res = await app.fetch(path, {
    method,
    session,
    headers: {
      'x-roundcube-request': tok,
      'x-requested-with': 'XMLHttpRequest',
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: method === 'POST' ? body : undefined,
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${task}/${action} answered ${res.status}`)
  return JSON.parse(text) as { exec?: string }
}

/** One row of a message list answer (`this.add_message_row(uid, cols, flags)`). */
export interface ListRow {
  uid: number
  subject: string
  flagged: boolean
}

/** The rows of a `list`/`search` answer's `exec` script. */
function listRows(exec: string | undefined): ListRow[] {
  const rows: ListRow[] = []
  for (const m of (exec ?? '').matchAll(/add_message_row\((\d+),(\{.*?\}),(\{.*?\}),/g)) {
    const cols = JSON.parse(m[2]!) as { subject?: string }
    const flags = JSON.parse(m[3]!) as { flagged?: number }
    const subject = (cols.subject ?? '').replace(/<[^>]*>/g, '')
    rows.push({ uid: Number(m[1]), subject: decodeHtml(subject), flagged: !!flags.flagged })
  }
  return rows
}

/** Unescapes the HTML entities Roundcube puts in list columns. */
export function decodeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The rows of `mailbox` as the list shows them (first page, 50 rows). */
export async function listMailbox(
  app: AppInstance,
  session: StorageState,
  mailbox: string,
  token?: string,
): Promise<ListRow[]> {
  const answer = await remote(
    app,
    session,
    'GET',
    'mail',
    'list',
    { _mbox: mailbox, _page: '1', _refresh: '1' },
    token,
  )
  return listRows(answer.exec)
}
