/**
 * What the answer keys of Tryton do by hand: name sao's JSON-RPC calls (all `POST /tryton/`, told
 * apart by the body's `method`), and read the app's state back by RPC as the admin, as a person
 * with curl would.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { call } from './session'

/** The RPC call `method` (`model.party.party.write`). */
export function rpcKey(method: string): RequestKey {
  return { method: 'POST', path: '/tryton/', operation: { field: 'method', value: method } }
}

/** Calls `method` with `params` (sao's empty context appended) as `session`'s user. */
export function rpcCall<T = unknown>(
  app: AppInstance,
  session: StorageState,
  method: string,
  ...params: unknown[]
): Promise<T> {
  return call<T>(app.origin, session, method, [...params, {}])
}

/** Every party (active ones): id, name, categories, contact mechanisms, addresses. */
export function parties(app: AppInstance, session: StorageState) {
  return rpcCall<
    Array<{ id: number; name: string; categories: number[]; contact_mechanisms: number[] }>
  >(app, session, 'model.party.party.search_read', [], 0, null, null, [
    'name',
    'categories',
    'contact_mechanisms',
    'addresses',
  ])
}

/** The party named `name`, or undefined. */
export async function partyNamed(app: AppInstance, session: StorageState, name: string) {
  return (await parties(app, session)).find((p) => p.name === name)
}

/** The addresses of the party `id`. */
export function addressesOf(app: AppInstance, session: StorageState, id: number) {
  return rpcCall<Array<{ street: string; city: string; postal_code: string }>>(
    app,
    session,
    'model.party.address.search_read',
    [['party', '=', id]],
    0,
    null,
    null,
    ['street', 'city', 'postal_code'],
  )
}

/** The category names, by id. */
export async function categories(app: AppInstance, session: StorageState) {
  const rows = await rpcCall<Array<{ id: number; name: string }>>(
    app,
    session,
    'model.party.category.search_read',
    [],
    0,
    null,
    null,
    ['name'],
  )
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** Whether `result` (a tool's answer) mentions `text` anywhere. */
export function mentions(result: unknown, text: string): boolean {
  return JSON.stringify(result ?? null).includes(text)
}

/** Throws when a key's check found a problem (the self-check's replay by hand). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
