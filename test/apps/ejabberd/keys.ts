/**
 * What ejabberd's answer keys use: the web admin paths a workflow's target has, and reads of the
 * server's state by hand through the instance's `mod_http_api` (accounts, passwords, rosters,
 * shared roster groups), as an admin with `ejabberdctl` would check a change.
 */
import type { AppInstance, RequestKey } from '../types'
import { resultText } from '../match'
import { HOST } from './seed'
import { apiOf } from './session'

/** The host's pages under web admin: `/admin/server/<host>/`. */
const HOST_PATH = `/admin/server/${HOST}/`
/** The Users page of the workflows' host: every account, and the "Add User" form. */
export const USERS_PATH = `${HOST_PATH}users/`

/** The Users page of any virtual host `host`. */
export function usersPath(host: string): string {
  return `/admin/server/${encodeURIComponent(host)}/users/`
}

/** Any virtual host's Users page, the host a path segment. */
export const USERS_PAGE = /\/admin\/server\/[^/]+\/users\//
/** The Shared Roster Groups page: every group, and the "Add New" form. */
export const GROUPS_PATH = `${HOST_PATH}shared-roster/`

/** An account's page (password, roster count, "Remove User"). */
export function accountPath(user: string): string {
  return `${HOST_PATH}user/${encodeURIComponent(user)}/`
}

/** An account's roster page (its contacts, "Add Jabber ID"). */
export function rosterPath(user: string): string {
  return `${accountPath(user)}roster/`
}

/** A shared roster group's page (label, description, members, displayed groups). */
export function groupPath(name: string): string {
  return `${GROUPS_PATH}${encodeURIComponent(name)}/`
}

const escapedHost = HOST.replace(/\./g, '\\.')
/** Any account's page, the account's local part a path segment. */
export const ACCOUNT_PAGE = new RegExp(`/admin/server/${escapedHost}/user/[^/]+/`)
/** Any account's roster page. */
export const ROSTER_PAGE = new RegExp(`/admin/server/${escapedHost}/user/[^/]+/roster/`)
/** Any shared roster group's page. */
export const GROUP_PAGE = new RegExp(`/admin/server/${escapedHost}/shared-roster/[^/]+/`)

/**
 * A web admin form post: `POST <path>` whose pressed submit button (its `name`, with its label
 * as value) tells this action from the page's other buttons.
 */
export function buttonKey(path: string | RegExp, button: string, label: string): RequestKey {
  return { method: 'POST', path, operation: { field: button, value: label } }
}

/** True when `user@HOST` is an account (`check_account` answers 0). */
export async function accountExists(app: AppInstance, user: string): Promise<boolean> {
  return (await apiOf(app)('check_account', { user, host: HOST })) === 0
}

/** True when `user@HOST`'s password is `password` (`check_password` answers 0). */
export async function passwordIs(
  app: AppInstance,
  user: string,
  password: string,
): Promise<boolean> {
  return (await apiOf(app)('check_password', { user, host: HOST, password })) === 0
}

/** One roster entry as `get_roster` gives it. */
export interface RosterItem {
  jid: string
  nick: string
  subscription: string
  ask: string
  group: string
}

/** `user@HOST`'s roster (`get_roster`). */
export async function rosterOf(app: AppInstance, user: string): Promise<RosterItem[]> {
  return (await apiOf(app)('get_roster', { user, host: HOST })) as RosterItem[]
}

/** The names of the host's shared roster groups (`srg_list`). */
export async function groupNames(app: AppInstance): Promise<string[]> {
  return (await apiOf(app)('srg_list', { host: HOST })) as string[]
}

/** A group's label, description and member JIDs (`srg_get_info`, `srg_get_members`). */
export async function groupState(
  app: AppInstance,
  name: string,
): Promise<{ label: string; description: string; members: string[] }> {
  const api = apiOf(app)
  const info = (await api('srg_get_info', { group: name, host: HOST })) as Array<{
    key: string
    value: string
  }>
  const value = (key: string) => info.find((i) => i.key === key)?.value ?? ''
  const members = (await api('srg_get_members', { group: name, host: HOST })) as string[]
  return { label: value('label'), description: value('description'), members: members.sort() }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

export { resultText }
