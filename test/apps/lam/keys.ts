/**
 * What the answer keys of LDAP Account Manager do by hand: name LAM's requests (a page by its
 * path, a post by the submit button's field that says what it does), send a page's form as the
 * browser does (with the `sec_token` and, in the account editor, the `editKey` the page prints),
 * and read the directory itself (ldapsearch as the admin, on the instance's private slapd) to
 * see what a tool changed.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { ADMIN, SUFFIX } from './seed'
import { runCommand } from '../childProcess'
import { LDAP_URLS } from './server'

/** One entry as ldapsearch prints it: its DN and each attribute's values (names lower-cased). */
export interface LdapEntry {
  dn: string
  attrs: Record<string, string[]>
}

/**
 * The entries under `base` (scope `sub` unless told) that `filter` finds, read straight from the
 * instance's slapd as the admin. An empty list when the base itself does not exist.
 */
export async function ldapEntries(
  app: AppInstance,
  base: string = SUFFIX,
  filter = '(objectClass=*)',
  scope: 'base' | 'one' | 'sub' = 'sub',
): Promise<LdapEntry[]> {
  const url = LDAP_URLS.get(app.origin)
  if (!url) throw new Error(`no LDAP server for ${app.origin}`)
  let out: string
  try {
    out = await runCommand('/usr/bin/ldapsearch', [
      ...['-x', '-LLL', '-o', 'ldif-wrap=no', '-H', url, '-D', ADMIN.dn, '-w', ADMIN.password],
      ...['-b', base, '-s', scope, filter],
    ])
  } catch (error) {
    // ldapsearch exits 32 (noSuchObject) when the base is gone.
    if (/No such object|exit code 32|code: 32/.test(String(error))) return []
    throw error
  }
  const entries: LdapEntry[] = []
  for (const block of out.split(/\n\n+/)) {
    const lines = block.split('\n').filter((l) => l !== '')
    if (!lines[0]?.startsWith('dn:')) continue
    const entry: LdapEntry = { dn: ldifLine(lines[0]).value, attrs: {} }
    for (const line of lines.slice(1)) {
      const { name, value } = ldifLine(line)
      ;(entry.attrs[name.toLowerCase()] ??= []).push(value)
    }
    entries.push(entry)
  }
  return entries
}

/** An LDIF line `name: value` or `name:: base64` (RFC 2849), decoded. */
function ldifLine(line: string): { name: string; value: string } {
  const m = /^([^:]+)(::?) ?(.*)$/.exec(line)
  if (!m) return { name: line, value: '' }
  return { name: m[1]!, value: m[2] === '::' ? Buffer.from(m[3]!, 'base64').toString() : m[3]! }
}

/** The one entry `dn`, or null when it does not exist. */
export async function ldapEntry(app: AppInstance, dn: string): Promise<LdapEntry | null> {
  return (await ldapEntries(app, dn, '(objectClass=*)', 'base'))[0] ?? null
}

/** The values of `attr` of entry `dn` ([] when the entry or the attribute is missing). */
export async function ldapValues(app: AppInstance, dn: string, attr: string): Promise<string[]> {
  return (await ldapEntry(app, dn))?.attrs[attr.toLowerCase()] ?? []
}

/** A request to `templates/<page>` (the path under the origin), told apart by a field if given. */
export function page(method: string, path: string, field?: string, value = ''): RequestKey {
  const key: RequestKey = { method, path: `/templates/${path}` }
  if (field) key.operation = { field, value }
  return key
}

/**
 * The account editor's save: the editor form posted (multipart) to
 * `account/edit.php?editKey=...` with the Save button's field `accountContainerSaveAccount`.
 */
export const SAVE_ACCOUNT: RequestKey = page(
  'POST',
  'account/edit.php',
  'accountContainerSaveAccount',
)

/**
 * The account editor's page (`account/edit.php?type=...`, with `DN=` for an existing entry):
 * it loads the entry into the PHP session and prints the `editKey` every later post of the
 * editor names in its URL, and the session's `sec_token`.
 */
export const EDITOR_PAGE: RequestKey = { method: 'GET', path: '/templates/account/edit.php' }

/** A page's hidden `sec_token` (LAM's CSRF token: one per session, in every form). */
function secToken(html: string): string {
  const m = /name="sec_token"[^>]*value="([^"]+)"/.exec(html)
  if (!m) throw new Error('the page holds no sec_token')
  return m[1]!
}

/** Gets `path` signed in with `session` (redirects followed) and returns its text. */
export async function getPage(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string> {
  const res = await app.fetch(path, { session, redirect: 'follow' })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/**
 * Opens the account editor at `editorPath` (`/templates/account/edit.php?type=user[&DN=...]`)
 * and posts `steps` to it one after the other, as the browser does when a person fills a tab and
 * clicks a button (each step is that tab's fields plus the button's field); returns the last
 * answer's text. The editKey and sec_token come from the editor's page.
 */
export async function postEditor(
  app: AppInstance,
  session: StorageState,
  editorPath: string,
  steps: Array<Array<[string, string]>>,
): Promise<string> {
  const html = await getPage(app, session, editorPath)
  const editKey = /editKey=(editContainer[A-Za-z0-9]+)/.exec(html)?.[1]
  if (!editKey) throw new Error(`${editorPath} holds no editKey`)
  const token = secToken(html)
  let text = ''
  for (const fields of steps) {
    const form = new FormData()
    form.append('sec_token', token)
    for (const [name, value] of fields) form.append(name, value)
    const res = await app.fetch(`/templates/account/edit.php?editKey=${editKey}`, {
      method: 'POST',
      session,
      body: form,
      redirect: 'follow',
    })
    text = await res.text()
    if (res.status !== 200) throw new Error(`the editor's post answered ${res.status}`)
  }
  return text
}

/** Posts `fields` urlencoded to `path`, signed in, with the session's sec_token added. */
export async function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
  tokenFrom: string,
): Promise<{ status: number; text: string }> {
  const token = secToken(await getPage(app, session, tokenFrom))
  const res = await app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([['sec_token', token], ...fields]),
    redirect: 'follow',
  })
  return { status: res.status, text: await res.text() }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
