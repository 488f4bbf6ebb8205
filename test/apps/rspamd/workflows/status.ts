import type { Workflow } from '../../types'
import { resultText } from '../session'
import { signInFromDialog } from '../ui'

/** The controller's `/stat` answer, the fields the Status tab shows. */
interface Stat {
  version?: string
  scanned?: number
  learned?: number
  actions?: Record<string, number>
}

/**
 * Signs in and reads the Status tab: the counters (scanned, per action, learned) come from
 * `GET /stat`, which the UI asks right after the login.
 */
export const readStatus: Workflow = {
  id: 'read_status',
  intent: 'show how many messages Rspamd has scanned and learned so far',
  rewordings: {
    terse: 'rspamd scan stats',
    chatty:
      'Hey, could you pull up the Rspamd status page and tell me how many mails it has scanned and learned?',
    withoutValue: 'show the Rspamd status counters',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromDialog(page, app)
  },
  key: {
    target: { method: 'GET', path: '/stat' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/stat', { session })
      const problem = await readStatus.key.check(
        app,
        { status: res.ok ? 'ok' : 'error', result: await res.text() },
        session,
        [],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, run, session) {
      let got: Stat
      try {
        got = JSON.parse(resultText(run.result)) as Stat
      } catch {
        return 'the result is not the JSON of /stat'
      }
      const now = (await (await app.fetch('/stat', { session })).json()) as Stat
      if (got.version !== '3.4') return `the result has no Rspamd version (${String(got.version)})`
      if (got.scanned !== now.scanned)
        return `the result says ${String(got.scanned)} scanned, Rspamd says ${String(now.scanned)}`
      if (got.learned !== now.learned)
        return `the result says ${String(got.learned)} learned, Rspamd says ${String(now.learned)}`
      return null
    },
  },
}
