/**
 * The two buttons above Supervisor's status table: "Restart All" (`GET /index.html?action=
 * restartall`: stop every program, then start every program, those with `autostart=false` too)
 * and "Stop All" (`action=stopall`). No input: the tool is the click. They come last, since they
 * touch every program.
 */
import type { Workflow } from '../../types'
import { actionKey, followAction, mustPass, settlesTo, supervisorOf } from '../keys'
import { clickTopButton, openHomeSignedIn, rowState } from '../person'
import { NAMESPECS } from '../seed'
import { readStates, rpc } from '../session'

/** Presses Restart All; every program is running again, as a new process. */
export const restartAll: Workflow = {
  id: 'restart_all',
  intent: 'restart all programs in Supervisor',
  rewordings: {
    terse: 'supervisor restart all',
    chatty:
      'I just rotated the database password, could you restart everything Supervisor runs so they all pick it up?',
    withoutValue: 'restart everything in Supervisor',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await clickTopButton(page, 'Restart All', /^All restarted at /)
    for (const spec of ['report-builder', 'web:api'])
      if ((await rowState(page, spec)) !== 'running') throw new Error(`${spec} is not running`)
  },
  key: {
    target: actionKey('restartall'),
    inputs: [],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const message = await followAction(app, session, null, 'restartall')
      if (!message.startsWith('All restarted at ')) throw new Error(`Supervisor said "${message}"`)
      mustPass(await restartAll.key.check(app, { status: 'succeeded', result: null }, session, []))
    },
    /**
     * Every program runs, each as a process other than the one it was at the last look: the pids
     * at the start for the first check, those the previous check saw for the next (the recording's
     * tool and the HAR's both restart all, on one instance, with no input to tell them apart).
     */
    async check(app, _run, session) {
      const inst = supervisorOf(app)
      const before = inst.restartAllPids
      const why = await settlesTo(app, session, (all) => {
        for (const spec of NAMESPECS) {
          const s = all.find((x) => x.namespec === spec)
          if (!s) return `Supervisor lists no program ${spec}`
          if (s.statename !== 'RUNNING') return `${spec} is ${s.statename}`
          if (s.pid === before[spec]) return `${spec} still runs as pid ${s.pid}: not restarted`
        }
        return null
      })
      const now = await readStates(app.fetch, session)
      inst.restartAllPids = Object.fromEntries(now.map((s) => [s.namespec, s.pid]))
      return why
    },
  },
}

/** Presses Stop All; every program is stopped. */
export const stopAll: Workflow = {
  id: 'stop_all',
  intent: 'stop all programs in Supervisor',
  rewordings: {
    terse: 'supervisor stop all',
    chatty:
      "We're taking this machine down for maintenance in a minute, can you stop every program Supervisor runs first?",
    withoutValue: 'stop everything Supervisor is running',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHomeSignedIn(page, app)
    await clickTopButton(page, 'Stop All', /^All stopped at /)
    for (const spec of ['queue-worker', 'batch:mailer'])
      if ((await rowState(page, spec)) !== 'stopped') throw new Error(`${spec} is not stopped`)
  },
  key: {
    target: actionKey('stopall'),
    inputs: [],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const message = await followAction(app, session, null, 'stopall')
      if (!message.startsWith('All stopped at ')) throw new Error(`Supervisor said "${message}"`)
      mustPass(await stopAll.key.check(app, { status: 'succeeded', result: null }, session, []))
    },
    /**
     * No program runs. Then every program is started again by XML-RPC, whatever the verdict, so
     * the next run (the HAR's tool, after the recording's, on one instance) has programs to stop
     * and its check means something.
     */
    async check(app, _run, session) {
      const why = await settlesTo(app, session, (all) => {
        const running = all.filter((s) => s.statename !== 'STOPPED').map((s) => s.namespec)
        return running.length ? `still not stopped: ${running.join(', ')}` : null
      })
      await rpc(app.fetch, session, 'supervisor.startAllProcesses')
      return why
    },
  },
}
