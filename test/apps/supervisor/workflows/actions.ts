/**
 * Supervisor workflows that act on the one program the person picked, by clicking an action link
 * in its row of the status table: `GET /index.html?processname=<group:name>&action=<start|stop|
 * restart|clearlog>`. Supervisor does the action, then answers with a 301 to
 * `/?message=<what it did>`. No token: the Basic login is all. The changed values are the other
 * programs of the set, which no other workflow touches before "Restart All".
 */
import type { Page } from 'playwright-core'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { actionKey, followAction, mustPass, pick, seededPid, settlesTo } from '../keys'
import { answerLogin, clickRowAction, openHomeSignedIn, rowState } from '../person'
import { seeded } from '../seed'
import { readLog, type ProcessInfo } from '../session'

/** What one program-action workflow is made of. */
interface ProgramAction {
  id: string
  intent: string
  rewordings: Workflow['rewordings']
  signedIn: boolean
  /** The program the person picks (`group:name` or `name`), then the two the check uses. */
  program: string
  changed: [string, string]
  /** The link's `action` value, its label, and the message the page shows afterwards. */
  action: string
  link: string
  message: (spec: string) => string
  /** The state the row shows afterwards ("stopped"), when the action changes it. */
  shows?: string
  /**
   * Why the asked program's state (`asked`) or the recorded one's (`recorded`, which a tool asked
   * for another program must leave alone) is wrong, or null. May read the logs.
   */
  problem(
    app: AppInstance,
    session: StorageState,
    asked: ProcessInfo,
    recorded: ProcessInfo,
  ): Promise<string | null>
}

/** Builds the workflow: sign in (or be signed in), click the link in the program's row. */
function programAction(spec: ProgramAction): Workflow {
  const open = spec.signedIn ? openHomeSignedIn : answerLogin
  const workflow: Workflow = {
    id: spec.id,
    intent: spec.intent,
    rewordings: spec.rewordings,
    startPath: '/',
    signedIn: spec.signedIn,
    async play(page: Page, app: AppInstance) {
      await open(page, app)
      await clickRowAction(page, spec.program, spec.link, spec.message(spec.program))
      if (spec.shows && (await rowState(page, spec.program)) !== spec.shows)
        throw new Error(`${spec.program} does not show ${spec.shows}`)
    },
    key: {
      target: actionKey(spec.action),
      inputs: [{ recorded: spec.program, changed: spec.changed }],
      dependencies: [],
      mutating: true,
      async replayByHand(app, session) {
        const program = spec.changed[0]
        const message = await followAction(app, session, program, spec.action)
        if (message !== spec.message(program))
          throw new Error(`${spec.action} of ${program}: Supervisor said "${message}"`)
        mustPass(
          await workflow.key.check(app, { status: 'succeeded', result: null }, session, [program]),
        )
      },
      async check(app, _run, session, used) {
        const asked = String(used[0])
        return settlesTo(app, session, (all) => {
          const [a, r] = pick(all, [asked, spec.program])
          return spec.problem(app, session, a!, r!)
        })
      },
    },
  }
  return workflow
}

/** Running as the process it was at the start (same pid), or why not. */
function untouched(app: AppInstance, state: ProcessInfo): string | null {
  if (state.statename !== 'RUNNING') return `${state.namespec} is ${state.statename}`
  return state.pid === seededPid(app, state.namespec) ? null : `${state.namespec} was restarted`
}

/** Stops web:api, a program of the group `web`, by its row's Stop link. */
export const stopProgram = programAction({
  id: 'stop_program',
  intent: 'stop the web:api program in Supervisor',
  rewordings: {
    terse: 'supervisor stop web:api',
    chatty:
      "We're moving the API to the new box tonight, can you stop web:api in Supervisor so it stops taking requests here?",
    withoutValue: 'stop one of the programs Supervisor runs',
  },
  signedIn: true,
  program: 'web:api',
  changed: ['web:frontend', 'web:websocket'],
  action: 'stop',
  link: 'Stop',
  message: (spec) => `Process ${spec} stopped`,
  shows: 'stopped',
  async problem(app, _session, asked, recorded) {
    if (asked.statename !== 'STOPPED') return `${asked.namespec} is ${asked.statename}`
    if (recorded.namespec === asked.namespec) return null
    return untouched(app, recorded)
  },
})

/** Starts report-builder (`autostart=false`, "Not started"). Signed out first. */
export const startProgram = programAction({
  id: 'start_program',
  intent: 'start the report-builder program in Supervisor',
  rewordings: {
    terse: 'supervisor start report-builder',
    chatty:
      "report-builder isn't running and the monthly reports are due, could you start it from Supervisor's web page?",
    withoutValue: 'start a stopped program in Supervisor',
  },
  signedIn: false,
  program: 'report-builder',
  changed: ['search-indexer', 'backup-agent'],
  action: 'start',
  link: 'Start',
  message: (spec) => `Process ${spec} started`,
  shows: 'running',
  async problem(_app, _session, asked, recorded) {
    if (asked.statename !== 'RUNNING' || asked.pid <= 0)
      return `${asked.namespec} is ${asked.statename}`
    if (recorded.namespec === asked.namespec) return null
    return recorded.statename === 'STOPPED' ? null : `${recorded.namespec} was started too`
  },
})

/** Restarts queue-worker: a new process (a new pid), running. */
export const restartProgram = programAction({
  id: 'restart_program',
  intent: 'restart the queue-worker program in Supervisor',
  rewordings: {
    terse: 'restart queue-worker',
    chatty:
      "queue-worker seems stuck on an old config since this morning's deploy, can you give it a restart in Supervisor?",
    withoutValue: 'restart a program in Supervisor',
  },
  signedIn: true,
  program: 'queue-worker',
  changed: ['cache-warmer', 'metrics-exporter'],
  action: 'restart',
  link: 'Restart',
  message: (spec) => `Process ${spec} restarted`,
  shows: 'running',
  async problem(app, _session, asked, recorded) {
    if (asked.statename !== 'RUNNING') return `${asked.namespec} is ${asked.statename}`
    if (asked.pid === seededPid(app, asked.namespec))
      return `${asked.namespec} still runs as its first process (pid ${asked.pid}): not restarted`
    if (recorded.namespec === asked.namespec) return null
    return untouched(app, recorded)
  },
})

/**
 * Clears batch:importer's log by its row's Clear Log link: Supervisor empties the program's
 * stdout log; the program keeps running (it printed its line at start and prints no more).
 * Signed out first.
 */
export const clearLog = programAction({
  id: 'clear_log',
  intent: 'clear the log of batch:importer in Supervisor',
  rewordings: {
    terse: 'clear log batch:importer',
    chatty:
      "The importer's log is full of yesterday's run and it's confusing people, could you clear the log of batch:importer in Supervisor?",
    withoutValue: "clear a program's log in Supervisor",
  },
  signedIn: false,
  program: 'batch:importer',
  changed: ['batch:exporter', 'batch:mailer'],
  action: 'clearlog',
  link: 'Clear Log',
  message: (spec) => `Log for ${spec} cleared`,
  async problem(app, session, asked, recorded) {
    const log = await readLog(app.fetch, session, asked.namespec)
    if (log.length) return `${asked.namespec}'s log still holds ${JSON.stringify(log.slice(0, 60))}`
    const why = untouched(app, asked)
    if (why) return why
    if (recorded.namespec === asked.namespec) return null
    const kept = await readLog(app.fetch, session, recorded.namespec)
    return seeded(recorded.namespec).lines.every((line) => kept.includes(line))
      ? untouched(app, recorded)
      : `${recorded.namespec}'s log was cleared too`
  },
})
