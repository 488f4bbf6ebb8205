/**
 * What the answer keys of Zabbix do by hand: name the frontend's requests (`zabbix.php` by its
 * `action` field, the old-style pages by their path and submit field), and read the app's state
 * back through its own JSON-RPC API (`api_jsonrpc.php`, signed in as Admin), as a person with
 * curl would.
 */
import type { AppInstance, RequestKey } from '../types'
import { ADMIN, apiCall } from './seed'

/** A `zabbix.php` request told apart by its `action` field (query or form body). */
export function action(method: string, name: string): RequestKey {
  return { method, path: '/zabbix.php', operation: { field: 'action', value: name } }
}

/**
 * A signed-in page that holds the session's `sid` (every form and list page prints it): a tool
 * reads one before a form POST.
 */
export const SID_PAGE: RequestKey = {
  method: 'GET',
  path: /\/(zabbix|hostgroups|maintenance)\.php/,
}

/** The multiselect's lookup (`jsrpc.php?method=multiselect.get`): names to ids as one types. */
export const MULTISELECT_LOOKUP: RequestKey = {
  method: 'GET',
  path: '/jsrpc.php',
  operation: { field: 'method', value: 'multiselect.get' },
}

const tokens = new WeakMap<AppInstance, Promise<string>>()

/** One API call on `app`, signed in as Admin once per instance. */
export async function api<T = unknown>(app: AppInstance, method: string, params: unknown) {
  let token = tokens.get(app)
  if (!token) {
    token = apiCall<string>(
      app.origin,
      'user.login',
      { username: ADMIN.name, password: ADMIN.password },
      null,
    )
    tokens.set(app, token)
  }
  return apiCall<T>(app.origin, method, params, await token)
}

/** The id of the host group named `name`, or undefined. */
export async function hostGroupId(app: AppInstance, name: string): Promise<string | undefined> {
  const groups = await api<Array<{ groupid: string }>>(app, 'hostgroup.get', {
    output: ['groupid'],
    filter: { name: [name] },
  })
  return groups[0]?.groupid
}

/** The names of every host group. */
export async function hostGroupNames(app: AppInstance): Promise<string[]> {
  const groups = await api<Array<{ name: string }>>(app, 'hostgroup.get', { output: ['name'] })
  return groups.map((g) => g.name)
}

/** The id of the user named `username`, or undefined. */
export async function userId(app: AppInstance, username: string): Promise<string | undefined> {
  const users = await api<Array<{ userid: string }>>(app, 'user.get', {
    output: ['userid'],
    filter: { username: [username] },
  })
  return users[0]?.userid
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
