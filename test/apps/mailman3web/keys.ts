/**
 * What the answer keys of the Mailman suite do by hand: name Postorius's requests (pages under
 * `/postorius/lists/<list id>/...`, told apart by path; a list id such as
 * `team.lists.example.org` is a path segment), and read the app's state back through Mailman
 * core's REST API (HTTP Basic as the instance's REST admin), as an admin with curl would.
 */
import type { AppInstance, RequestKey } from '../types'
import { coreCall, listId } from './seed'

/** Core's REST API root of each running instance (`http://127.0.0.1:PORT/3.1`). */
export const coreApis = new WeakMap<AppInstance, string>()

/** A GET of core's REST API `path` on `app`'s core. */
function core<T = unknown>(app: AppInstance, path: string): Promise<T> {
  const api = coreApis.get(app)
  if (!api) throw new Error('this instance has no Mailman core API recorded')
  return coreCall<T>(api, path)
}

/** A page of one list: `/postorius/lists/<list id>/<rest>` with any list id. */
export function listPage(method: string, rest: string): RequestKey {
  return { method, path: new RegExp(`/postorius/lists/[^/]+/${rest}`) }
}

/** The member list of a list (`.../members/member/`, GET with `?q=` to search, POST to remove). */
export const MEMBERS_PAGE = 'members/member/'

/** The addresses subscribed as members of the list named `name`. */
export async function memberEmails(app: AppInstance, name: string): Promise<string[]> {
  const roster = await core<{ entries?: Array<{ email: string }> }>(
    app,
    `/lists/${listId(name)}/roster/member`,
  )
  return (roster.entries ?? []).map((m) => m.email)
}

/** The posting addresses of every list (`team@lists.example.org`, ...). */
export async function listAddresses(app: AppInstance): Promise<string[]> {
  const lists = await core<{ entries?: Array<{ fqdn_listname: string }> }>(app, '/lists')
  return (lists.entries ?? []).map((l) => l.fqdn_listname)
}

/** The list `name`'s configuration as core holds it. */
export function listConfig(app: AppInstance, name: string): Promise<Record<string, unknown>> {
  return core<Record<string, unknown>>(app, `/lists/${listId(name)}/config`)
}

/** The addresses banned from the list `name`. */
export async function bannedEmails(app: AppInstance, name: string): Promise<string[]> {
  const bans = await core<{ entries?: Array<{ email: string }> }>(
    app,
    `/lists/${listId(name)}/bans`,
  )
  return (bans.entries ?? []).map((b) => b.email)
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
