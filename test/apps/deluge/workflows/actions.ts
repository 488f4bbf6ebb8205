/**
 * Actions on a torrent the person picks in the list. The UI sends the selected rows' ids (info
 * hashes, the keys of `web.update_ui`'s `torrents`) as the first parameter:
 * `core.pause_torrent([[id]])`, `core.resume_torrent([[id]])`, `core.remove_torrents([[id],
 * remove_data])`, `core.set_torrent_options([[id], {changed options}])`. Each answers
 * `{"result": null, ...}` (remove: `[]` when nothing failed), so a tool naming a torrent must
 * look its id up by name in the list first.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, RequestKey, Workflow } from '../../types'
import type { DelugeInstance } from '../index'
import { call, hashOf, mustPass, poll, torrents } from '../rpc'
import { pickRow, row, toolbarButton, waitForList, waitForState, windowTitled } from '../ui'
import { UPDATE_UI } from './reads'

/** `POST /json` calling the JSON-RPC method `method`. */
export const rpcTarget = (method: string): RequestKey => ({
  method: 'POST',
  path: '/json',
  operation: { field: 'method', value: method },
})

/** The id of the torrent `name`, or throws (a replay needs it). */
async function idOf(app: AppInstance, session: StorageState, name: string): Promise<string> {
  const id = await hashOf(app, session, name)
  if (!id) throw new Error(`no torrent named ${name}`)
  return id
}

/**
 * The state of the torrent `name` ('gone' when it is not in the session), waiting a few seconds
 * for one that `ok` accepts, since the daemon applies some actions after it answered.
 */
async function stateOf(
  app: AppInstance,
  session: StorageState,
  name: string,
  ok: (state: string) => boolean,
): Promise<string> {
  let last = 'gone'
  const seen = await poll(async () => {
    const t = Object.values(await torrents(app, session)).find((x) => x.name === name)
    last = t?.state ?? 'gone'
    return ok(last) ? last : null
  })
  return seen ?? last
}

/** Picks a downloading torrent and clicks Pause in the toolbar. */
export const pauseTorrent: Workflow = {
  id: 'pause_torrent',
  intent: 'pause the torrent debian-12.5.0-amd64-netinst.iso',
  rewordings: {
    terse: 'pause debian-12.5.0-amd64-netinst.iso',
    chatty:
      'I need the bandwidth for a call, could you pause debian-12.5.0-amd64-netinst.iso in Deluge for now?',
    withoutValue: 'pause a torrent',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const name = 'debian-12.5.0-amd64-netinst.iso'
    await waitForList(page)
    await pickRow(page, name)
    await toolbarButton(page, 'Pause').click()
    await waitForState(page, name, 'Paused')
  },
  key: {
    target: rpcTarget('core.pause_torrent'),
    inputs: [
      {
        recorded: 'debian-12.5.0-amd64-netinst.iso',
        changed: ['fedora-workstation-40-x86_64.iso', 'archlinux-2024.06.01-x86_64.iso'],
      },
    ],
    // The id behind the name the person clicked.
    dependencies: [UPDATE_UI],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'fedora-workstation-40-x86_64.iso'
      await call(app, session, 'core.pause_torrent', [[await idOf(app, session, name)]])
      mustPass(
        await pauseTorrent.key.check(app, { status: 'succeeded', result: null }, session, [name]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const state = await stateOf(app, session, name, (s) => s === 'Paused')
      return state === 'Paused' ? null : `${name} is ${state}, not Paused`
    },
  },
}

/** Right-clicks a paused torrent and picks Resume in the context menu. */
export const resumeTorrent: Workflow = {
  id: 'resume_torrent',
  intent: 'resume the paused torrent linuxmint-21.3-cinnamon-64bit.iso',
  rewordings: {
    terse: 'resume linuxmint-21.3-cinnamon-64bit.iso',
    chatty:
      'I paused linuxmint-21.3-cinnamon-64bit.iso yesterday and forgot about it, can you start it again?',
    withoutValue: 'resume a paused torrent',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const name = 'linuxmint-21.3-cinnamon-64bit.iso'
    await waitForList(page)
    await row(page, name).locator('.torrent-name').click({ button: 'right' })
    await page.locator('#torrentMenu').getByText('Resume', { exact: true }).click()
    await waitForState(page, name, 'Downloading')
  },
  key: {
    target: rpcTarget('core.resume_torrent'),
    inputs: [
      {
        recorded: 'linuxmint-21.3-cinnamon-64bit.iso',
        changed: ['opensuse-leap-15.6-dvd-x86_64.iso', 'elementaryos-7.1-stable.iso'],
      },
    ],
    dependencies: [UPDATE_UI],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'opensuse-leap-15.6-dvd-x86_64.iso'
      await call(app, session, 'core.resume_torrent', [[await idOf(app, session, name)]])
      mustPass(
        await resumeTorrent.key.check(app, { status: 'succeeded', result: null }, session, [name]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      // A resumed torrent with no data and no peers is "Downloading" (or "Queued"/"Checking"
      // for a moment); anything but Paused means it runs again.
      const state = await stateOf(app, session, name, (s) => s !== 'Paused' && s !== 'gone')
      return state !== 'Paused' && state !== 'gone' ? null : `${name} is ${state}, not resumed`
    },
  },
}

/**
 * Picks a seeding torrent, clicks Remove, and answers the dialog with "Remove With Data": the
 * torrent leaves the list and its file leaves the download folder.
 */
export const removeTorrent: Workflow = {
  id: 'remove_torrent',
  intent: 'delete the torrent sintel-trailer-720p.mp4 together with its downloaded data',
  rewordings: {
    terse: 'remove sintel-trailer-720p.mp4 with data',
    chatty:
      "I'm done with sintel-trailer-720p.mp4, please get rid of it in Deluge and delete the file too.",
    withoutValue: 'remove a torrent and its data',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    const name = 'sintel-trailer-720p.mp4'
    await waitForList(page)
    await pickRow(page, name)
    await toolbarButton(page, 'Remove').click()
    const dialog = windowTitled(page, 'Remove Torrent')
    await dialog.getByRole('button', { name: 'Remove With Data', exact: true }).click()
    await row(page, name).waitFor({ state: 'detached' })
  },
  key: {
    target: rpcTarget('core.remove_torrents'),
    inputs: [
      {
        recorded: 'sintel-trailer-720p.mp4',
        changed: ['elephants-dream-1080p.mp4', 'cosmos-laundromat-1080p.mp4'],
      },
    ],
    dependencies: [UPDATE_UI],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'elephants-dream-1080p.mp4'
      const errors = await call(app, session, 'core.remove_torrents', [
        [await idOf(app, session, name)],
        true,
      ])
      if (Array.isArray(errors) && errors.length)
        throw new Error(`remove_torrents answered ${JSON.stringify(errors)}`)
      mustPass(
        await removeTorrent.key.check(app, { status: 'succeeded', result: errors }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const state = await stateOf(app, session, name, (s) => s === 'gone')
      if (state !== 'gone') return `${name} is still in the list (${state})`
      // "With data": the daemon deletes the file in the download folder too.
      const file = join((app as DelugeInstance).downloads, name)
      const gone = await poll(async () => (existsSync(file) ? null : true))
      return gone ? null : `${name} left the list but its file is still in the download folder`
    },
  },
}

/**
 * Picks a torrent, opens the Options tab of the details panel, types a maximum download speed
 * and clicks Apply: `core.set_torrent_options([[id], {"max_download_speed": 250}])`.
 */
export const limitTorrentSpeed: Workflow = {
  id: 'limit_torrent_speed',
  intent: 'limit the download speed of big-buck-bunny-1080p.mp4 to 250 KiB/s',
  rewordings: {
    terse: 'big-buck-bunny-1080p.mp4 max download 250',
    chatty:
      'big-buck-bunny-1080p.mp4 is hogging my connection, can you cap its download speed at 250 KiB/s?',
    withoutValue: "set a torrent's maximum download speed",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForList(page)
    await pickRow(page, 'big-buck-bunny-1080p.mp4')
    await page.locator('.x-tab-strip').getByText('Options', { exact: true }).click()
    const field = page.locator('#max_download_speed')
    // The tab fills its fields from web.get_torrent_status: the current limit shows first.
    await page.waitForFunction(
      () =>
        (document.querySelector('#max_download_speed') as HTMLInputElement | null)?.value === '-1',
    )
    await field.fill('250')
    const applied = page.waitForResponse(
      (r) =>
        r.url().endsWith('/json') && (r.request().postData() ?? '').includes('set_torrent_options'),
    )
    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await applied
  },
  key: {
    target: rpcTarget('core.set_torrent_options'),
    inputs: [
      {
        recorded: 'big-buck-bunny-1080p.mp4',
        changed: ['moby-dick-gutenberg.epub', 'beethoven-symphony-9-musopen.flac'],
      },
      { recorded: 250, changed: [400, 750] },
    ],
    dependencies: [UPDATE_UI],
    mutating: true,
    async replayByHand(app, session) {
      const [name, speed] = ['moby-dick-gutenberg.epub', 400]
      const id = await idOf(app, session, name)
      await call(app, session, 'core.set_torrent_options', [[id], { max_download_speed: speed }])
      mustPass(
        await limitTorrentSpeed.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          speed,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [name, speed] = [String(used[0]), Number(used[1])]
      const all = await torrents(app, session, ['name', 'state', 'max_download_speed'])
      const t = Object.values(all).find((x) => x.name === name)
      if (!t) return `no torrent named ${name}`
      return t.max_download_speed === speed
        ? null
        : `${name}'s max download speed is ${t.max_download_speed}, not ${speed}`
    },
  },
}
