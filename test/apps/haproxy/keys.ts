/**
 * What the answer keys of HAProxy do by hand, as a person with curl would: post the stats page's
 * admin form, read a server's state from the CSV export, search a read's answer.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { backendField } from './seed'
import { readServers } from './session'
import { resultText } from '../match'
import { getText } from '../sessionFetch'

export { getText }

/**
 * The admin form's POST for `action`: the page posts to its own URL (`/` here), the form fields
 * `s=<server>` (one per ticked box), `action=<value>` and `b=#<backend id>`.
 */
export function actionKey(action: string): RequestKey {
  return { method: 'POST', path: '/', operation: { field: 'action', value: action } }
}

/**
 * Posts the admin form as Apply does, ticking `server` in `backend`'s table. HAProxy answers
 * 303 to `/;st=DONE` when it did it; `;st=ERRP` (no such server or backend), `;st=NONE`
 * (nothing ticked) and the others mean nothing changed, and throw.
 */
export async function postAction(
  app: AppInstance,
  session: StorageState,
  backend: string,
  server: string,
  action: string,
): Promise<void> {
  const body = new URLSearchParams({ s: server, action, b: backendField(backend) })
  const res = await app.fetch('/', {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  })
  await res.arrayBuffer()
  const where = res.headers.get('location') ?? ''
  if (res.status !== 303 || !where.endsWith(';st=DONE'))
    throw new Error(`${action} of ${backend}/${server} answered ${res.status} ${where}`)
}

/** The status the CSV export shows for `backend`/`server` (`UP`, `MAINT`, `DRAIN`, `no check`). */
export async function statusOf(
  app: AppInstance,
  session: StorageState,
  backend: string,
  server: string,
): Promise<string> {
  const rows = await readServers(app.fetch, session)
  const row = rows.find((r) => r.backend === backend && r.server === server)
  if (!row) throw new Error(`the CSV export has no server ${backend}/${server}`)
  return row.status
}

export { resultText }

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
