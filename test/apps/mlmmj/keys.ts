/**
 * What the answer keys of the mlmmj web admin share: its requests by name (four PHP pages, the
 * list in a `list` query or form field; the Subscribers page's two forms told apart by their
 * submit buttons), the check that a list's other settings survived a save, and the self-check's
 * assertion.
 */
import type { RequestKey } from '../types'
import { DOMAIN, seedList } from './seed'
import type { ListSettings } from './session'

/** A list's Config page: `GET /edit.php?list=<list>` (the form holding every current value). */
export const CONFIG_PAGE: RequestKey = { method: 'GET', path: '/edit.php' }

/**
 * The Config form's post: `POST /save.php` with `list` and every tunable. save.php rewrites every
 * tunable it knows from the post: a text left out is deleted, a box left out is switched off.
 */
export const SAVE: RequestKey = { method: 'POST', path: '/save.php' }

/** A list's Subscribers page: `GET /subscribers.php?list=<list>`. */
export const SUBSCRIBERS_PAGE: RequestKey = { method: 'GET', path: '/subscribers.php' }

/** "Add subscribers": `POST /subscribers.php?list=<list>` with `tosubscribe` and `submit=Add`. */
export const ADD_SUBSCRIBERS: RequestKey = {
  method: 'POST',
  path: '/subscribers.php',
  operation: { field: 'submit', value: 'Add' },
}

/** A row's Remove: `POST /subscribers.php?list=<list>` with `email` and `delete=Remove`. */
export const REMOVE_SUBSCRIBER: RequestKey = {
  method: 'POST',
  path: '/subscribers.php',
  operation: { field: 'delete', value: 'Remove' },
}

/**
 * What is wrong with `settings` of the seeded list `name` beyond the tunables in `changed` (every
 * other seeded flag still on, every other seeded value still there), or null.
 */
export function otherSettingsKept(
  name: string,
  settings: ListSettings,
  changed: string[],
): string | null {
  const seed = seedList(name)
  if (settings.values.listaddress !== `${name}@${DOMAIN}`)
    return `${name}'s list address is now ${JSON.stringify(settings.values.listaddress ?? '')}`
  for (const flag of seed.flags)
    if (!changed.includes(flag) && !settings.flags.has(flag))
      return `${name}'s "${flag}" was switched off`
  for (const [tunable, value] of Object.entries(seed.values))
    if (!changed.includes(tunable) && settings.values[tunable] !== value)
      return `${name}'s "${tunable}" is now ${JSON.stringify(settings.values[tunable] ?? '')}, was ${JSON.stringify(value)}`
  return null
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
