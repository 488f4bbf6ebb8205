/**
 * Syncthing workflows that start signed out: the first page answers `401` with
 * `WWW-Authenticate: Basic`, the person answers the browser's login, and the page that then
 * passes (`GET /`) sets the session and CSRF cookies the rest of the workflow uses. So besides
 * what the task itself reads, the CSRF token a tool sends comes from that answer.
 */
import type { Page } from 'playwright-core'
import type { RequestKey, Workflow } from '../types'
import { changeConfig, mustPass, readConfig, scanCount } from './api'
import { WRITE_CONFIG } from './folders'
import { answerLogin, configSaved, folderStatus, openFolder, retype } from './person'
import { READ_CONFIG } from './reads'
import { MY_ID, seededFolder } from './seed'

/** The page that sets the CSRF cookie once the login was answered. */
const SIGNED_IN_PAGE: RequestKey = { method: 'GET', path: '/' }

/** Resolves once the page's own rescan request (`POST /rest/db/scan`) has been answered. */
function rescanAnswered(page: Page): Promise<unknown> {
  return page.waitForResponse(
    (res) =>
      res.request().method() === 'POST' &&
      new URL(res.url()).pathname === '/rest/db/scan' &&
      res.ok(),
  )
}

/** Answers the login, unfolds Documents, clicks Rescan. */
export const rescanFolder: Workflow = {
  id: 'rescan_folder',
  intent: 'rescan the folder Documents',
  rewordings: {
    terse: 'rescan Documents',
    chatty:
      'I just copied a bunch of files into Documents, can you make Syncthing rescan that folder?',
    withoutValue: 'rescan a folder',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await answerLogin(page, app)
    const panel = await openFolder(page, 'Documents')
    const answered = rescanAnswered(page)
    await panel.getByRole('button', { name: 'Rescan' }).click()
    await answered
    await folderStatus(page, 'Documents').getByText('Up to Date').waitFor()
  },
  key: {
    target: { method: 'POST', path: '/rest/db/scan' },
    // The folder picked by its label; the request names it by id (`?folder=<id>`).
    inputs: [{ recorded: 'Documents', changed: ['Photos', 'Music'] }],
    dependencies: [READ_CONFIG, SIGNED_IN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const label = 'Photos'
      const res = await app.fetch(`/rest/db/scan?folder=${seededFolder(label).id}`, {
        method: 'POST',
        session,
      })
      await res.arrayBuffer()
      if (!res.ok) throw new Error(`POST /rest/db/scan answered ${res.status}`)
      mustPass(
        await rescanFolder.key.check(app, { status: 'succeeded', result: null }, session, [label]),
      )
    },
    async check(app, _run, session, used) {
      const label = String(used[0])
      // Seeded folders are scanned once at start and then only when asked (no watcher, 1 h).
      const scans = await scanCount(app, session, seededFolder(label).id)
      if (scans < 2) return `${label} was not rescanned (${scans} scan)`
      const documents = await scanCount(app, session, seededFolder('Documents').id)
      return documents > 1 ? `Documents was rescanned too (${documents} scans)` : null
    },
  },
}

/** Answers the login, Actions > Settings, types the new Device Name, Save. */
export const renameThisDevice: Workflow = {
  id: 'rename_this_device',
  intent: 'rename this Syncthing device to Home Server',
  rewordings: {
    terse: 'device name Home Server',
    chatty:
      "This machine shows up as 'workstation' on my other devices, could you rename it to Home Server in Syncthing's settings?",
    withoutValue: "change this device's name",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await answerLogin(page, app)
    await page.locator('.navbar').getByText('Actions').click()
    await page.locator('.navbar .dropdown-menu').getByText('Settings', { exact: true }).click()
    const dialog = page.locator('#settings')
    const name = dialog.locator('#DeviceName')
    await name.waitFor()
    await retype(name, 'Home Server')
    const saved = configSaved(page)
    await dialog.locator('.modal-footer').getByRole('button', { name: 'Save' }).click()
    await saved
    await dialog.waitFor({ state: 'hidden' })
    await page.locator('.navbar').getByText('Home Server').waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [{ recorded: 'Home Server', changed: ['Media Box', 'Study PC'] }],
    dependencies: [READ_CONFIG, SIGNED_IN_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Media Box'
      await changeConfig(app, session, (config) => {
        config.devices.find((d) => d.deviceID === MY_ID)!.name = name
      })
      mustPass(
        await renameThisDevice.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const devices = (await readConfig(app, session)).devices
      const mine = devices.find((d) => d.deviceID === MY_ID)
      if (mine?.name !== String(used[0])) return `this device is named ${String(mine?.name)}`
      const renamed = devices.filter((d) => d.deviceID !== MY_ID && d.name === String(used[0]))
      return renamed.length ? `a remote device was renamed ${String(used[0])} too` : null
    },
  },
}
