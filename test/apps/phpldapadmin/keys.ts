/**
 * What the answer keys of phpLDAPadmin do by hand: post a form to cmd.php as the page does, and
 * read the directory itself (ldapsearch as the admin, on the instance's private slapd) to see
 * what a tool changed.
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
      '-x',
      '-LLL',
      '-o',
      'ldif-wrap=no',
      '-H',
      url,
      '-D',
      ADMIN.dn,
      '-w',
      ADMIN.password,
      '-b',
      base,
      '-s',
      scope,
      filter,
    ])
  } catch (error) {
    // ldapsearch exits 32 (noSuchObject) when the base is gone.
    if (/No such object|exit code 32|code: 32/.test(String(error))) return []
    throw error
  }
  const entries: LdapEntry[] = []
  for (const block of out.split(/\n\n+/)) {
    const lines = block.split('\n').filter((l) => l !== '')
    if (!lines.length || !lines[0]!.startsWith('dn:')) continue
    const entry: LdapEntry = { dn: decodeLine(lines[0]!).value, attrs: {} }
    for (const line of lines.slice(1)) {
      const { name, value } = decodeLine(line)
      ;(entry.attrs[name.toLowerCase()] ??= []).push(value)
    }
    entries.push(entry)
  }
  return entries
}

/** An LDIF line `name: value` or `name:: base64`. */
function decodeLine(line: string): { name: string; value: string } {
  const m = /^([^:]+)(::?) ?(.*)$/.exec(line)
  if (!m) return { name: line, value: '' }
  const value = m[2] === '::' ? Buffer.from(m[3]!, 'base64').toString('utf8') : m[3]!
  return { name: m[1]!, value }
}

/** The one entry `dn`, or null when it does not exist. */
export async function ldapEntry(app: AppInstance, dn: string): Promise<LdapEntry | null> {
  const found = await ldapEntries(app, dn, '(objectClass=*)', 'base')
  return found[0] ?? null
}

/** The values of `attr` of entry `dn` ([] when the entry or the attribute is missing). */
export async function ldapValues(app: AppInstance, dn: string, attr: string): Promise<string[]> {
  return (await ldapEntry(app, dn))?.attrs[attr.toLowerCase()] ?? []
}

/** `cmd.php` with `cmd` as its operation field (query or form), as every request of the app. */
export function cmd(name: string, method = 'GET'): RequestKey {
  return { method, path: '/cmd.php', operation: { field: 'cmd', value: name } }
}

/**
 * Posts `fields` to cmd.php as a page's form does (urlencoded), signed in with `session`, and
 * returns the answer (redirects not followed: an update answers 302 to the entry's page).
 */
export async function postCmd(
  app: AppInstance,
  session: StorageState,
  fields: Array<[string, string]>,
): Promise<{ status: number; location: string; text: string }> {
  const res = await app.fetch('/cmd.php', {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() }
}

/** Gets `cmd.php?<query>` signed in and returns its text; throws on an HTTP error. */
export async function getCmd(
  app: AppInstance,
  session: StorageState,
  query: Record<string, string>,
): Promise<string> {
  const res = await app.fetch(`/cmd.php?${new URLSearchParams(query)}`, { session })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`cmd.php?cmd=${query.cmd} answered ${res.status}`)
  return text
}

/** A run's result as one searchable string, with the HTML escapes phpLDAPadmin uses undone. */
export function resultText(result: unknown): string {
  const raw = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return raw
    .replace(/\\u003[dD]/g, '=')
    .replace(/\\u0026/g, '&')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&#0?61;/g, '=')
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/**
 * A read's check: null when the result holds every text `expected` gives for the value used and
 * none of the texts `forbidden` gives for it (the answers to the other values), so a tool that
 * ignored its input and answered the recorded query does not pass.
 */
export function resultMatches(
  result: unknown,
  used: string | number | boolean | undefined,
  expected: Record<string, { has: string[]; lacks: string[] }>,
): string | null {
  const value = String(used)
  const want = expected[value]
  if (!want) return `no expectation for ${value}`
  const text = resultText(result)
  for (const t of want.has)
    if (!text.includes(t)) return `the result lacks ${t} (asked for ${value})`
  for (const t of want.lacks)
    if (text.includes(t)) return `the result holds ${t}, which ${value} does not find`
  return null
}
