/**
 * Nagios workflows that send a command: each opens a host or service page from a list, clicks one
 * of its command links (cmd.cgi's form for that `cmd_typ`, which sets the CSRF cookie), fills the
 * form and presses Commit: `POST cmd.cgi` with `cmd_typ`, `cmd_mod=2`, the form's fields and the
 * hidden `nagFormId`. Nagios carries the command out a moment later; the checks read its state
 * back from statusjson.cgi, waiting a few seconds for it.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { CMD_TYP, COMMAND_FORM, COMMENTS_PAGE, commandKey, parseUsTime, usTime } from '../keys'
import {
  MENU,
  type NagiosPage,
  clickMenu,
  commit,
  openAnsweringPrompt,
  openCommand,
  openHost,
  openService,
  openSignedIn,
  retype,
} from '../person'
import { CGI, LANDING_PATH, seededComment } from '../seed'
import { comments, downtimes, mustPass, sendCommand, serviceStatus, settle } from '../session'

const HOSTS_LIST = 'Host Status Details For All Host Groups'
const SERVICES_LIST = 'Service Status Details For All Hosts'

/** Runs a write key's check as replayByHand's last step, with what it used. */
async function judged(
  wf: () => Workflow,
  app: AppInstance,
  session: StorageState,
  used: Array<string | number | boolean>,
): Promise<void> {
  mustPass(await wf().key.check(app, { status: 'succeeded', result: null }, session, used))
}

/** The downtime window the person asks for: from now, this many hours. */
const DOWNTIME_HOURS = 3

/**
 * Hosts list > web01 > "Schedule downtime for this host"; types the comment, leaves the start
 * time (the form fills in now) and types the end time three hours after it; Commit.
 */
export const scheduleHostDowntime: Workflow = {
  id: 'schedule_host_downtime',
  intent:
    'schedule downtime for the host web01 in Nagios from now for 3 hours, with the comment "Kernel upgrade and reboot"',
  rewordings: {
    terse: 'nagios downtime web01 3h "Kernel upgrade and reboot"',
    chatty:
      "I'm about to patch web01's kernel and reboot it, could you put that host into downtime in Nagios for the next 3 hours so nobody gets paged? Comment: Kernel upgrade and reboot",
    withoutValue: 'schedule downtime for a host in Nagios for a few hours',
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n = await openSignedIn(page, app)
    await clickMenu(n, 'Hosts', MENU.hosts, HOSTS_LIST)
    await openHost(n, 'web01')
    await openCommand(n, 'Schedule downtime for this host')
    await retype(n, 'com_data', 'Kernel upgrade and reboot')
    const start = await n.main.locator('input[name="start_time"]').inputValue()
    await retype(n, 'end_time', usTime(parseUsTime(start) + DOWNTIME_HOURS * 3_600_000))
    await commit(n)
  },
  key: {
    // start_time is the moment the form was opened, end_time three hours later (MM-DD-YYYY
    // HH:MM:SS); fixed=1, hours/minutes are for flexible downtime only.
    target: commandKey(CMD_TYP.scheduleHostDowntime),
    inputs: [
      { recorded: 'web01', changed: ['db02', 'mail01'] },
      {
        recorded: 'Kernel upgrade and reboot',
        changed: ['Replacing the power supply', 'Moving to the new rack'],
      },
    ],
    dependencies: [COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const [host, comment] = ['db02', 'Replacing the power supply']
      const now = Date.now()
      await sendCommand(
        app,
        session,
        { cmd_typ: '55', host },
        {
          host,
          com_data: comment,
          trigger: '0',
          start_time: usTime(now),
          end_time: usTime(now + DOWNTIME_HOURS * 3_600_000),
          fixed: '1',
          hours: '2',
          minutes: '0',
          childoptions: '0',
        },
      )
      await judged(() => scheduleHostDowntime, app, session, [host, comment])
    },
    async check(app, _run, session, used) {
      const [host, comment] = [String(used[0]), String(used[1])]
      return settle(async () => {
        const all = (await downtimes(app, session)).filter((d) => d.comment === comment)
        const mine = all.find((d) => d.host_name === host && !d.service_description)
        if (!mine) return `no downtime "${comment}" on the host ${host}`
        if (all.length > 1) return `the downtime "${comment}" was set ${all.length} times`
        const hours = (mine.end_time - mine.start_time) / 3_600_000
        if (Math.abs(hours - DOWNTIME_HOURS) > 2 / 60)
          return `the downtime lasts ${hours.toFixed(2)} h, not ${DOWNTIME_HOURS}`
        // From now: it starts when the tool ran (the check follows within minutes), not at the
        // time of the recording.
        const ago = (Date.now() - mine.start_time) / 60_000
        if (ago > 30 || ago < -2) return `the downtime starts ${ago.toFixed(0)} min ago, not now`
        return null
      })
    },
  },
}

/**
 * Problems > Services > db01's Disk Space > "Acknowledge this service problem"; types the
 * comment (the form's Sticky and Send Notification boxes stay ticked); Commit.
 */
export const acknowledgeService: Workflow = {
  id: 'acknowledge_service',
  intent:
    'acknowledge the Disk Space problem of db01 in Nagios with the comment "Cleaning up old WAL files"',
  rewordings: {
    terse: 'ack db01 Disk Space "Cleaning up old WAL files"',
    chatty:
      "db01's disk is nearly full and I'm on it, please acknowledge that Disk Space alert in Nagios and say I'm Cleaning up old WAL files",
    withoutValue: 'acknowledge a Disk Space problem in Nagios',
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n = await openSignedIn(page, app)
    await clickMenu(n, 'Services', MENU.serviceProblems, SERVICES_LIST)
    await openService(n, 'db01', 'Disk Space')
    await openCommand(n, 'Acknowledge this service problem')
    await retype(n, 'com_data', 'Cleaning up old WAL files')
    await commit(n)
  },
  key: {
    target: commandKey(CMD_TYP.acknowledgeSvcProblem),
    // The row the person clicked: a host and one of its services, both named in the request
    // (and the intent). mail01's SMTP is CRITICAL, db02's PostgreSQL WARNING: both can be
    // acknowledged.
    inputs: [
      { recorded: 'db01', changed: ['mail01', 'db02'] },
      { recorded: 'Disk Space', changed: ['SMTP', 'PostgreSQL'] },
      {
        recorded: 'Cleaning up old WAL files',
        changed: ['Rotating the logs now', 'Vendor ticket 4711 opened'],
      },
    ],
    dependencies: [COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const [host, service, comment] = ['mail01', 'SMTP', 'Rotating the logs now']
      await sendCommand(
        app,
        session,
        { cmd_typ: '34', host, service },
        {
          host,
          service,
          sticky_ack: 'on',
          send_notification: 'on',
          com_data: comment,
        },
      )
      await judged(() => acknowledgeService, app, session, [host, service, comment])
    },
    async check(app, _run, session, used) {
      const [host, service, comment] = used.map(String) as [string, string, string]
      return settle(async () => {
        const s = await serviceStatus(app, session, host, service)
        if (!s.problem_has_been_acknowledged) return `${host}'s ${service} is not acknowledged`
        const acks = (await comments(app, session)).filter(
          (c) => c.comment_data === comment && c.entry_type === 4,
        )
        if (!acks.some((c) => c.host_name === host && c.service_description === service))
          return `no acknowledgement comment "${comment}" on ${host}'s ${service}`
        if (
          host !== 'db01' &&
          (await serviceStatus(app, session, 'db01', 'Disk Space')).problem_has_been_acknowledged
        )
          return "db01's Disk Space (the recorded one) was acknowledged too"
        return null
      })
    },
  },
}

/** Services > web01's HTTP > "Disable notifications for this service"; Commit. */
export const disableServiceNotifications: Workflow = {
  id: 'disable_service_notifications',
  intent: 'disable notifications for the HTTP service of web01 in Nagios',
  rewordings: {
    terse: 'nagios mute HTTP web01',
    chatty:
      "We're load-testing web01 this afternoon and its HTTP check will be noisy, can you turn off the notifications for that service in Nagios?",
    withoutValue: "turn off a service's notifications in Nagios",
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n = await openSignedIn(page, app)
    await clickMenu(n, 'Services', MENU.services, SERVICES_LIST)
    await openService(n, 'web01', 'HTTP')
    await openCommand(n, 'Disable notifications for this service')
    await commit(n)
  },
  key: {
    target: commandKey(CMD_TYP.disableSvcNotifications),
    // The row the person clicked: a host and one of its services.
    inputs: [
      { recorded: 'web01', changed: ['db01', 'mail01'] },
      { recorded: 'HTTP', changed: ['PostgreSQL', 'Mail Queue'] },
    ],
    dependencies: [COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const [host, service] = ['db01', 'PostgreSQL']
      await sendCommand(app, session, { cmd_typ: '23', host, service }, { host, service })
      await judged(() => disableServiceNotifications, app, session, [host, service])
    },
    async check(app, _run, session, used) {
      const [host, service] = used.map(String) as [string, string]
      return settle(async () => {
        if ((await serviceStatus(app, session, host, service)).notifications_enabled)
          return `notifications of ${host}'s ${service} are still on`
        if (
          host !== 'web01' &&
          !(await serviceStatus(app, session, 'web01', 'HTTP')).notifications_enabled
        )
          return "notifications of web01's HTTP (the recorded one) were turned off too"
        return null
      })
    },
  },
}

/** Answers the login; Hosts list > db02 > "Add a new comment"; types it; Commit. */
export const addHostComment: Workflow = {
  id: 'add_host_comment',
  intent: 'add the comment "Replaced the RAID controller battery" to the host db02 in Nagios',
  rewordings: {
    terse: 'nagios comment db02 "Replaced the RAID controller battery"',
    chatty:
      'Could you leave a note on db02 in Nagios so the others know: Replaced the RAID controller battery',
    withoutValue: 'add a comment to a host in Nagios',
  },
  startPath: LANDING_PATH,
  signedIn: false,
  async play(page, app) {
    const n = await openAnsweringPrompt(page, app)
    await clickMenu(n, 'Hosts', MENU.hosts, HOSTS_LIST)
    await openHost(n, 'db02')
    await openCommand(n, 'Add a new comment')
    await retype(n, 'com_data', 'Replaced the RAID controller battery')
    await commit(n)
  },
  key: {
    // The form's Persistent box is ticked: persistent=on.
    target: commandKey(CMD_TYP.addHostComment),
    inputs: [
      { recorded: 'db02', changed: ['web02', 'mail01'] },
      {
        recorded: 'Replaced the RAID controller battery',
        changed: ['Firmware updated to 2.4', 'Fan replaced by the vendor'],
      },
    ],
    dependencies: [COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const [host, comment] = ['web02', 'Firmware updated to 2.4']
      await sendCommand(
        app,
        session,
        { cmd_typ: '1', host },
        { host, persistent: 'on', com_data: comment },
      )
      await judged(() => addHostComment, app, session, [host, comment])
    },
    async check(app, _run, session, used) {
      const [host, comment] = [String(used[0]), String(used[1])]
      return settle(async () => {
        const found = (await comments(app, session)).filter((c) => c.comment_data === comment)
        if (
          !found.some((c) => c.host_name === host && !c.service_description && c.entry_type === 1)
        )
          return `no comment "${comment}" on the host ${host}`
        return found.length > 1 ? `the comment "${comment}" was added ${found.length} times` : null
      })
    },
  },
}

/** The comment the person deletes (web03's, id 3), picked by its text on the Comments page. */
const DELETED = 'Old log rotation job still enabled here'

/** Comments (menu) > the row of web03's comment > its delete icon; Commit. */
export const deleteComment: Workflow = {
  id: 'delete_comment',
  intent: `delete the Nagios comment "${DELETED}"`,
  rewordings: {
    terse: `nagios delete comment "${DELETED}"`,
    chatty: `The log rotation on web03 was fixed last week, could you remove the old comment "${DELETED}" from Nagios?`,
    withoutValue: 'delete a comment in Nagios',
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n: NagiosPage = await openSignedIn(page, app)
    await clickMenu(n, 'Comments', MENU.comments, 'All Host and Service Comments')
    const row = n.main.locator('tr').filter({ hasText: DELETED })
    await row
      .getByRole('link')
      .filter({ has: n.main.locator('img[title="Delete This Comment"]') })
      .click()
    await n.mainFrame.waitForURL(/cmd\.cgi\?cmd_typ=2&com_id=/)
    await n.main.getByRole('button', { name: 'Commit' }).waitFor()
    await commit(n)
  },
  key: {
    // The row's delete link opens cmd.cgi?cmd_typ=2&com_id=<id>: the id comes from the
    // Comments page, looked up by the comment's text.
    target: commandKey(CMD_TYP.delHostComment),
    inputs: [
      {
        recorded: DELETED,
        changed: ['Replica rebuilt from the backup of Monday', 'Powered off for the office move'],
      },
    ],
    dependencies: [COMMENTS_PAGE, COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const text = 'Replica rebuilt from the backup of Monday'
      const id = String(seededComment(text).id)
      await sendCommand(app, session, { cmd_typ: '2', com_id: id }, { com_id: id })
      await judged(() => deleteComment, app, session, [text])
    },
    async check(app, _run, session, used) {
      const text = String(used[0])
      return settle(async () => {
        const left = await comments(app, session)
        if (left.some((c) => c.comment_data === text)) return `the comment "${text}" is still there`
        const recorded = seededComment(DELETED)
        return text !== DELETED && !left.some((c) => c.comment_id === recorded.id)
          ? `the recorded comment "${DELETED}" was deleted too`
          : null
      })
    },
  },
}

/** The program's start (ms): every seeded check ran an hour before it. */
async function programStart(app: AppInstance, session: StorageState): Promise<number> {
  const res = await app.fetch(`${CGI}/statusjson.cgi?query=programstatus`, { session })
  const body = (await res.json()) as { result: { program_start: number } }
  return body.result.program_start
}

/**
 * Services > web02's SSH > "Re-schedule the next check of this service"; the form fills in now
 * and ticks Force Check; Commit. The check runs at once (Nagios runs no check by itself here).
 */
export const rescheduleCheck: Workflow = {
  id: 'reschedule_check',
  intent: 're-schedule the next check of the SSH service on web02 in Nagios to run now',
  rewordings: {
    terse: 'nagios recheck SSH web02',
    chatty:
      "I just restarted sshd on web02, can you make Nagios check that host's SSH service again right now instead of waiting?",
    withoutValue: 'make Nagios re-check a service now',
  },
  startPath: LANDING_PATH,
  signedIn: true,
  async play(page, app) {
    const n = await openSignedIn(page, app)
    await clickMenu(n, 'Services', MENU.services, SERVICES_LIST)
    await openService(n, 'web02', 'SSH')
    await openCommand(n, 'Re-schedule the next check of this service')
    await commit(n)
  },
  key: {
    // start_time: the moment the form was opened; force_check=on.
    target: commandKey(CMD_TYP.scheduleSvcCheck),
    // The row the person clicked: a host and one of its services.
    inputs: [
      { recorded: 'web02', changed: ['web03', 'mail01'] },
      { recorded: 'SSH', changed: ['HTTP', 'SMTP'] },
    ],
    dependencies: [COMMAND_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const [host, service] = ['web03', 'HTTP']
      await sendCommand(
        app,
        session,
        { cmd_typ: '7', host, service, force_check: '' },
        { host, service, start_time: usTime(Date.now()), force_check: 'on' },
      )
      await judged(() => rescheduleCheck, app, session, [host, service])
    },
    async check(app, _run, session, used) {
      const [host, service] = used.map(String) as [string, string]
      const started = await programStart(app, session)
      return settle(async () => {
        if ((await serviceStatus(app, session, host, service)).last_check < started)
          return `${host}'s ${service} was not checked again`
        if (
          host !== 'web02' &&
          (await serviceStatus(app, session, 'web02', 'SSH')).last_check >= started
        )
          return "web02's SSH (the recorded one) was checked again too"
        return null
      })
    },
  },
}
