/**
 * Workflows on the whole server, from the header: the speed limit (click the speed, type KB/s,
 * "Set limit": `rate([<KB/s>])`) and a timed pause (the play button's menu, "Custom...", type
 * when to resume: `pausedownload`, `pausepost`, `pausescan`, then `scheduleresume([<seconds>])`
 * where the page computes the seconds from the typed time and its clock at that moment).
 */
import type { Workflow } from '../../types'
import { openAnsweringLogin, openSignedIn, retype } from '../person'
import { call, mustPass, poll, status, type Caller } from '../rpc'
import { rpcTarget } from './queue'

/**
 * Signs in (the Basic login), clicks the speed shown in the header, types the limit in the
 * Speed Limit dialog and presses "Set limit". The header's plane icon turns into a truck while a
 * limit is set.
 */
export const setSpeedLimit: Workflow = {
  id: 'set_speed_limit',
  intent: "set NZBGet's download speed limit to 1500 KB/s",
  rewordings: {
    terse: 'nzbget speed limit 1500',
    chatty: 'NZBGet is eating all my bandwidth, could you cap its downloads at 1500 KB/s for me?',
    withoutValue: 'limit how fast NZBGet downloads',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await openAnsweringLogin(page, app)
    await page.locator('#StatusSpeed').click()
    const dialog = page.locator('#LimitDialog')
    await dialog.getByText('Speed Limit').first().waitFor()
    await retype(dialog.locator('#LimitDialog_SpeedInput'), '1500')
    await dialog.getByRole('link', { name: 'Set limit' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.locator('#StatusSpeedIcon.icon-truck').waitFor()
  },
  key: {
    target: rpcTarget('rate'),
    inputs: [{ recorded: 1500, changed: [800, 2400] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const kb = 800
      await call({ fetch: app.fetch, session }, 'rate', [kb])
      mustPass(
        await setSpeedLimit.key.check(app, { status: 'succeeded', result: null }, session, [kb]),
      )
    },
    async check(app, _run, session, used) {
      const want = Number(used[0]) * 1024
      // `status` gives the limit in bytes per second.
      const limit = await poll(async () => {
        const s = await status({ fetch: app.fetch, session })
        return s.DownloadLimit === want ? s.DownloadLimit : null
      })
      if (limit !== null) return null
      const now = (await status({ fetch: app.fetch, session })).DownloadLimit
      return `the speed limit is ${now / 1024} KB/s, not ${String(used[0])}`
    },
  },
}

/** `HH:MM` as the next moment the local clock shows it (now if it is that minute's start). */
function nextClockTime(hhmm: string, from: Date): Date {
  const [h, m] = hhmm.split(':').map(Number)
  const at = new Date(from)
  at.setHours(h!, m!, 0, 0)
  if (at < from) at.setDate(at.getDate() + 1)
  return at
}

/**
 * Seconds from now until NZBGet resumes by itself, by its own clock (`ResumeTime -
 * ServerTime`), or null when no resume is scheduled; with whether downloading is paused.
 */
async function scheduled(c: Caller): Promise<{ inSeconds: number | null; paused: boolean }> {
  const s = await status(c)
  return {
    inSeconds: s.ResumeTime > 0 ? s.ResumeTime - s.ServerTime : null,
    paused: s.DownloadPaused,
  }
}

/**
 * Opens the play button's menu, picks "Custom..." under "Pause for", types `=23:00` (the
 * dialog's syntax for a clock time; `30m` or `2h` would be a duration) and presses Pause. The
 * page turns the time into the seconds left until then by its own clock, so the request holds a
 * number computed at that moment (`scheduleresume([3131.207])`); the header then counts down.
 */
export const pauseUntil: Workflow = {
  id: 'pause_until',
  intent: 'pause all NZBGet downloads until 23:00',
  rewordings: {
    terse: 'nzbget pause until 23:00',
    chatty:
      "I'm gaming tonight and need the connection, could you pause NZBGet and have it pick up again by itself at 23:00?",
    withoutValue: 'pause NZBGet until a certain time',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openSignedIn(page, app)
    // The small caret beside the big play/pause button opens its menu.
    await page.locator('#PlayCaret').click()
    await page.locator('#PlayMenu').getByRole('link', { name: 'Custom...' }).click()
    const dialog = page.locator('#ScheduledPauseDialog')
    await retype(dialog.locator('#PauseForInput'), '=23:00')
    await dialog.getByText('Will remain paused until').waitFor()
    await dialog.getByRole('link', { name: 'Pause', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    // Paused: the big button turns orange and the header shows the time left.
    await page.locator('#PlayButton').waitFor()
    await page.locator('#StatusTime').filter({ hasText: /\d+m/ }).waitFor()
  },
  key: {
    target: rpcTarget('scheduleresume'),
    inputs: [{ recorded: '23:00', changed: ['06:30', '18:45'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const c = { fetch: app.fetch, session }
      const at = '06:30'
      const now = new Date()
      await call(c, 'pausedownload', [])
      await call(c, 'scheduleresume', [(nextClockTime(at, now).getTime() - now.getTime()) / 1000])
      mustPass(
        await pauseUntil.key.check(app, { status: 'succeeded', result: null }, session, [at]),
      )
    },
    async check(app, _run, session, used) {
      const at = String(used[0])
      const c = { fetch: app.fetch, session }
      const got = await poll(async () => {
        const s = await scheduled(c)
        return s.inSeconds !== null ? s : null
      })
      if (!got || got.inSeconds === null) return 'no automatic resume is scheduled'
      if (!got.paused) return 'downloading is not paused'
      const want = (nextClockTime(at, new Date()).getTime() - Date.now()) / 1000
      // A minute either way (the run, the check and NZBGet's whole-second clock), around the
      // clock: a run just before `at` and a check just after it differ by a day.
      const off = (((got.inSeconds - want) % 86_400) + 86_400) % 86_400
      return off <= 60 || off >= 86_400 - 60
        ? null
        : `NZBGet resumes in ${Math.round(got.inSeconds)} s, not at ${at} (in ${Math.round(want)} s)`
    },
  },
}
