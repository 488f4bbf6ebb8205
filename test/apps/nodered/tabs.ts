import type { AnswerKey, Workflow } from '../types'
import { deployFlows, readFlows, tabByLabel } from './api'
import { deploy, flowTab, waitForEditor } from './editor'
import { TAB, TAB_LABEL } from './seed'

/**
 * A deploy is `POST /flows` with `{flows: [every node of every tab], rev}` and the header
 * `Node-RED-Deployment-Type: full`; Node-RED answers 409 when `rev` is not the current one. So
 * a correct tool reads `GET /flows` first (for `rev` and today's nodes) and sends them back with
 * the one change.
 */
const deployTarget: AnswerKey['target'] = { method: 'POST', path: '/flows' }

/** Double-clicks the "Reports" tab, types a new name in its edit tray, Done, Deploy. */
export const renameFlowTab: Workflow = {
  id: 'rename_flow_tab',
  intent: 'rename the flow Reports to Daily Reports and deploy',
  rewordings: {
    terse: 'rename flow Reports -> Daily Reports',
    chatty:
      "Hey, the Reports tab in Node-RED should really be called 'Daily Reports', could you rename it and deploy?",
    withoutValue: 'rename the Reports flow and deploy',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForEditor(page)
    await flowTab(page, 'Reports').dblclick()
    const name = page.locator('#node-input-name')
    await name.click()
    await name.press('Control+a')
    await name.pressSequentially('Daily Reports', { delay: 40 })
    await page.locator('#node-dialog-ok').click()
    await flowTab(page, 'Daily Reports').waitFor()
    await deploy(page)
  },
  key: {
    target: deployTarget,
    inputs: [{ recorded: 'Daily Reports', changed: ['Weekly Reports', 'Sales Reports'] }],
    // rev (409 without the current one) and the nodes to send back unchanged.
    dependencies: [{ method: 'GET', path: '/flows' }],
    mutating: true,
    async replayByHand(app, session) {
      const state = await readFlows(app, session)
      const tab = state.flows.find((n) => n.id === TAB.reports)
      if (!tab) throw new Error('the Reports tab is gone')
      tab.label = 'Weekly Reports'
      await deployFlows(app, session, state)
      const problem = await renameFlowTab.key.check(app, { status: 'ok', result: null }, session, [
        'Weekly Reports',
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      const tab = (await readFlows(app, session)).flows.find((n) => n.id === TAB.reports)
      return tab?.label === used[0] ? null : `the Reports tab is labelled ${String(tab?.label)}`
    },
  },
}

/** Right-clicks the "Alerts" tab, picks "Disable flow" from its menu, Deploy. */
export const disableFlowTab: Workflow = {
  id: 'disable_flow_tab',
  intent: 'disable the flow Alerts and deploy',
  rewordings: {
    terse: 'disable flow Alerts',
    chatty:
      'The Alerts flow keeps paging people while we fix the sensors, could you switch it off and deploy?',
    withoutValue: 'disable a flow and deploy',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForEditor(page)
    await flowTab(page, 'Alerts').click({ button: 'right' })
    await page.getByText('Disable flow', { exact: true }).click()
    await deploy(page)
  },
  key: {
    target: deployTarget,
    // The tab the person picked: another tab's name must disable that tab.
    inputs: [{ recorded: 'Alerts', changed: ['Sensor alerts', 'Cleanup'] }],
    dependencies: [{ method: 'GET', path: '/flows' }],
    mutating: true,
    async replayByHand(app, session) {
      const state = await readFlows(app, session)
      const tab = tabByLabel(state, 'Sensor alerts')
      if (!tab) throw new Error('no tab Sensor alerts')
      tab.disabled = true
      await deployFlows(app, session, state)
      const problem = await disableFlowTab.key.check(app, { status: 'ok', result: null }, session, [
        'Sensor alerts',
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      // By the seeded id, not the label: a tool that relabels another tab with the changed name
      // (and disables that one) must not pass.
      const label = String(used[0])
      const key = (Object.keys(TAB_LABEL) as Array<keyof typeof TAB>).find(
        (k) => TAB_LABEL[k] === label,
      )
      if (!key) return `no seeded tab is labelled ${label}`
      const state = await readFlows(app, session)
      const tab = state.flows.find((n) => n.id === TAB[key])
      if (tab?.label !== label) return `the tab ${label} was relabelled ${String(tab?.label)}`
      const twins = state.flows.filter((n) => n.type === 'tab' && n.label === label).length
      if (twins > 1) return `${twins} tabs are now labelled ${label}`
      return tab.disabled === true ? null : `the tab ${label} is still enabled`
    },
  },
}
