/**
 * What the answer keys of Cacti do by hand: name Cacti's requests (a page by its path and the
 * `action` field that tells its operations apart), and read Cacti's state straight from its
 * MariaDB over the instance's socket, as an administrator with the `mariadb` client would.
 */
import type { AppInstance, RequestKey } from '../types'
import { DB, sql } from './mariadb'

const sockets = new WeakMap<AppInstance, string>()

/** Ties a started instance to its MariaDB socket (its `start()` calls this). */
export function rememberSocket(app: AppInstance, socket: string): void {
  sockets.set(app, socket)
}

/** Rows of `query` run on the instance's Cacti database (fields as text, NULL as `NULL`). */
export function query(app: AppInstance, statement: string): Promise<string[][]> {
  const socket = sockets.get(app)
  if (!socket) throw new Error(`no MariaDB socket is known for ${app.origin}`)
  return sql(socket, statement, DB.name)
}

/** A SQL string literal of `value`. */
export function literal(value: string | number | boolean): string {
  return `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** A POST to `path` told apart by its `action` form field. */
export function post(path: string, action: string): RequestKey {
  return { method: 'POST', path, operation: { field: 'action', value: action } }
}

/** The id of the device described as `description`, or undefined. */
export async function deviceId(app: AppInstance, description: string): Promise<string | undefined> {
  const rows = await query(app, `SELECT id FROM host WHERE description = ${literal(description)}`)
  return rows[0]?.[0]
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
