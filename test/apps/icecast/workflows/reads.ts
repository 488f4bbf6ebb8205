/**
 * Icecast workflows that only read: the public status page, the admin Mountpoint List, and the
 * listeners of a mount picked in that list (`/admin/listclients.xsl?mount=<mount>`).
 */
import type { Workflow } from '../../types'
import { adminPath, getText, mustPass, resultText } from '../keys'
import { clickMountLink, openAdminSignedIn, openMountList } from '../person'
import { MOUNTS, seededMount } from '../seed'

/** The seeded mounts `text` does not mention (by their path). */
function missingMounts(text: string): string[] {
  return MOUNTS.map((m) => m.mount).filter((mount) => !text.includes(mount))
}

/**
 * From the Version page, clicks "Server Status": the public page with every live mount, its stream
 * name, listeners and song. No login, nothing typed.
 */
export const serverStatus: Workflow = {
  id: 'server_status',
  intent: 'show the Icecast server status',
  rewordings: {
    terse: 'icecast status',
    chatty:
      "can you pull up the Icecast status page for me? I want to see which streams are on air and what they're playing",
    withoutValue: 'what streams are live on the Icecast server right now',
  },
  startPath: '/server_version.xsl',
  signedIn: false,
  async play(page) {
    await page.locator('#menu').getByRole('link', { name: 'Server Status' }).click()
    await page.getByRole('heading', { name: 'Mount Point /live.mp3' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/status.xsl' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, undefined, '/status.xsl')
      mustPass(
        await serverStatus.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = missingMounts(text)
      if (missing.length) return `the answer does not list ${missing.join(', ')}`
      const unnamed = MOUNTS.filter((m) => !text.includes(m.name)).map((m) => m.mount)
      return unnamed.length ? `the answer does not name the streams of ${unnamed.join(', ')}` : null
    },
  },
}

/** Admin Home, then "Mountpoint List": every live mount with its listener count. */
export const listMounts: Workflow = {
  id: 'list_mounts',
  intent: 'list the mount points on my Icecast server',
  rewordings: {
    terse: 'icecast mountpoints',
    chatty:
      'Could you open the Icecast admin and give me the list of active mountpoints with how many listeners each one has?',
    withoutValue: 'which mounts does Icecast have and how many people are on each',
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openMountList(page)
    await page.getByRole('heading', { name: 'Mountpoint /studio-b.mp3' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/admin/listmounts.xsl' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, session, '/admin/listmounts.xsl')
      mustPass(await listMounts.key.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = missingMounts(text)
      if (missing.length) return `the answer does not list ${missing.join(', ')}`
      // The admin list says "3 Listener(s)" per mount (its raw XML `<listeners>3</listeners>`);
      // the public status page words it otherwise.
      return /\d+\s+Listener\(s\)|<listeners>\d+<\/listeners>/.test(text)
        ? null
        : 'the answer is not the admin mount list (no listener counts)'
    },
  },
}

/** Mountpoint List, then "List Clients" in /live.mp3's box: the listeners of that mount. */
export const listListeners: Workflow = {
  id: 'list_listeners',
  intent: 'list the listeners connected to the mount /live.mp3 in Icecast',
  rewordings: {
    terse: 'icecast listeners /live.mp3',
    chatty:
      "who's tuned in to /live.mp3 right now? could you show me the list of clients connected to that mount in Icecast?",
    withoutValue: 'show who is listening to one of my Icecast streams',
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openMountList(page)
    await clickMountLink(page, '/live.mp3', 'List Clients')
    await page.getByRole('heading', { name: 'Listener Stats' }).waitFor()
    await page.getByRole('cell', { name: 'Winamp/5.9' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/admin/listclients.xsl' },
    inputs: [{ recorded: '/live.mp3', changed: ['/jazz.mp3', '/talk.mp3'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const mount = '/jazz.mp3'
      const html = await getText(app, session, adminPath('listclients.xsl', { mount }))
      mustPass(
        await listListeners.key.check(app, { status: 'succeeded', result: html }, session, [mount]),
      )
    },
    async check(_app, run, _session, used) {
      const mount = seededMount(String(used[0]))
      const text = resultText(run.result)
      const missing = mount.listeners.filter((l) => !text.includes(l.userAgent))
      if (missing.length)
        return `the answer does not list ${missing.map((l) => l.userAgent).join(', ')} of ${mount.mount}`
      const others = MOUNTS.filter((m) => m !== mount)
        .flatMap((m) => m.listeners)
        .filter((l) => text.includes(l.userAgent))
      return others.length
        ? `the answer also lists ${others.map((l) => l.userAgent).join(', ')}, not of ${mount.mount}`
        : null
    },
  },
}
