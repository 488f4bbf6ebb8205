/**
 * What Supervisor's answer keys do by hand, as a person with curl would: follow an action link of
 * the status page, read the programs' states and logs over XML-RPC, search a read's answer.
 */
import type { StorageState } from '../../../src/shared/trace'
import { delay } from '../childProcess'
import type { AppInstance, RequestKey } from '../types'
import { readStates, type ProcessInfo } from './session'
import { resultText } from '../match'

/**
 * A Supervisor instance of this corpus: an {@link AppInstance} that also knows each running
 * program's pid when it was ready, so a restart check can tell a restarted program from one that
 * has run since the start.
 */
export interface SupervisorInstance extends AppInstance {
  seededPids: Record<string, number>
  /**
   * Each program's pid at the last "Restart All" check (the seeded pids before the first): a
   * later restart-all must have given every program a new process (see `workflows/all.ts`).
   */
  restartAllPids: Record<string, number>
}

/** The Supervisor instance behind `app`; throws when it is not one of this corpus. */
export function supervisorOf(app: AppInstance): SupervisorInstance {
  const inst = app as Partial<SupervisorInstance>
  if (!inst.seededPids || !inst.restartAllPids)
    throw new Error('the instance is not a Supervisor instance of this corpus')
  return inst as SupervisorInstance
}

/** The pid `spec` had when the instance was ready; throws when it did not run then. */
export function seededPid(app: AppInstance, spec: string): number {
  const pid = supervisorOf(app).seededPids[spec]
  if (!pid) throw new Error(`the instance knows no seeded pid of ${spec}`)
  return pid
}

/**
 * An action link of the status page: `GET /index.html?...&action=<action>` (a program's row:
 * `processname=<group:name>&action=...`; the buttons above the table: only `action=...`).
 */
export function actionKey(action: string): RequestKey {
  return { method: 'GET', path: '/index.html', operation: { field: 'action', value: action } }
}

/**
 * Follows an action link by hand: `GET /index.html?processname=<spec>&action=<action>` (no
 * `processname` when `spec` is null). Supervisor answers once the action is done, with a 301 to
 * `/?message=<what it did>`; returns that message, and throws on any other answer.
 */
export async function followAction(
  app: AppInstance,
  session: StorageState,
  spec: string | null,
  action: string,
): Promise<string> {
  const query = new URLSearchParams(spec ? { processname: spec, action } : { action })
  const res = await app.fetch(`/index.html?${query.toString()}`, { session })
  await res.arrayBuffer()
  const location = res.headers.get('location') ?? ''
  const message = new URL(location || 'http://x/').searchParams.get('message')
  if (res.status !== 301 || message === null)
    throw new Error(`${action} of ${spec ?? 'all'} answered ${res.status} ${location}`)
  return message
}

/** The states of `specs`, in that order; throws when Supervisor does not list one. */
export function pick(all: ProcessInfo[], specs: string[]): ProcessInfo[] {
  return specs.map((spec) => {
    const found = all.find((s) => s.namespec === spec)
    if (!found) throw new Error(`Supervisor lists no program ${spec}`)
    return found
  })
}

/**
 * Reads every program's state until `problem` (given them all) is null, or 10 s passed (the page's
 * action is done when it answers, but a program just started needs `startsecs` to be RUNNING).
 * Returns the last problem, or null.
 */
export async function settlesTo(
  app: AppInstance,
  session: StorageState,
  problem: (states: ProcessInfo[]) => string | null | Promise<string | null>,
): Promise<string | null> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const why = await problem(await readStates(app.fetch, session))
    if (!why || Date.now() > deadline) return why
    await delay(300)
  }
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

export { resultText }
