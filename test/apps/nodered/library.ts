import type { Workflow } from '../types'
import { poll, readFlows } from './api'
import { waitForEditor, waitForToast } from './editor'
import { TAB } from './seed'

/**
 * Menu → Export, "current flow" (the open Nightly import tab), the "Local" library tab, a file
 * name, Export. The editor sends `POST /library/local/flows/<file name>` with the exported nodes
 * as a JSON array body. Node-RED answers 204 before the file is written (its local library does
 * not await the write), so the check polls.
 */
export const exportToLibrary: Workflow = {
  id: 'export_flow_to_library',
  intent: 'save the Nightly import flow to the local library as nightly-backup.json',
  rewordings: {
    terse: 'export Nightly import to library nightly-backup.json',
    chatty:
      "Before I mess with the Nightly import flow, could you stash a copy of it in the library as 'nightly-backup.json'?",
    withoutValue: 'save the Nightly import flow to the local library',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForEditor(page)
    await page.locator('#red-ui-header-button-sidemenu').click()
    await page.locator('#menu-item-export').click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('link', { name: 'Local', exact: true }).click()
    const name = page.locator('#red-ui-clipboard-dialog-tab-library-name')
    // The field comes prefilled with "flows.json": select it all and type over it.
    await name.click()
    await name.press('Control+a')
    await name.pressSequentially('nightly-backup.json', { delay: 40 })
    // The Export button is enabled by a validation that runs 100 ms after typing.
    const button = page.locator('#red-ui-clipboard-dialog-export')
    await page.waitForFunction(() => {
      const b = document.querySelector('#red-ui-clipboard-dialog-export')
      return !!b && !b.classList.contains('ui-state-disabled') && !b.hasAttribute('disabled')
    })
    await button.click()
    await waitForToast(page, 'Nodes exported to library')
  },
  key: {
    target: { method: 'POST', path: /\/library\/local\/flows\/[^/]+/ },
    inputs: [
      {
        recorded: 'nightly-backup.json',
        changed: ['nightly-copy.json', 'nightly-before-fix.json'],
      },
    ],
    // The body is the flow as exported; a tool that sends the recorded copy saves the same nodes
    // as long as nobody edited the flow since (no read is strictly needed on a fresh instance).
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const flows = (await readFlows(app, session)).flows
      const nodes = flows.filter((n) => n.id === TAB.nightly || n.z === TAB.nightly)
      const res = await app.fetch('/library/local/flows/nightly-copy.json', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(nodes),
      })
      if (!res.ok) throw new Error(`the library answered ${res.status}`)
      const problem = await exportToLibrary.key.check(
        app,
        { status: 'ok', result: null },
        session,
        ['nightly-copy.json'],
      )
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      const path = `/library/local/flows/${encodeURIComponent(String(used[0]))}`
      const text = await poll(async () => {
        const res = await app.fetch(path, { session })
        return res.ok ? res.text() : null
      })
      if (text === null) return `the library has no ${String(used[0])}`
      return text.includes('run nightly import')
        ? null
        : `${String(used[0])} is not the Nightly import flow`
    },
  },
}
