/**
 * Signing in to Icecast's admin pages and reading its state by hand, as a person with curl would.
 * The admin pages are HTTP Basic only (`<admin-user>`/`<admin-password>`): no session, no cookie,
 * no token. Every admin page has a raw XML twin without the `.xsl` (`/admin/listclients?mount=`
 * for `/admin/listclients.xsl?mount=`); the keys read those, and the public `/status-json.xsl`.
 */
import { readFileSync } from 'node:fs'
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { htpasswdFile } from './server'
import { fetchBasic, signInBasic as signInBasicAt, type BasicUser } from '../basicAuth'

export { fetchBasic }

/**
 * Checks the credentials with one request (`GET /admin/listmounts`, raw XML) and returns the
 * storage state a browser holds afterwards: empty, since Basic auth leaves no cookie or
 * localStorage behind. Throws when Icecast refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/admin/listmounts', app: 'Icecast' })
}

/** The text of an XML element's first `<tag>` child in `xml`, entities decoded; null if none. */
function element(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)
  return m ? decodeXml(m[1]!) : null
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

/** Each `<source mount="...">...</source>` of an Icecast XML answer: mount and inner XML. */
function sources(xml: string): Array<{ mount: string; body: string }> {
  return [...xml.matchAll(/<source mount="([^"]*)">([\s\S]*?)<\/source>/g)].map((m) => ({
    mount: decodeXml(m[1]!),
    body: m[2]!,
  }))
}

/** GETs an admin path signed in; the answer's text, or null when Icecast answered 400 (no such mount). */
async function adminXml(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<string | null> {
  const res = await app.fetch(path, { session })
  const text = await res.text()
  if (res.status === 400) return null
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`)
  return text
}

/** One live mount in the raw mount list. */
export interface MountRow {
  mount: string
  listeners: number
}

/** The live mounts (`GET /admin/listmounts`, raw XML), sorted by mount as Icecast lists them. */
export async function readMounts(app: AppInstance, session: StorageState): Promise<MountRow[]> {
  const xml = (await adminXml(app, session, '/admin/listmounts')) ?? ''
  return sources(xml).map((s) => ({
    mount: s.mount,
    listeners: Number(element(s.body, 'listeners') ?? 0),
  }))
}

/** One listener of a mount: Icecast's connection id, user agent, and login on a members mount. */
export interface ListenerRow {
  id: number
  userAgent: string
  username: string | null
}

/**
 * The listeners of `mount` (`GET /admin/listclients?mount=`, raw XML); null when the mount is not
 * live (Icecast answers 400 "Source does not exist").
 */
export async function readListeners(
  app: AppInstance,
  session: StorageState,
  mount: string,
): Promise<ListenerRow[] | null> {
  const xml = await adminXml(app, session, `/admin/listclients?mount=${encodeURIComponent(mount)}`)
  if (xml === null) return null
  return [...xml.matchAll(/<listener>([\s\S]*?)<\/listener>/g)].map((m) => ({
    id: Number(element(m[1]!, 'ID')),
    userAgent: element(m[1]!, 'UserAgent') ?? '',
    username: element(m[1]!, 'username'),
  }))
}

/**
 * The account names of an authenticated mount, from its htpasswd file, which Icecast rewrites on
 * every add and delete. Not from `GET /admin/manageauth?mount=`: that lists Icecast's cached copy,
 * which misses a second change made within the same second as the first (it re-reads the file
 * only when its mtime, in whole seconds, differs from the one it read).
 */
export function readAccounts(app: AppInstance, mount: string): string[] {
  return readFileSync(htpasswdFile(app.origin, mount), 'utf8')
    .split('\n')
    .filter((line) => line.includes(':'))
    .map((line) => line.slice(0, line.indexOf(':')))
}

/** Each live mount's song title, from the public `/status-json.xsl` (mount → title, '' if none). */
export async function readTitles(app: AppInstance): Promise<Map<string, string>> {
  const res = await app.fetch('/status-json.xsl')
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET /status-json.xsl answered ${res.status}`)
  const stats = (JSON.parse(text) as { icestats: { source?: unknown } }).icestats
  // One live source is an object, several an array (Icecast's xml2json).
  const list = [stats.source ?? []].flat() as Array<{ listenurl: string; title?: string | number }>
  return new Map(list.map((s) => [new URL(s.listenurl).pathname, String(s.title ?? '')]))
}
