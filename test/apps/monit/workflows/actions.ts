/**
 * Monit workflows that change a service: each clicks the service in the home page's tables and
 * presses one of its page's buttons, which posts that button's form to the page's own path:
 * `POST /<service>` with `securitytoken=<the page's token>&action=<start|stop|...>` (the token
 * also travels as the `securitytoken` cookie). Monit answers 302 back to the page and carries the
 * action out a moment later; the person reloads until the page shows it done. The service is
 * what the person picked; the changed values are the other services of its group, which no other
 * workflow touches.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import { TOKEN_PAGE, actionKey, mustPass, postAction, seededPid, settlesTo } from '../keys'
import { answerLogin, openHomeSignedIn, openService, pressButton, reloadUntil } from '../person'
import type { ServiceState } from '../session'

/** What one service-action workflow is made of. */
interface ServiceAction {
  id: string
  intent: string
  rewordings: Workflow['rewordings']
  signedIn: boolean
  /** The service the person picks, then the two the working check uses instead. */
  service: string
  changed: [string, string]
  /** The form's `action` value and the button's label. */
  action: string
  button: string
  /** The page's row and value that show the action done, once nothing is pending. */
  shows: { parameter: string; value: RegExp }
  /**
   * Why the asked service's state (`asked`) or the recorded one's (`recorded`, which a tool
   * asked for another service must leave alone) is wrong, or null. `app` knows seeded pids.
   */
  problem(app: AppInstance, asked: ServiceState, recorded: ServiceState): string | null
}

/** Builds the workflow: sign in (or be signed in), click the service, press the button. */
function serviceAction(spec: ServiceAction): Workflow {
  const open = spec.signedIn ? openHomeSignedIn : answerLogin
  const workflow: Workflow = {
    id: spec.id,
    intent: spec.intent,
    rewordings: spec.rewordings,
    startPath: '/',
    signedIn: spec.signedIn,
    async play(page: Page, app: AppInstance) {
      await open(page, app)
      await openService(page, spec.service)
      await pressButton(page, spec.button)
      await reloadUntil(page, spec.shows.parameter, spec.shows.value)
    },
    key: {
      target: actionKey(spec.action),
      inputs: [{ recorded: spec.service, changed: spec.changed }],
      // The CSRF token: a page read first sets the cookie the form must echo.
      dependencies: [TOKEN_PAGE],
      mutating: true,
      async replayByHand(app, session) {
        const service = spec.changed[0]
        await postAction(app, session, service, spec.action)
        mustPass(
          await workflow.key.check(app, { status: 'succeeded', result: null }, session, [service]),
        )
      },
      async check(app, _run, session, used) {
        const asked = String(used[0])
        return settlesTo(app, session, [asked, spec.service], ([a, r]) => spec.problem(app, a!, r!))
      },
    },
  }
  return workflow
}

/** "Not monitored" and no process, or why not. */
function stopped(state: ServiceState): string | null {
  if (state.monitor !== 0) return `${state.name} is still monitored`
  return state.pid === null ? null : `${state.name} still runs (pid ${state.pid})`
}

/** Monitored, running and OK, or why not. */
function running(state: ServiceState): string | null {
  if (state.pendingAction !== 0) return `${state.name} has an action pending`
  if (state.monitor !== 1) return `${state.name} is not monitored (${state.monitor})`
  if (state.pid === null) return `${state.name} does not run`
  return state.status === 0 ? null : `${state.name} failed (status ${state.status})`
}

/** Stops queue-worker: Monit runs its stop program and stops monitoring it. */
export const stopService = serviceAction({
  id: 'stop_service',
  intent: 'stop the queue-worker service in Monit',
  rewordings: {
    terse: 'monit stop queue-worker',
    chatty:
      'queue-worker keeps picking up jobs we need to hold back for now, could you stop it from the Monit page for me?',
    withoutValue: 'stop one of the services Monit manages',
  },
  signedIn: true,
  service: 'queue-worker',
  changed: ['mail-relay', 'thumbnailer'],
  action: 'stop',
  button: 'Stop service',
  shows: { parameter: 'Monitoring status', value: /^Not monitored$/ },
  problem(app, asked, recorded) {
    const why = stopped(asked)
    if (why) return why
    if (recorded.name === asked.name) return null
    return (
      running(recorded) ??
      (recorded.pid === seededPid(app, recorded.name) ? null : `${recorded.name} was restarted`)
    )
  },
})

/** Starts report-builder, which is stopped and not monitored from the start. Signed out first. */
export const startService = serviceAction({
  id: 'start_service',
  intent: 'start the report-builder service in Monit',
  rewordings: {
    terse: 'monit start report-builder',
    chatty:
      "report-builder isn't running at the moment, can you start it up through Monit's web interface?",
    withoutValue: 'start a stopped service in Monit',
  },
  signedIn: false,
  service: 'report-builder',
  changed: ['search-indexer', 'backup-agent'],
  action: 'start',
  button: 'Start service',
  shows: { parameter: 'Status', value: /^OK$/ },
  problem(_app, asked, recorded) {
    const why = running(asked)
    if (why) return why
    if (recorded.name === asked.name) return null
    return stopped(recorded) ? `${recorded.name} was started too` : null
  },
})

/** Restarts api-gateway: a new process (a new pid), monitored and OK. */
export const restartService = serviceAction({
  id: 'restart_service',
  intent: 'restart the api-gateway service in Monit',
  rewordings: {
    terse: 'restart api-gateway',
    chatty:
      "api-gateway has been acting up since this morning's config push, can you give it a restart through Monit?",
    withoutValue: 'restart a service in Monit',
  },
  signedIn: true,
  service: 'api-gateway',
  changed: ['cache-warmer', 'metrics-exporter'],
  action: 'restart',
  button: 'Restart service',
  shows: { parameter: 'Status', value: /^OK$/ },
  problem(app, asked, recorded) {
    const why = running(asked)
    if (why) return why
    if (asked.pid === seededPid(app, asked.name))
      return `${asked.name} still runs as its first process (pid ${asked.pid}): not restarted`
    if (recorded.name === asked.name) return null
    return recorded.pid === seededPid(app, recorded.name)
      ? null
      : `${recorded.name} was restarted too`
  },
})

/** Turns off the monitoring of the file check app-config. Signed out first. */
export const unmonitorService = serviceAction({
  id: 'unmonitor_service',
  intent: 'disable monitoring of app-config in Monit',
  rewordings: {
    terse: 'unmonitor app-config',
    chatty:
      "I'm about to edit the app config by hand, could you switch off Monit's monitoring of app-config so it doesn't go off while I do?",
    withoutValue: 'stop Monit from monitoring one of its checks',
  },
  signedIn: false,
  service: 'app-config',
  changed: ['tls-cert', 'access-log'],
  action: 'unmonitor',
  button: 'Disable monitoring',
  shows: { parameter: 'Monitoring status', value: /^Not monitored$/ },
  problem(_app, asked, recorded) {
    if (asked.monitor !== 0) return `${asked.name} is still monitored`
    if (recorded.name === asked.name) return null
    return recorded.monitor === 1 ? null : `${recorded.name} is not monitored either`
  },
})

/** Turns on the monitoring of the directory check upload-spool, off from the start. */
export const monitorService = serviceAction({
  id: 'monitor_service',
  intent: 'enable monitoring of upload-spool in Monit',
  rewordings: {
    terse: 'monit monitor upload-spool',
    chatty:
      'the upload-spool directory is in use again, could you turn Monit’s monitoring of it back on?',
    withoutValue: "turn Monit's monitoring back on for one of its checks",
  },
  signedIn: true,
  service: 'upload-spool',
  changed: ['mail-queue', 'backup-archive'],
  action: 'monitor',
  button: 'Enable monitoring',
  shows: { parameter: 'Monitoring status', value: /^Monitored$/ },
  problem(_app, asked, recorded) {
    if (asked.monitor === 0) return `${asked.name} is not monitored`
    if (asked.pendingAction !== 0) return `${asked.name} has an action pending`
    if (recorded.name === asked.name) return null
    return recorded.monitor === 0 ? null : `${recorded.name} is monitored too`
  },
})
