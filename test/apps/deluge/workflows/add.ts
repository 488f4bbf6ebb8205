/**
 * Adding torrents with the Add dialog. Both ways end in the same call,
 * `web.add_torrents([[{"path": ..., "options": {...}}]])`, whose options are the dialog's
 * defaults (read with `core.get_config_values` when it opens: download folder, limits...).
 * - A magnet link: Url → paste → Add; the UI asks `web.get_magnet_info(uri)` for the name and
 *   hash to list, and the add sends the link itself as `path`.
 * - A .torrent file: File → pick; the UI posts the file to `POST /upload` (multipart, field
 *   `file`, no session needed), which saves it under a random name in the web server's temp dir
 *   and answers `{"success": true, "files": ["/tmp/.../tmpXXXX.torrent"]}` (as text/html);
 *   `web.get_torrent_info(path)` then reads its name, and the add sends that server path.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { call, mustPass, poll, torrents } from '../rpc'
import { NEW_MAGNETS, OTHER_UPLOAD_TORRENT, UPLOAD_TORRENT } from '../seed'
import { magnetHash } from '../torrent'
import { signInFromLoginWindow, toolbarButton, waitForList, windowTitled } from '../ui'
import { rpcTarget } from './actions'

const ADD_TORRENTS = rpcTarget('web.add_torrents')

/** The display name (`dn`) of a magnet link. */
const magnetName = (uri: string): string => new URLSearchParams(uri.split('?')[1]).get('dn') ?? ''

/** The Add dialog's options as the UI sends them, from the daemon's current defaults. */
async function dialogOptions(app: AppInstance, session: StorageState): Promise<object> {
  const c = (await call(app, session, 'core.get_config_values', [
    [
      'add_paused',
      'pre_allocate_storage',
      'download_location',
      'move_completed',
      'move_completed_path',
    ],
  ])) as Record<string, unknown>
  return {
    file_priorities: [],
    add_paused: c.add_paused,
    sequential_download: false,
    pre_allocate_storage: c.pre_allocate_storage,
    download_location: c.download_location,
    move_completed: c.move_completed,
    move_completed_path: c.move_completed_path,
    max_connections: -1,
    max_download_speed: -1,
    max_upload_slots: -1,
    max_upload_speed: -1,
    prioritize_first_last_pieces: false,
    seed_mode: false,
    super_seeding: false,
  }
}

/** Signs in from the login window, then adds a magnet link through Add → Url. */
export const addMagnet: Workflow = {
  id: 'add_magnet',
  intent: `add the magnet link ${NEW_MAGNETS[0]} to Deluge`,
  rewordings: {
    terse: `deluge add ${NEW_MAGNETS[0]}`,
    chatty: `Someone sent me this magnet link, can you start it downloading in Deluge? ${NEW_MAGNETS[0]}`,
    withoutValue: 'add a magnet link to Deluge',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromLoginWindow(page, app.user.password)
    await toolbarButton(page, 'Add').click()
    const dialog = windowTitled(page, 'Add Torrents')
    await dialog.getByRole('button', { name: 'Url', exact: true }).click()
    const urlWindow = windowTitled(page, 'Add from Url')
    await page.locator('#url').fill(NEW_MAGNETS[0]!)
    await urlWindow.getByRole('button', { name: 'Add', exact: true }).click()
    // The dialog lists the magnet by its name once web.get_magnet_info answered.
    const name = magnetName(NEW_MAGNETS[0]!)
    await dialog.locator('.x-list-body').getByText(name, { exact: true }).waitFor()
    await dialog.getByRole('button', { name: 'Add', exact: true }).click()
    await waitForList(page, name)
  },
  key: {
    target: ADD_TORRENTS,
    inputs: [{ recorded: NEW_MAGNETS[0]!, changed: [NEW_MAGNETS[1]!, NEW_MAGNETS[2]!] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const uri = NEW_MAGNETS[1]!
      const options = await dialogOptions(app, session)
      await call(app, session, 'web.add_torrents', [[{ path: uri, options }]])
      mustPass(
        await addMagnet.key.check(app, { status: 'succeeded', result: null }, session, [uri]),
      )
    },
    async check(app, _run, session, used) {
      const uri = String(used[0])
      const hash = magnetHash(magnetName(uri))
      const found = await poll(async () => ((await torrents(app, session))[hash] ? true : null))
      return found ? null : `no torrent with the magnet's info hash ${hash} was added`
    },
  },
}

/**
 * How many of the two upload torrents (the recorded file's and the other file's) each instance
 * held at its last check: an upload tool takes no typed input (the file is the input), so the
 * check cannot tell from `used` which file was sent; it asks that one more of them is there.
 */
const uploadsSeen = new WeakMap<AppInstance, number>()

/** Picks a .torrent file in Add → File and adds it. */
export const uploadTorrent: Workflow = {
  id: 'upload_torrent',
  intent: 'upload the torrent file tears-of-steel-1080p.mkv.torrent to Deluge',
  rewordings: {
    terse: 'upload tears-of-steel-1080p.mkv.torrent',
    chatty:
      'I downloaded tears-of-steel-1080p.mkv.torrent from the project site, can you add it to Deluge so it starts?',
    withoutValue: 'add a .torrent file to Deluge',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    await toolbarButton(page, 'Add').click()
    const dialog = windowTitled(page, 'Add Torrents')
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'tears-of-steel-1080p.mkv.torrent',
      mimeType: 'application/x-bittorrent',
      buffer: UPLOAD_TORRENT.bytes,
    })
    // The row shows the file's name, then the torrent's (from web.get_torrent_info).
    await dialog.locator('.x-list-body').getByText(UPLOAD_TORRENT.name, { exact: true }).waitFor()
    await dialog.getByRole('button', { name: 'Add', exact: true }).click()
    await waitForList(page, UPLOAD_TORRENT.name)
  },
  key: {
    target: ADD_TORRENTS,
    inputs: [],
    // The server path of the uploaded file, which only the upload's answer names.
    dependencies: [{ method: 'POST', path: '/upload' }],
    mutating: true,
    file: OTHER_UPLOAD_TORRENT.bytes,
    async replayByHand(app, session) {
      const form = new FormData()
      form.append(
        'file',
        new Blob([new Uint8Array(OTHER_UPLOAD_TORRENT.bytes)]),
        'caminandes.torrent',
      )
      const res = await app.fetch('/upload', { method: 'POST', session, body: form })
      const upload = (await res.json()) as { success: boolean; files: string[] }
      if (!upload.success || !upload.files[0]) throw new Error(`/upload answered ${res.status}`)
      const options = await dialogOptions(app, session)
      await call(app, session, 'web.add_torrents', [[{ path: upload.files[0], options }]])
      mustPass(
        await uploadTorrent.key.check(app, { status: 'succeeded', result: null }, session, []),
      )
    },
    async check(app, _run, session) {
      const before = uploadsSeen.get(app) ?? 0
      const hashes = [UPLOAD_TORRENT.hash, OTHER_UPLOAD_TORRENT.hash]
      const count = await poll(async () => {
        const all = await torrents(app, session)
        const n = hashes.filter((h) => all[h]).length
        return n > before ? n : null
      })
      if (count === null)
        return `no torrent of an uploaded file was added (${before} of the two were there before)`
      uploadsSeen.set(app, count)
      return null
    },
  },
}
