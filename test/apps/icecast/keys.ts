/**
 * What the answer keys of Icecast share: sending an admin GET as a person with curl would, waiting
 * for Icecast to carry out what it accepted (moves, kicks and kills happen on the mount's own
 * thread a moment after the answer), and searching a read's answer.
 */
import type { StorageState } from '../../../src/shared/trace'
import { delay } from '../childProcess'
import type { AppInstance } from '../types'
import { resultText } from '../match'
import { getText } from '../sessionFetch'

export { getText }

/**
 * Sends an admin operation's GET (the page a link or form opens) and throws unless the response
 * page carries `message`: Icecast answers 200 with its message on success and on most refusals
 * alike ("Client 7 not found", "User already exists - not added").
 */
export async function adminAction(
  app: AppInstance,
  session: StorageState,
  path: string,
  message: string | RegExp,
): Promise<void> {
  const html = await getText(app, session, path)
  const ok = typeof message === 'string' ? html.includes(message) : message.test(html)
  if (!ok) throw new Error(`GET ${path} did not answer ${String(message)}: ${html.slice(0, 300)}`)
}

/**
 * Runs `check` until it finds nothing wrong or `timeoutMs` (4 s) passed, and returns its last
 * finding. Icecast carries a kick, a move or a kill out on the mount's thread after it answered,
 * within a second here; a check that still fails after 4 s fails.
 */
export async function settled(
  check: () => Promise<string | null>,
  timeoutMs = 4000,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const problem = await check()
    if (problem === null || Date.now() > deadline) return problem
    await delay(200)
  }
}

export { resultText }

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** `path?mount=<mount>&...`, encoded as the pages' links are followed by a browser. */
export function adminPath(page: string, query: Record<string, string>): string {
  return `/admin/${page}?${new URLSearchParams(query).toString()}`
}
