/**
 * Syncthing workflows that change folders. Syncthing 1.19's GUI saves every change the same way:
 * it edits its copy of the whole configuration and sends it back with `PUT /rest/config` (the
 * CSRF header from the cookie, as on every `/rest/` call). A correct tool therefore reads
 * `GET /rest/config` first (the folder's id by its label, and everything else to send back
 * unchanged) and writes the whole config with the one change.
 */
import type { Page } from 'playwright-core'
import type { RequestKey, Workflow } from '../types'
import {
  changeConfig,
  folderById,
  folderByLabel,
  mustPass,
  readConfig,
  seededFolderNow,
} from './api'
import {
  configSaved,
  editFolder,
  folderDialog,
  folderPanel,
  folderStatus,
  openFolder,
  openTab,
  retype,
  saveDialog,
  waitForDashboard,
} from './person'
import { READ_CONFIG } from './reads'
import { FOLDERS, MY_ID, folderPath, seededFolder } from './seed'

/** Every save of the GUI: the whole config written back. */
export const WRITE_CONFIG: RequestKey = { method: 'PUT', path: '/rest/config' }

const succeeded = { status: 'succeeded', result: null }

/** Clicks "Add Folder" and waits until the dialog holds the id the page asked the server for. */
async function openAddFolder(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add Folder' }).click()
  const dialog = folderDialog(page)
  await dialog.locator('#folderLabel').waitFor()
  await page.waitForFunction(() =>
    /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(
      (document.querySelector('#editFolder #folderID') as HTMLInputElement | null)?.value ?? '',
    ),
  )
}

/** Clicks "Add Folder", types the label (the page fills the path from it), saves. */
export const addFolder: Workflow = {
  id: 'add_folder',
  intent: 'add a new folder called Recipes',
  rewordings: {
    terse: 'new folder Recipes',
    chatty: 'I want to start syncing my recipes, can you add a folder named Recipes in Syncthing?',
    withoutValue: 'add a folder to Syncthing',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    await openAddFolder(page)
    const dialog = folderDialog(page)
    await dialog.locator('#folderLabel').click()
    await dialog.locator('#folderLabel').pressSequentially('Recipes', { delay: 40 })
    // The label lands twice in the saved folder: as its label and in its path (Sync/Recipes).
    await page.waitForFunction(
      () =>
        (document.querySelector('#editFolder #folderPath') as HTMLInputElement | null)?.value ===
        'Sync/Recipes',
    )
    await saveDialog(page, dialog)
    await folderPanel(page, 'Recipes').waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [{ recorded: 'Recipes', changed: ['Tax Papers', 'Garden Plans'] }],
    // The config to send back whole. The new folder's id is made in the page from
    // GET /rest/svc/random/string (cut to xxxxx-xxxxx and lowercased, so it is not a value of
    // that answer); any fresh id of that shape works, so the key asks for none.
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const label = 'Tax Papers'
      await changeConfig(app, session, (config) => {
        const template = folderById(config, seededFolder('Photos').id)!
        config.folders.push({
          ...template,
          id: 'zz9ab-cd3ef',
          label,
          path: folderPath(label),
          devices: template.devices.filter((d) => d.deviceID === MY_ID),
        })
      })
      mustPass(await addFolder.key.check(app, succeeded, session, [label]))
    },
    async check(app, _run, session, used) {
      const label = String(used[0])
      const found = (await readConfig(app, session)).folders.filter((f) => f.label === label)
      if (found.length !== 1) return `${found.length} folders are labelled ${label}`
      const folder = found[0]!
      if (FOLDERS.some((f) => f.id === folder.id))
        return `${label} took the id of the seeded folder ${folder.id}`
      if (folder.path !== folderPath(label)) return `${label} is at ${folder.path}`
      return folder.paused ? `${label} was added paused` : null
    },
  },
}

/** Unfolds Projects, Edit, types the new label, Save. */
export const renameFolder: Workflow = {
  id: 'rename_folder',
  intent: 'rename the folder Projects to Client Projects',
  rewordings: {
    terse: 'rename folder Projects -> Client Projects',
    chatty:
      "The Projects folder in Syncthing should be labelled 'Client Projects' now, could you change that?",
    withoutValue: 'change the label of a folder',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    const dialog = await editFolder(page, 'Projects')
    await retype(dialog.locator('#folderLabel'), 'Client Projects')
    await saveDialog(page, dialog)
    await folderPanel(page, 'Client Projects').waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [
      { recorded: 'Projects', changed: ['Notes', 'Wallpapers'] },
      { recorded: 'Client Projects', changed: ['Meeting Notes', 'Desktop Wallpapers'] },
    ],
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Notes', 'Meeting Notes']
      await changeConfig(app, session, (config) => {
        folderByLabel(config, used[0]!).label = used[1]!
      })
      mustPass(await renameFolder.key.check(app, succeeded, session, used))
    },
    async check(app, _run, session, used) {
      const [picked, label] = used.map(String) as [string, string]
      const folder = await seededFolderNow(app, session, picked)
      if (typeof folder === 'string') return folder
      if (folder.label !== label) return `${picked} is labelled ${folder.label}, not ${label}`
      if (folder.path !== folderPath(picked)) return `${picked} moved to ${folder.path}`
      const config = await readConfig(app, session)
      const twins = config.folders.filter((f) => f.label === label).length
      if (twins > 1) return `${twins} folders are labelled ${label}`
      // The recorded folder is not the one a run with another folder may change.
      const projects = folderById(config, seededFolder('Projects').id)
      return projects?.label === 'Projects' ? null : `Projects was relabelled ${projects?.label}`
    },
  },
}

/** Unfolds Camera Uploads and clicks its Pause button. */
export const pauseFolder: Workflow = {
  id: 'pause_folder',
  intent: 'pause the folder Camera Uploads',
  rewordings: {
    terse: 'pause Camera Uploads',
    chatty:
      "I'm reorganising my phone pictures, please pause syncing of the Camera Uploads folder.",
    withoutValue: 'pause a folder',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    const panel = await openFolder(page, 'Camera Uploads')
    const saved = configSaved(page)
    await panel.getByRole('button', { name: 'Pause' }).click()
    await saved
    await folderStatus(page, 'Camera Uploads').getByText('Paused').waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [{ recorded: 'Camera Uploads', changed: ['Screenshots', 'Videos'] }],
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const label = 'Screenshots'
      await changeConfig(app, session, (config) => {
        folderByLabel(config, label).paused = true
      })
      mustPass(await pauseFolder.key.check(app, succeeded, session, [label]))
    },
    async check(app, _run, session, used) {
      const label = String(used[0])
      const folder = await seededFolderNow(app, session, label)
      if (typeof folder === 'string') return folder
      if (folder.label !== label) return `${label} was relabelled ${folder.label}`
      if (!folder.paused) return `${label} is not paused`
      const camera = await seededFolderNow(app, session, 'Camera Uploads')
      return typeof camera !== 'string' && camera.paused ? 'Camera Uploads was paused too' : null
    },
  },
}

/** Unfolds Invoices 2026, Edit, Advanced tab, types the new full rescan interval, Save. */
export const setRescanInterval: Workflow = {
  id: 'set_rescan_interval',
  intent: 'set the full rescan interval of the folder Invoices 2026 to 600 seconds',
  rewordings: {
    terse: 'Invoices 2026 rescan interval 600s',
    chatty:
      'Syncthing only rescans my Invoices 2026 folder once an hour, could you make that every 600 seconds instead?',
    withoutValue: "change how often a folder's files are rescanned",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    const dialog = await editFolder(page, 'Invoices 2026')
    await openTab(dialog, 'Advanced')
    await retype(dialog.locator('#rescanIntervalS'), '600')
    await saveDialog(page, dialog)
    // The page draws the list again after a save: the person unfolds the folder once more, where
    // the "Rescans" row shows the new interval as a duration.
    const panel = await openFolder(page, 'Invoices 2026')
    await panel.getByText('10m').waitFor()
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [
      { recorded: 'Invoices 2026', changed: ['Receipts', 'Taxes'] },
      { recorded: 600, changed: [900, 1800] },
    ],
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const used: [string, number] = ['Receipts', 900]
      await changeConfig(app, session, (config) => {
        folderByLabel(config, used[0]).rescanIntervalS = used[1]
      })
      mustPass(await setRescanInterval.key.check(app, succeeded, session, used))
    },
    async check(app, _run, session, used) {
      const label = String(used[0])
      const folder = await seededFolderNow(app, session, label)
      if (typeof folder === 'string') return folder
      if (folder.label !== label) return `${label} was relabelled ${folder.label}`
      if (folder.rescanIntervalS !== Number(used[1]))
        return `${label} rescans every ${folder.rescanIntervalS} s, not ${String(used[1])}`
      const invoices = await seededFolderNow(app, session, 'Invoices 2026')
      return typeof invoices !== 'string' && invoices.rescanIntervalS !== 3600
        ? `Invoices 2026 now rescans every ${invoices.rescanIntervalS} s`
        : null
    },
  },
}

/** Unfolds Old Backups, Edit, Remove, and answers Yes to "Are you sure?". */
export const removeFolder: Workflow = {
  id: 'remove_folder',
  intent: 'remove the folder Old Backups from Syncthing',
  rewordings: {
    terse: 'remove folder Old Backups',
    chatty: "I don't need Old Backups synced anymore, could you take that folder out of Syncthing?",
    withoutValue: 'remove a folder from Syncthing',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    const dialog = await editFolder(page, 'Old Backups')
    await dialog.locator('.modal-footer').getByRole('button', { name: 'Remove' }).click()
    const confirm = page.locator('#remove-folder-confirmation')
    const saved = configSaved(page)
    await confirm.getByRole('button', { name: 'Yes' }).click()
    await saved
    await folderPanel(page, 'Old Backups').waitFor({ state: 'detached' })
  },
  key: {
    target: WRITE_CONFIG,
    inputs: [{ recorded: 'Old Backups', changed: ['Archive 2024', 'Temp Exports'] }],
    dependencies: [READ_CONFIG],
    mutating: true,
    async replayByHand(app, session) {
      const label = 'Archive 2024'
      await changeConfig(app, session, (config) => {
        config.folders = config.folders.filter((f) => f.label !== label)
      })
      mustPass(await removeFolder.key.check(app, succeeded, session, [label]))
    },
    async check(app, _run, session, used) {
      const label = String(used[0])
      const config = await readConfig(app, session)
      if (folderById(config, seededFolder(label).id)) return `${label} is still there`
      // Only that one: the recorded folder, and every folder no workflow removes, stay.
      const kept = FOLDERS.filter((f) => !['Archive 2024', 'Temp Exports'].includes(f.label))
      const lost = kept.filter((f) => !folderById(config, f.id)).map((f) => f.label)
      return lost.length ? `the folders ${lost.join(', ')} are gone too` : null
    },
  },
}
