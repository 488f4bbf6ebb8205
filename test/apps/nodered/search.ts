import type { Workflow } from '../types'
import { readFlows, resultText } from './api'
import { waitForEditor } from './editor'

/**
 * Ctrl+F, types "daily report", picks "build daily report" from the results: the editor filters
 * the flows it loaded with `GET /flows` on start and sends nothing for the search itself. The
 * request that answers is therefore `GET /flows`; the typed term never reaches the server.
 */
export const findNode: Workflow = {
  id: 'find_node',
  intent: 'find the nodes whose name mentions daily report',
  rewordings: {
    terse: 'search flows: daily report',
    chatty:
      "I can't remember which flow builds the daily report, can you search our nodes for 'daily report'?",
    withoutValue: 'search the flows for a node by name',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForEditor(page)
    await page.locator('#red-ui-workspace-chart').click({ position: { x: 600, y: 500 } })
    await page.keyboard.press('Control+f')
    const box = page.locator('#red-ui-search input.red-ui-searchBox-input')
    await box.waitFor()
    await box.pressSequentially('daily report', { delay: 60 })
    const hit = page.locator('#red-ui-search .red-ui-search-result', {
      hasText: 'build daily report',
    })
    await hit.click()
    // Picking a result opens its tab and selects the node there.
    await page
      .locator('#red-ui-workspace-tabs .red-ui-tab.active', { hasText: 'Reports' })
      .waitFor()
  },
  key: {
    target: { method: 'GET', path: '/flows' },
    inputs: [{ recorded: 'daily report', changed: ['customer', 'heartbeat'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const state = await readFlows(app, session)
      const hits = state.flows.filter((n) => String(n.name ?? '').includes('customer'))
      const problem = await findNode.key.check(app, { status: 'ok', result: hits }, session, [
        'customer',
      ])
      if (problem) throw new Error(problem)
    },
    async check(_app, run, _session, used) {
      const want = String(used[0]).toLowerCase()
      const names = [...resultText(run.result).matchAll(/"name"\s*:\s*"([^"]*)"/g)].map(
        (m) => m[1]!,
      )
      return names.some((n) => n.toLowerCase().includes(want))
        ? null
        : `no node named like "${want}" in the result`
    },
  },
}
