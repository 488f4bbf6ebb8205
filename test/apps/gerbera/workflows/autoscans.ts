/**
 * Gerbera's autoscan directories, in the classic UI. A folder's autoscan icon (in the Filesystem
 * view "add as autoscan dir", in the Database view "change autoscan dir") loads the autoscan
 * form (`req_type=autoscan&action=as_edit_load&object_id=&from_fs=`); its Set button saves it
 * (`req_type=autoscan&action=as_edit_save&object_id=&from_fs=&scan_mode=&...`): the folder is
 * the hex of its path from the Filesystem view (`from_fs=1`), or its database id (`from_fs=0`).
 * Scan mode None removes the autoscan.
 */
import type { Workflow } from '../../types'
import { autoscanOf, call, containers, folderId, fsId, mustPass, op } from '../api'
import { MEDIA_ROOT, SEEDED_AUTOSCANS } from '../seed'
import { autoscanParams } from '../session'
import { classicReady, folderAction, frame, logInClassic, openFolder, switchView } from './person'

/** Clicks Set on the autoscan form and waits for Gerbera's answer to the save. */
async function setAutoscan(page: Parameters<Workflow['play']>[0]): Promise<void> {
  const saved = page.waitForResponse((res) =>
    new URL(res.url()).search.includes('action=as_edit_save'),
  )
  await frame(page, 'rightF').getByRole('button', { name: 'Set' }).click()
  await saved
}

const INTERVAL = 21600

/**
 * The Filesystem view: srv, media, Inbox, Podcasts; "add as autoscan dir"; Timed, the interval
 * typed in seconds; Set.
 */
export const addAutoscan: Workflow = {
  id: 'add_autoscan',
  intent: `make my Inbox/Podcasts folder a Gerbera autoscan directory that is rescanned every ${INTERVAL} seconds`,
  rewordings: {
    terse: `gerbera autoscan Inbox/Podcasts every ${INTERVAL}s`,
    chatty: `New podcast episodes land in Inbox/Podcasts; can you have the media server rescan that folder by itself every ${INTERVAL} seconds?`,
    withoutValue: 'have the media server rescan a folder on a timer',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await switchView(page, 'Filesystem')
    await openFolder(page, 'Filesystem', ['srv', 'media', 'Inbox', 'Podcasts'])
    await folderAction(page, 'add as autoscan dir')
    const right = frame(page, 'rightF')
    await right.locator('form[name="autoscanForm"]').waitFor()
    await right.getByLabel('Timed').check()
    await right.getByLabel('Scan Interval (in seconds):').fill(String(INTERVAL))
    await setAutoscan(page)
  },
  key: {
    target: op('autoscan', 'as_edit_save'),
    inputs: [
      { recorded: 'Podcasts', changed: ['Radio Shows', 'Lectures'] },
      { recorded: INTERVAL, changed: [43200, 3600] },
    ],
    // The folder's id (the hex of its path) from its parent's folder list in the Filesystem view.
    dependencies: [op('directories')],
    mutating: true,
    async replayByHand(app, session) {
      const folder = 'Radio Shows'
      const interval = 43200
      const listed = await call(app, session, {
        req_type: 'directories',
        parent_id: fsId(`${MEDIA_ROOT}/Inbox`),
        select_it: '0',
      })
      const dirs = (listed['containers'] as { container: Array<{ id: string; title: string }> })
        .container
      const dir = dirs.find((d) => d.title === folder)
      if (!dir) throw new Error(`the Inbox lists no folder ${folder}`)
      await call(app, session, autoscanParams(dir.id, true, interval))
      mustPass(
        await this.check(app, { status: 'succeeded', result: null }, session, [folder, interval]),
      )
    },
    async check(app, _run, session, used) {
      const folder = String(used[0])
      const interval = Number(used[1])
      const scan = await autoscanOf(app, session, fsId(`${MEDIA_ROOT}/Inbox/${folder}`), true)
      if (scan.scanMode !== 'timed') return `${folder} is not a timed autoscan (${scan.scanMode})`
      if (scan.interval !== interval) return `${folder} is rescanned every ${scan.interval} s`
      const recorded = await autoscanOf(app, session, fsId(`${MEDIA_ROOT}/Inbox/Podcasts`), true)
      return recorded.scanMode === 'none' ? null : 'the recorded folder Podcasts became an autoscan'
    },
  },
}

/** The media folder in the database tree, parent of the seeded autoscan folders. */
const MEDIA_IN_DB = ['PC Directory', 'srv', 'media']

/**
 * Signed out on the classic UI: logs in, then PC Directory down to media › Concerts (an
 * autoscan folder, its icon marked); "change autoscan dir"; Scan Mode None; Set.
 */
export const removeAutoscan: Workflow = {
  id: 'remove_autoscan',
  intent: 'stop Gerbera from autoscanning my Concerts folder',
  rewordings: {
    terse: 'gerbera remove autoscan Concerts',
    chatty:
      "The Concerts folder doesn't change anymore, could you turn off the media server's automatic rescans of it?",
    withoutValue: 'remove an autoscan directory from the media server',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logInClassic(page, app)
    await openFolder(page, 'Database', [...MEDIA_IN_DB, 'Concerts'])
    await folderAction(page, 'change autoscan dir')
    const right = frame(page, 'rightF')
    await right.locator('form[name="autoscanForm"]').waitFor()
    await right.getByLabel('None').check()
    await setAutoscan(page)
  },
  key: {
    target: op('autoscan', 'as_edit_save'),
    inputs: [{ recorded: 'Concerts', changed: ['Audiobooks', 'Ringtones'] }],
    // The folder's database id from its parent's folder list, by name.
    dependencies: [op('containers')],
    mutating: true,
    async replayByHand(app, session) {
      const folder = 'Audiobooks'
      const parent = await folderId(app, session, MEDIA_IN_DB)
      const dir = parent && (await containers(app, session, parent)).find((c) => c.title === folder)
      if (!dir) throw new Error(`the media folder holds no ${folder}`)
      await call(app, session, autoscanParams(dir.id, false, null))
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [folder]))
    },
    async check(app, _run, session, used) {
      const folder = String(used[0])
      if (!SEEDED_AUTOSCANS.some((a) => a.folder === folder))
        return `no expectation for the folder ${folder}`
      const scanOf = async (name: string) => {
        const id = await folderId(app, session, [...MEDIA_IN_DB, name])
        return id === null ? null : autoscanOf(app, session, id, false)
      }
      const scan = await scanOf(folder)
      if (!scan) return `the library has no folder ${folder}`
      if (scan.scanMode !== 'none') return `${folder} is still a ${scan.scanMode} autoscan`
      const recorded = await scanOf('Concerts')
      return recorded?.scanMode === 'timed'
        ? null
        : 'the recorded folder Concerts lost its autoscan'
    },
  },
}
