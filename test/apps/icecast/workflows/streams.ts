/**
 * Icecast workflows that change a live mount, each a GET of an admin page that names the mount
 * in `?mount=`: set its song title (the Update Metadata form), kick one of its listeners (the
 * Kick link of a row of List Clients, by the listener's connection id), move all its listeners to
 * another mount (Move Listeners, then the destination's "Move clients" link), stop its source
 * (Kill Source). The changed values are other seeded mounts, chosen so no two of these touch the
 * same mount's listeners (seed.ts).
 */
import type { Workflow } from '../../types'
import { adminAction, adminPath, mustPass, settled } from '../keys'
import {
  clickMountLink,
  mountBox,
  openAdminAnsweringPrompt,
  openAdminSignedIn,
  openMountList,
  responseShown,
  typeInto,
} from '../person'
import { seededMount } from '../seed'
import { readListeners, readMounts, readTitles } from '../session'

const SONG = 'Miles Davis - So What'

/**
 * Not signed in: opens the admin pages (answering the login), clicks "Update Metadata" in
 * /live.mp3's box on Admin Home, types the song, presses Update (a GET form).
 */
export const updateMetadata: Workflow = {
  id: 'update_metadata',
  intent: `set the song title of the Icecast mount /live.mp3 to "${SONG}"`,
  rewordings: {
    terse: `icecast /live.mp3 now playing: ${SONG}`,
    chatty: `the encoder on /live.mp3 isn't sending titles, could you set what's playing to "${SONG}" by hand in the Icecast admin?`,
    withoutValue: 'update the now-playing title of an Icecast stream',
  },
  startPath: '/status.xsl',
  signedIn: false,
  async play(page, app) {
    await openAdminAnsweringPrompt(page, app)
    await clickMountLink(page, '/live.mp3', 'Update Metadata')
    await page.getByRole('heading', { name: 'Update Metadata' }).waitFor()
    await typeInto(page.locator('input[name="song"]'), SONG)
    await page.getByRole('button', { name: 'Update' }).click()
    await responseShown(page, 'Metadata update successful')
  },
  key: {
    target: { method: 'GET', path: '/admin/metadata.xsl' },
    inputs: [
      { recorded: '/live.mp3', changed: ['/jazz.mp3', '/chill.mp3'] },
      { recorded: SONG, changed: ['Nina Simone - Feeling Good', 'Portishead - Roads'] },
    ],
    // The form's hidden fields (`mode=updinfo`, `charset=UTF-8`) are fixed: no page to read first.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['/jazz.mp3', 'Nina Simone - Feeling Good'] as const
      const path = adminPath('metadata.xsl', {
        song: used[1],
        mount: used[0],
        mode: 'updinfo',
        charset: 'UTF-8',
      })
      await adminAction(app, session, path, 'Metadata update successful')
      mustPass(
        await updateMetadata.key.check(app, { status: 'succeeded', result: null }, session, [
          ...used,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [mount, song] = used.map(String) as [string, string]
      return settled(async () => {
        const titles = await readTitles(app)
        const title = titles.get(mount)
        if (title !== song)
          return `${mount} plays ${JSON.stringify(title)}, not ${JSON.stringify(song)}`
        const live = titles.get('/live.mp3')
        return mount !== '/live.mp3' && live !== seededMount('/live.mp3').title
          ? `the recorded mount /live.mp3 plays ${JSON.stringify(live)} now`
          : null
      })
    },
  },
}

/** The listener the kick workflow picks when it records (never kicked by the checks). */
const KICKED = { mount: '/live.mp3', userAgent: 'Winamp/5.9' }

/**
 * Mountpoint List, "List Clients" in /live.mp3's box, then "Kick" in the row of the Winamp
 * listener. The link names the listener by Icecast's connection id, which only the list shows.
 */
export const kickListener: Workflow = {
  id: 'kick_listener',
  intent: `kick the listener using ${KICKED.userAgent} off the Icecast mount ${KICKED.mount}`,
  rewordings: {
    terse: `icecast kick ${KICKED.userAgent} from ${KICKED.mount}`,
    chatty: `someone on ${KICKED.mount} with ${KICKED.userAgent} has been hogging a slot all night, can you kick that listener off in Icecast?`,
    withoutValue: 'disconnect a listener from an Icecast stream',
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openMountList(page)
    await clickMountLink(page, KICKED.mount, 'List Clients')
    const row = page.getByRole('row').filter({ hasText: KICKED.userAgent })
    await row.getByRole('link', { name: 'Kick' }).click()
    await responseShown(page, /Client \d+ removed/)
  },
  key: {
    target: { method: 'GET', path: '/admin/killclient.xsl' },
    inputs: [
      { recorded: KICKED.mount, changed: ['/talk.mp3', '/members.mp3'] },
      { recorded: KICKED.userAgent, changed: ['mpv 0.35.1', 'Clementine 1.4.0'] },
    ],
    // The listener's id: the row of the mount's client list that shows its user agent.
    dependencies: [{ method: 'GET', path: '/admin/listclients.xsl' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['/talk.mp3', 'mpv 0.35.1'] as const
      const listeners = (await readListeners(app, session, used[0])) ?? []
      const id = listeners.find((l) => l.userAgent === used[1])?.id
      if (id === undefined) throw new Error(`no listener ${used[1]} on ${used[0]}`)
      const path = adminPath('killclient.xsl', { mount: used[0], id: String(id) })
      await adminAction(app, session, path, `Client ${id} removed`)
      mustPass(
        await kickListener.key.check(app, { status: 'succeeded', result: null }, session, [
          ...used,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [mount, userAgent] = used.map(String) as [string, string]
      return settled(async () => {
        const listeners = (await readListeners(app, session, mount)) ?? []
        if (listeners.some((l) => l.userAgent === userAgent))
          return `${userAgent} still listens to ${mount}`
        const kept = seededMount(mount).listeners.filter((l) => l.userAgent !== userAgent)
        const gone = kept.filter((k) => !listeners.some((l) => l.userAgent === k.userAgent))
        if (gone.length) return `${gone.map((l) => l.userAgent).join(', ')} left ${mount} too`
        if (mount === KICKED.mount) return null
        const recorded = (await readListeners(app, session, KICKED.mount)) ?? []
        return recorded.some((l) => l.userAgent === KICKED.userAgent)
          ? null
          : `the recorded listener ${KICKED.userAgent} was kicked off ${KICKED.mount}`
      })
    },
  },
}

/** The move the workflow records: all of /jazz.mp3's listeners to /live.mp3. */
const MOVE = { from: '/jazz.mp3', to: '/live.mp3' }

/**
 * Mountpoint List, "Move Listeners" in /jazz.mp3's box (a page listing every mount as a
 * destination), then "Move clients" under /live.mp3.
 */
export const moveListeners: Workflow = {
  id: 'move_listeners',
  intent: `move all listeners of the Icecast mount ${MOVE.from} to ${MOVE.to}`,
  rewordings: {
    terse: `icecast move listeners ${MOVE.from} -> ${MOVE.to}`,
    chatty: `the jazz show is ending early tonight, could you shift everybody listening on ${MOVE.from} over to ${MOVE.to} in Icecast?`,
    withoutValue: "move one Icecast stream's listeners to another stream",
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openMountList(page)
    await clickMountLink(page, MOVE.from, 'Move Listeners')
    await page.getByRole('heading', { name: `Moving listeners from ${MOVE.from}` }).waitFor()
    const choice = page.locator('p').filter({ has: page.locator('code', { hasText: MOVE.to }) })
    await choice.getByRole('link', { name: 'Move clients' }).click()
    await responseShown(page, `Clients moved from ${MOVE.from} to ${MOVE.to}`)
  },
  key: {
    // The move page itself is `moveclients.xsl?mount=` too; the move is the one with a destination.
    target: {
      method: 'GET',
      path: '/admin/moveclients.xsl',
      operation: { field: 'destination', value: MOVE.to },
    },
    inputs: [
      { recorded: MOVE.from, changed: ['/news.mp3', '/lofi.mp3'] },
      { recorded: MOVE.to, changed: ['/chill.mp3', '/classics.mp3'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['/news.mp3', '/chill.mp3'] as const
      const path = adminPath('moveclients.xsl', { mount: used[0], destination: used[1] })
      await adminAction(app, session, path, `Clients moved from ${used[0]} to ${used[1]}`)
      mustPass(
        await moveListeners.key.check(app, { status: 'succeeded', result: null }, session, [
          ...used,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [from, to] = used.map(String) as [string, string]
      const moved = seededMount(from).listeners.map((l) => l.userAgent)
      return settled(async () => {
        const left = (await readListeners(app, session, from)) ?? []
        if (left.length) return `${from} still has ${left.map((l) => l.userAgent).join(', ')}`
        const there = ((await readListeners(app, session, to)) ?? []).map((l) => l.userAgent)
        const missing = moved.filter((ua) => !there.includes(ua))
        if (missing.length) return `${missing.join(', ')} did not arrive on ${to}`
        if (from === MOVE.from) return null
        const recorded = ((await readListeners(app, session, MOVE.from)) ?? []).length
        return recorded === seededMount(MOVE.from).listeners.length
          ? null
          : `the recorded mount ${MOVE.from} lost its listeners too`
      })
    },
  },
}

/** The mount whose source the kill workflow stops when it records. */
const KILLED = '/studio-b.mp3'

/**
 * Not signed in: opens the admin pages (answering the login), Mountpoint List, then "Kill Source"
 * in /studio-b.mp3's box (a plain link: Icecast asks nothing and drops the source).
 */
export const killSource: Workflow = {
  id: 'kill_source',
  intent: `kill the source of the Icecast mount ${KILLED}`,
  rewordings: {
    terse: `icecast kill source ${KILLED}`,
    chatty: `rehearsal in studio B is over but the encoder is still streaming to ${KILLED}, can you cut that source off in Icecast?`,
    withoutValue: 'stop one of the streams on the Icecast server',
  },
  startPath: '/status.xsl',
  signedIn: false,
  async play(page, app) {
    await openAdminAnsweringPrompt(page, app)
    await openMountList(page)
    await mountBox(page, KILLED).waitFor()
    await clickMountLink(page, KILLED, 'Kill Source')
    await responseShown(page, 'Source Removed')
  },
  key: {
    target: { method: 'GET', path: '/admin/killsource.xsl' },
    inputs: [{ recorded: KILLED, changed: ['/soundcheck.mp3', '/old-feed.mp3'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const mount = '/soundcheck.mp3'
      await adminAction(app, session, adminPath('killsource.xsl', { mount }), 'Source Removed')
      mustPass(
        await killSource.key.check(app, { status: 'succeeded', result: null }, session, [mount]),
      )
    },
    async check(app, _run, session, used) {
      const mount = String(used[0])
      return settled(async () => {
        const live = (await readMounts(app, session)).map((m) => m.mount)
        if (live.includes(mount)) return `${mount} is still live`
        return mount === KILLED || live.includes(KILLED)
          ? null
          : `the recorded mount ${KILLED} was killed too`
      })
    },
  },
}
