/**
 * What the answer keys of ZNC do by hand, as a person with curl would: read a webadmin page with
 * the saved session, take the fields of one of its forms as the browser would submit them (the
 * `_CSRF_Check` token among them), post them back with some changed, and read values out of the
 * edit pages to judge the state afterwards.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'

/** The webadmin module's pages. */
export const WEBADMIN = '/mods/global/webadmin'

/** Undoes the HTML escaping ZNC's templates apply to values. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** A run's result as one searchable string, HTML escapes undone. */
export function resultText(result: unknown): string {
  return unescapeHtml(typeof result === 'string' ? result : JSON.stringify(result ?? ''))
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** GETs a page with the saved session; throws unless ZNC answers 200 (not a redirect to login). */
export async function getPage(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { session })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return html
}

/** The value of an attribute in one tag's text, unescaped; null when absent. */
function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return m ? unescapeHtml(m[1]!) : null
}

/**
 * The fields the form posting to `action` (a path under the webadmin) would submit as it stands
 * on the page, in page order: enabled inputs (checked boxes and radios only, no buttons),
 * textareas and selected options. The browser drops the newline right after `<textarea>`.
 */
export function formFields(html: string, action: string): Array<[string, string]> {
  const start = html.indexOf(`<form action="${WEBADMIN}/${action}" method="post">`)
  if (start < 0) throw new Error(`the page holds no form posting to ${action}`)
  const form = html.slice(start, html.indexOf('</form>', start))
  const fields: Array<[string, string]> = []
  const control =
    /<input\b[^>]*>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>|<select\b[^>]*>([\s\S]*?)<\/select>/g
  for (const m of form.matchAll(control)) {
    const tag = m[0].slice(0, m[0].indexOf('>') + 1)
    const name = attr(tag, 'name')
    if (!name || /\sdisabled="disabled"/.test(tag)) continue
    if (tag.startsWith('<textarea')) {
      fields.push([name, unescapeHtml(m[1]!.replace(/^\r?\n/, ''))])
    } else if (tag.startsWith('<select')) {
      const options = [...m[2]!.matchAll(/<option\b[^>]*>/g)].map((o) => o[0])
      const chosen = options.find((o) => /\sselected="selected"/.test(o)) ?? options[0]
      if (chosen) fields.push([name, attr(chosen, 'value') ?? ''])
    } else {
      const type = (attr(tag, 'type') ?? 'text').toLowerCase()
      if (type === 'submit' || type === 'button') continue
      if ((type === 'checkbox' || type === 'radio') && !/\schecked="checked"/.test(tag)) continue
      fields.push([name, attr(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')])
    }
  }
  return fields
}

/** Replaces the value of every field named `name` (adding it when absent). */
export function setField(fields: Array<[string, string]>, name: string, value: string): void {
  const at = fields.findIndex(([n]) => n === name)
  if (at < 0) fields.push([name, value])
  else fields[at] = [name, value]
}

/** The first value of field `name`, or null. */
export function field(fields: Array<[string, string]>, name: string): string | null {
  return fields.find(([n]) => n === name)?.[1] ?? null
}

/**
 * Posts `fields` urlencoded to the webadmin page `action`, as the form's submit button does, and
 * returns ZNC's status and redirect. A saved form answers 302; an error page answers 200.
 */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  action: string,
  fields: Array<[string, string]>,
): Promise<{ status: number; location: string; body: string }> {
  const res = await app.fetch(`${WEBADMIN}/${action}`, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() }
}

/** What a user's edit page shows: its IRC identity and the names of its networks. */
export interface UserState {
  nick: string
  ident: string
  realName: string
  networks: string[]
}

/** Reads user `name` from its edit page; null when ZNC has no such user. */
export async function readUser(
  app: AppInstance,
  session: StorageState,
  name: string,
): Promise<UserState | null> {
  const res = await app.fetch(`${WEBADMIN}/edituser?user=${encodeURIComponent(name)}`, {
    session,
  })
  const html = await res.text()
  // An unknown user gets the error page ("No such username") instead of the form.
  if (res.status !== 200 || !html.includes(`<form action="${WEBADMIN}/edituser"`)) return null
  const fields = formFields(html, 'edituser')
  return {
    nick: field(fields, 'nick') ?? '',
    ident: field(fields, 'ident') ?? '',
    realName: field(fields, 'realname') ?? '',
    networks: fields.filter(([n]) => n === 'network').map(([, v]) => v),
  }
}

/** What a network's edit page shows: whether ZNC connects it, and its server lines. */
export interface NetworkState {
  active: boolean
  servers: string[]
}

/** Reads network `network` of user `user` from its edit page; null when it does not exist. */
export async function readNetwork(
  app: AppInstance,
  session: StorageState,
  user: string,
  network: string,
): Promise<NetworkState | null> {
  const query = new URLSearchParams({ user, network })
  const res = await app.fetch(`${WEBADMIN}/editnetwork?${query}`, { session })
  const html = await res.text()
  if (res.status !== 200 || !html.includes(`<form action="${WEBADMIN}/editnetwork"`)) return null
  const fields = formFields(html, 'editnetwork')
  return {
    active: field(fields, 'doconnect') !== null,
    servers: (field(fields, 'servers') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  }
}

/** The names the user list shows (the webadmin's Manage Users page). */
export async function listUsers(app: AppInstance, session: StorageState): Promise<string[]> {
  const html = await getPage(app, session, `${WEBADMIN}/listusers`)
  return [...html.matchAll(/edituser\?user=([^"&]+)"/g)].map((m) => decodeURIComponent(m[1]!))
}
