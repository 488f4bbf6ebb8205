import type { Workflow } from '../types'
import { injectRuns, poll, readFlows } from './api'
import { canvasNode, waitForEditor, waitForToast } from './editor'

/**
 * Clicks the button on the left of the inject node "run nightly import" (on the first tab, open
 * on load). The editor sends `POST /inject/<node id>`: the id is the node's, so a tool that runs
 * another inject by name must look the id up in `GET /flows`.
 */
export const triggerInject: Workflow = {
  id: 'trigger_inject',
  intent: 'trigger the inject node "run nightly import" by hand',
  rewordings: {
    terse: 'run nightly import now',
    chatty:
      "The nightly import didn't run last night, can you kick off the 'run nightly import' node for me right now?",
    withoutValue: 'trigger an inject node by hand',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForEditor(page)
    await canvasNode(page, 'run nightly import').locator('.red-ui-flow-node-button').click()
    await waitForToast(page, 'Successfully injected: run nightly import')
  },
  key: {
    target: { method: 'POST', path: /\/inject\/[^/]+/ },
    inputs: [
      {
        recorded: 'run nightly import',
        changed: ['refresh reports cache', 'rebuild search index'],
      },
    ],
    // The node id behind the name.
    dependencies: [{ method: 'GET', path: '/flows' }],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'refresh reports cache'
      const node = (await readFlows(app, session)).flows.find(
        (n) => n.type === 'inject' && n.name === name,
      )
      if (!node) throw new Error(`no inject named ${name}`)
      const res = await app.fetch(`/inject/${node.id}`, { method: 'POST', session })
      const problem = await triggerInject.key.check(
        app,
        { status: res.ok ? 'ok' : 'error', result: await res.text() },
        session,
        [name],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      // The flow runs after the 200: give it a moment to count.
      const ran = await poll(async () => ((await injectRuns(app, session))[name] ? true : null))
      return ran ? null : `the inject "${name}" did not run (no count in global context "runs")`
    },
  },
}
