/**
 * Signing in to the mlmmj web admin and reading its state by hand, as a person with curl would.
 * The login is HTTP Basic only (Debian's `.htaccess`, done here by the router): no cookie, no
 * session, no token. A browser that answered the prompt once sends `Authorization: Basic` with
 * every later request; a saved login of such a site is an empty storage state plus the user name
 * and password.
 */
import type { StorageState } from '../../../src/shared/trace'
import { fetchBasic, signInBasic as signInBasicAt, type BasicUser } from '../basicAuth'
import type { AppInstance } from '../types'

export { fetchBasic }

/**
 * Checks the credentials with one `GET /index.php` (the list index) and returns the empty storage
 * state Basic auth leaves behind. Throws when the router refuses them.
 */
export function signInBasic(origin: string, user: BasicUser): Promise<StorageState> {
  return signInBasicAt(origin, user, { path: '/index.php', app: 'mlmmj web admin' })
}

/** The text of an HTML attribute or element, entities decoded (PHP's htmlentities undone). */
function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** A list's tunables as its Config page (`edit.php`) shows them. */
export interface ListSettings {
  /** Boolean tunables that are ticked. */
  flags: Set<string>
  /** Text and list tunables (text boxes and text areas), '' when unset. */
  values: Record<string, string>
}

/** Parses the Config page's form: checkboxes, text boxes and text areas by name. */
function parseSettings(html: string): ListSettings {
  const flags = new Set<string>()
  const values: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="checkbox" name="([^"]+)" value="1"( checked)?>/g))
    if (m[2]) flags.add(m[1]!)
  for (const m of html.matchAll(/<input type="text" name="([^"]+)" value="([^"]*)">/g))
    values[m[1]!] = unescapeHtml(m[2]!)
  for (const m of html.matchAll(/<textarea name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g))
    values[m[1]!] = unescapeHtml(m[2]!)
  return { flags, values }
}

/** Reads the list `name`'s Config page signed in and parses it. */
export async function readSettings(app: AppInstance, name: string): Promise<ListSettings> {
  const session: StorageState = { cookies: [], origins: [] }
  const res = await app.fetch(`/edit.php?list=${encodeURIComponent(name)}`, { session })
  const html = await res.text()
  if (res.status !== 200 || !html.includes('<form method="post" action="save.php">'))
    throw new Error(`the Config page of ${name} answered ${res.status}: ${html.slice(0, 200)}`)
  return parseSettings(html)
}

/** The addresses a Subscribers page lists (one table row each, with its Remove form). */
function parseSubscribers(html: string): string[] {
  return [...html.matchAll(/<tr><td>([^<]+)<\/td><td><form/g)].map((m) => unescapeHtml(m[1]!))
}

/** Reads the list `name`'s Subscribers page signed in. */
export async function readSubscribers(app: AppInstance, name: string): Promise<string[]> {
  const session: StorageState = { cookies: [], origins: [] }
  const res = await app.fetch(`/subscribers.php?list=${encodeURIComponent(name)}`, { session })
  const html = await res.text()
  if (res.status !== 200 || !html.includes(`<h1>${name} subscribers</h1>`))
    throw new Error(`the Subscribers page of ${name} answered ${res.status}: ${html.slice(0, 200)}`)
  return parseSubscribers(html)
}

/**
 * Posts a form (`application/x-www-form-urlencoded`) signed in, as the browser sends it; fields
 * in order, repeated names allowed.
 */
export function postForm(
  app: AppInstance,
  session: StorageState,
  path: string,
  fields: Array<[string, string]>,
): Promise<Response> {
  return app.fetch(path, {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

/**
 * The fields the Config form of a list would post with `settings` (what the page showed):
 * `list`, every text box and text area, the ticked boxes as `1`, and the submit button.
 */
export function settingsForm(list: string, settings: ListSettings): Array<[string, string]> {
  return [
    ['list', list],
    ...Object.entries(settings.values),
    ...[...settings.flags].map((f): [string, string] => [f, '1']),
    ['submit', 'Submit'],
  ]
}
