/**
 * HAProxy workflows that change a server: each ticks one server's box in its backend's table,
 * picks an action from that table's menu and presses Apply, which posts the table's form to the
 * page's own URL: `POST /` with `s=<server>&action=<value>&b=%23<backend id>`. HAProxy answers
 * 303 to `/;st=DONE` and the browser loads the page again with the note. The server's name is the
 * checkbox's value, the one thing the person picked; the backend id is fixed per table, and the
 * changed values are other servers of the same backend, so it stays what was recorded.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import { actionKey, mustPass, postAction, statusOf } from '../keys'
import { applyToServer, openStatsAnsweringPrompt, openStatsSignedIn } from '../person'
import { HEALTH_PATH } from '../seed'

/** What one server-action workflow is made of. */
interface ServerAction {
  id: string
  intent: string
  rewordings: Workflow['rewordings']
  signedIn: boolean
  backend: string
  /** The server the person picks, then the two the working check uses instead. */
  server: string
  changed: [string, string]
  /** The menu's value (`maint`) and its label (`Set state to MAINT`). */
  action: string
  label: string
  /** The CSV status after the action, or a test of it, with its wording for a wrong one. */
  expected: (status: string) => boolean
  wants: string
}

/** Builds the workflow: open the stats page, tick the server, pick the action, Apply. */
function serverAction(spec: ServerAction): Workflow {
  const open = spec.signedIn ? openStatsSignedIn : openStatsAnsweringPrompt
  const workflow: Workflow = {
    id: spec.id,
    intent: spec.intent,
    rewordings: spec.rewordings,
    startPath: HEALTH_PATH,
    signedIn: spec.signedIn,
    async play(page: Page, app: AppInstance) {
      await open(page, app)
      await applyToServer(page, spec.server, spec.label)
    },
    key: {
      target: actionKey(spec.action),
      inputs: [{ recorded: spec.server, changed: spec.changed }],
      // The saved login (Basic) is all the POST needs: no token, and `b` is fixed per backend.
      dependencies: [],
      mutating: true,
      async replayByHand(app, session) {
        const server = spec.changed[0]
        await postAction(app, session, spec.backend, server, spec.action)
        mustPass(
          await workflow.key.check(app, { status: 'succeeded', result: null }, session, [server]),
        )
      },
      async check(app, _run, session, used) {
        const server = String(used[0])
        const status = await statusOf(app, session, spec.backend, server)
        return spec.expected(status)
          ? null
          : `${spec.backend}/${server} is ${JSON.stringify(status)}, not ${spec.wants}`
      },
    },
  }
  return workflow
}

/** Puts web2 in maintenance (MAINT): traffic stops and health checks pause. */
export const maintServer = serverAction({
  id: 'maint_server',
  intent: 'put the server web2 into maintenance in HAProxy',
  rewordings: {
    terse: 'haproxy maint web2',
    chatty:
      "we're about to patch web2, could you put it in maintenance mode on the HAProxy stats page so it stops getting traffic?",
    withoutValue: 'put one of the HAProxy servers into maintenance',
  },
  signedIn: true,
  backend: 'web_frontend',
  server: 'web2',
  changed: ['web3', 'web4'],
  action: 'maint',
  label: 'Set state to MAINT',
  expected: (s) => s === 'MAINT',
  wants: 'MAINT',
})

/** Drains api2 (DRAIN): no new connections, the current ones finish. Not signed in at first. */
export const drainServer = serverAction({
  id: 'drain_server',
  intent: 'drain the server api2 in HAProxy',
  rewordings: {
    terse: 'drain api2',
    chatty:
      'Hi! Before I restart api2 I want it to stop taking new connections, can you set it to drain in HAProxy for me?',
    withoutValue: 'drain a server in HAProxy',
  },
  signedIn: false,
  backend: 'api_servers',
  server: 'api2',
  changed: ['api1', 'api3'],
  action: 'drain',
  label: 'Set state to DRAIN',
  expected: (s) => s === 'DRAIN',
  wants: 'DRAIN',
})

/** Takes batch2 out of maintenance (READY); it starts in MAINT (the config's `disabled`). */
export const readyServer = serverAction({
  id: 'ready_server',
  intent: 'set the server batch2 back to ready in HAProxy',
  rewordings: {
    terse: 'haproxy ready batch2',
    chatty:
      'batch2 is done with its maintenance, could you put it back into rotation (ready) in HAProxy please?',
    withoutValue: 'bring a server back out of maintenance in HAProxy',
  },
  signedIn: true,
  backend: 'batch_workers',
  server: 'batch2',
  changed: ['batch3', 'batch4'],
  action: 'ready',
  label: 'Set state to READY',
  // Out of MAINT: UP once its check passed, `UP 1/3` or the like for a moment before.
  expected: (s) => s !== '' && !s.startsWith('MAINT'),
  wants: 'out of MAINT',
})

/** Turns off static1's health checks: the page then shows it "no check". */
export const disableHealthChecks = serverAction({
  id: 'disable_health_checks',
  intent: 'disable the health checks of the server static1 in HAProxy',
  rewordings: {
    terse: 'haproxy disable checks static1',
    chatty:
      "static1's health checks keep flapping while we debug it, can you switch its health checks off in HAProxy for now?",
    withoutValue: "turn off a server's health checks in HAProxy",
  },
  signedIn: true,
  backend: 'static_assets',
  server: 'static1',
  changed: ['static2', 'static3'],
  action: 'dhlth',
  label: 'Health: disable checks',
  expected: (s) => s === 'no check',
  wants: '"no check"',
})
