/**
 * What the answer keys of Icinga Web 2 do by hand: name its requests (a page's form posts back
 * to the page's own path), and read the app's state back from its own pages (the user, group
 * and role lists, a group's members, the preferences form), signed in as the admin, as a person
 * with curl would.
 */
import type { StorageState } from '../../../src/shared/trace'
import { getText } from '../sessionFetch'
import type { AppInstance, RequestKey } from '../types'

/**
 * A signed-in page that holds a `CSRFToken` (every form prints one, made from the session id, so
 * any of them is good for any form of the session): a tool reads one before a form POST.
 */
export const TOKEN_PAGE: RequestKey = {
  method: 'GET',
  path: /\/(user|group|role|navigation|account|dashboard)(\/.*)?/,
}

/** Decodes the few HTML entities Icinga's templates write into names and values. */
function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The names the rows of a list page link to with `field=` (`user`, `group`), all on one page. */
async function listed(
  app: AppInstance,
  session: StorageState,
  path: string,
  field: string,
): Promise<string[]> {
  const html = await getText(app, session, path)
  const names = new Set<string>()
  const re = new RegExp(`[?&;]${field}=([^"&]+)"`, 'g')
  for (const m of html.matchAll(re))
    names.add(decodeURIComponent(unescape(m[1]!).replace(/\+/g, ' ')))
  return [...names]
}

/** Every user of the database backend. */
export function userNames(app: AppInstance, session: StorageState): Promise<string[]> {
  return listed(app, session, '/user/list?limit=500', 'user')
}

/** Every group of the database backend. */
export function groupNames(app: AppInstance, session: StorageState): Promise<string[]> {
  return listed(app, session, '/group/list?limit=500', 'group')
}

/** The members of group `group`: its page has a remove form per member naming it. */
export async function groupMembers(
  app: AppInstance,
  session: StorageState,
  group: string,
): Promise<string[]> {
  const path = `/group/show?backend=icingaweb2&group=${encodeURIComponent(group)}&limit=500`
  const html = await getText(app, session, path)
  return [...html.matchAll(/name="user_name\[\]" value="([^"]+)"/g)].map((m) => unescape(m[1]!))
}

/** Every role's name. */
export function roleNames(app: AppInstance, session: StorageState): Promise<string[]> {
  return listed(app, session, '/role/list', 'role')
}

/** The text of the field `name` (an input's value or a textarea's text) in `html`. */
export function fieldText(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)
  if (input) return unescape(input[1]!)
  const area = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([^<]*)</textarea>`).exec(html)
  return area ? unescape(area[1]!) : undefined
}

/** The option picked in the select `name` of `html`. */
export function selected(html: string, name: string): string | undefined {
  const start = html.indexOf(`<select name="${name}"`)
  if (start < 0) return undefined
  const select = html.slice(start, html.indexOf('</select>', start))
  return /<option value="([^"]*)" selected="selected"/.exec(select)?.[1]
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
