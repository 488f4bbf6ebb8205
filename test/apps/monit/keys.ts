/**
 * What Monit's answer keys do by hand, as a person with curl would: post a service page's form
 * with its token, read a service's state from the XML status, search a read's answer.
 */
import type { StorageState } from '../../../src/shared/trace'
import { delay } from '../childProcess'
import type { AppInstance, RequestKey } from '../types'
import { SERVICE_PATH } from './seed'
import { pageToken, postForm, readStates, type ServiceState } from './session'
import { resultText } from '../match'

/**
 * A Monit instance of this corpus: an {@link AppInstance} that also knows the pid each seeded
 * process had when Monit started, so the restart check can tell a restarted process from one
 * that has run since the start (Monit shows the pid, nothing that counts restarts).
 */
export interface MonitInstance extends AppInstance {
  seededPids: Record<string, number>
}

/** The pid `name` had when the instance started; throws when `app` is not a Monit instance. */
export function seededPid(app: AppInstance, name: string): number {
  const pids = (app as Partial<MonitInstance>).seededPids
  const pid = pids?.[name]
  if (!pid) throw new Error(`the instance knows no seeded pid of ${name}`)
  return pid
}

/** A service page's button: `POST /<service>` whose form field `action` names what it does. */
export function actionKey(action: string): RequestKey {
  return { method: 'POST', path: SERVICE_PATH, operation: { field: 'action', value: action } }
}

/**
 * The read a form post needs first: a Monit page whose answer sets the `securitytoken` cookie
 * and holds the same value in the form. The person's is the service page itself; any page of the
 * interface (the home page too) sets the cookie, and the double-submit check only compares the
 * field with the cookie, so any GET of a Monit page counts.
 */
export const TOKEN_PAGE: RequestKey = { method: 'GET', path: /\/[A-Za-z0-9_.-]*/ }

/**
 * Presses a service page's button by hand: reads the page for its token, then posts
 * `securitytoken=<token>&action=<action>` with the token as cookie too. Monit answers 302 back to
 * the page once it queued the action (it does it a moment later); anything else throws.
 */
export async function postAction(
  app: AppInstance,
  session: StorageState,
  service: string,
  action: string,
): Promise<void> {
  const token = await pageToken(app, session, `/${service}`)
  const res = await postForm(app, session, `/${service}`, token, { action })
  if (res.status !== 302 || res.location !== `/${service}`)
    throw new Error(`${action} of ${service} answered ${res.status} ${res.location}`)
}

/**
 * Reads the states of `names` until `problem` (given each one's state, in that order) is null, or
 * 10 s passed: Monit carries out an action asked from the page a moment after answering it (a
 * stop waits for the process to end). Returns the last problem, or null.
 */
export async function settlesTo(
  app: AppInstance,
  session: StorageState,
  names: string[],
  problem: (states: ServiceState[]) => string | null,
): Promise<string | null> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const all = await readStates(app.fetch, session)
    const states = names.map((n) => {
      const found = all.find((s) => s.name === n)
      if (!found) throw new Error(`Monit lists no service ${n}`)
      return found
    })
    const why = problem(states)
    if (!why || Date.now() > deadline) return why
    await delay(300)
  }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

export { resultText }
