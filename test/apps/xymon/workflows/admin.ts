/**
 * Xymon workflows on the admin pages (`/xymon-seccgi/`, HTTP Basic): disable a test for a while
 * with a cause, enable a disabled test again (its row on the Enable/disable page), cancel a
 * scheduled disable (its row), acknowledge an alert (its row on the Acknowledge page, which holds
 * the alert's number), and change a critical-systems record (looked up with the editor's Search,
 * saved with its Update). The checks read xymond's board and job list, or the editor's record.
 */
import type { Page } from 'playwright-core'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import {
  ACKNOWLEDGE,
  ACKNOWLEDGE_PAGE,
  CRITICAL_EDITOR,
  CRITICAL_SEARCH,
  ENADIS,
  ENADIS_PAGE,
  enadisKey,
} from '../keys'
import { holdLogin, mainView, menu, retype } from '../person'
import { HOME_PATH, SEEDED_CRITICAL, fqdn } from '../seed'
import { boardEntry, mustPass, postAdminForm, scheduledJobs, settle } from '../session'

/** Runs a write key's check as replayByHand's last step, with what it used. */
async function judged(
  wf: () => Workflow,
  app: AppInstance,
  session: StorageState,
  used: Array<string | number | boolean>,
): Promise<void> {
  mustPass(await wf().key.check(app, { status: 'succeeded', result: null }, session, used))
}

/** `web01.example.net` -> `web01`. */
function short(host: string): string {
  return host.replace(/\.example\.net$/, '')
}

/** Opens Administration > Enable/disable (the browser holds the login). */
async function openEnadis(page: Page, app: AppInstance): Promise<void> {
  await holdLogin(page, app)
  await mainView(page)
  await menu(page, 'Administration', 'Enable/disable', 'Currently disabled tests')
}

const DISABLE_CAUSE = 'Replacing the CPU fan'

/**
 * Enable/disable: picks web02.example.net in the Hosts list (the Tests list fills in), picks
 * cpu, types the cause, 30 in "Disable for" and minutes, presses Apply.
 */
export const disableTest: Workflow = {
  id: 'disable_test',
  intent: `disable the cpu test of web02.example.net in Xymon for 30 minutes with the cause "${DISABLE_CAUSE}"`,
  rewordings: {
    terse: `xymon disable web02 cpu 30 min "${DISABLE_CAUSE}"`,
    chatty: `I'm opening up web02 to swap its fan, can you switch off Xymon's cpu check on that box for half an hour so it doesn't alert? Put "${DISABLE_CAUSE}" as the reason.`,
    withoutValue: 'disable a test on a host in Xymon for a while',
  },
  startPath: HOME_PATH,
  signedIn: true,
  async play(page, app) {
    await openEnadis(page, app)
    const form = page.locator('form[name="selectionform"]')
    await form.locator('select[name="hostname"]').selectOption('web02.example.net')
    // The page's script refills the Tests list with the host's tests (options without a value
    // attribute: they submit their text).
    const tests = form.locator('select[name="disabletest"]')
    await tests.locator('option', { hasText: /^cpu$/ }).waitFor({ state: 'attached' })
    await tests.selectOption({ label: 'cpu' })
    await retype(page, 'cause', DISABLE_CAUSE)
    await retype(page, 'duration', '30')
    await form.locator('select[name="scale"]').selectOption({ label: 'minutes' })
    await form.locator('input[name="apply"]').click()
    await page.locator('textarea[name="web02.example.net causes"]').waitFor()
  },
  key: {
    // Apply submits the whole selection form (hosts, tests, filters, cause, go2=Disable for,
    // duration, scale, the unused date selects, go=Disable now); 302 back to the page.
    target: enadisKey('Disable now'),
    inputs: [
      { recorded: 'web02.example.net', changed: ['web01.example.net', 'db01.example.net'] },
      { recorded: 'cpu', changed: ['disk', 'cpu'] },
      { recorded: DISABLE_CAUSE, changed: ['Swapping a failed disk', 'Firmware update'] },
      { recorded: 30, changed: [45, 90] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [host, test, cause, minutes] = [
        'web01.example.net',
        'disk',
        'Swapping a failed disk',
        45,
      ]
      const res = await postAdminForm(app, session, ENADIS, [
        ['hostname', host],
        ['disabletest', test],
        ['cause', cause],
        ['go2', 'Disable for'],
        ['duration', String(minutes)],
        ['scale', '1'],
        ['go', 'Disable now'],
      ])
      if (res.status !== 302) throw new Error(`enadis.sh answered ${res.status}`)
      await judged(() => disableTest, app, session, [host, test, cause, minutes])
    },
    async check(app, _run, _session, used) {
      const [host, test, cause] = used.map(String) as [string, string, string]
      const minutes = Number(used[3])
      return settle(async () => {
        const e = await boardEntry(app, short(host), test)
        if (!e.disableTime) return `${host}'s ${test} is not disabled`
        if (!e.disableMessage.includes(`Reason: ${cause}`))
          return `${host}'s ${test} is disabled with another cause: ${e.disableMessage}`
        const left = (e.disableTime * 1000 - Date.now()) / 60_000
        if (left > minutes + 2 || left < minutes - 10)
          return `${host}'s ${test} is disabled for ${left.toFixed(0)} more minutes, not ${minutes}`
        if (host !== 'web02.example.net' && (await boardEntry(app, 'web02', 'cpu')).disableTime)
          return "web02's cpu (the recorded one) was disabled too"
        return null
      })
    },
  },
}

/**
 * Enable/disable: in the box of xymon.example.net (its disabled tests, with their causes), picks
 * disk in its Tests list instead of ALL and presses Enable.
 */
export const enableTest: Workflow = {
  id: 'enable_test',
  intent: 'enable the disk test of xymon.example.net again in Xymon',
  rewordings: {
    terse: 'xymon enable xymon.example.net disk',
    chatty:
      "The new data disk is in on the xymon server, so please turn its disk check back on in Xymon, it's still disabled from last week.",
    withoutValue: 'enable a disabled test again in Xymon',
  },
  startPath: HOME_PATH,
  signedIn: true,
  async play(page, app) {
    await openEnadis(page, app)
    const box = page.locator('form').filter({
      has: page.locator('input[type="hidden"][name="hostname"][value="xymon.example.net"]'),
    })
    await box.locator('select[name="enabletest"]').selectOption('disk')
    await box.getByRole('button', { name: 'Enable' }).click()
    await page.locator('textarea[name="xymon.example.net causes"]').waitFor({ state: 'detached' })
  },
  key: {
    // The host's box is a form: hostname (hidden), the read-only causes text, enabletest, go.
    target: enadisKey('Enable'),
    inputs: [
      { recorded: 'xymon.example.net', changed: ['db02.example.net', 'mail01.example.net'] },
      { recorded: 'disk', changed: ['cpu', 'disk'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [host, test] = ['db02.example.net', 'cpu']
      const res = await postAdminForm(app, session, ENADIS, [
        ['hostname', host],
        ['enabletest', test],
        ['go', 'Enable'],
      ])
      if (res.status !== 302) throw new Error(`enadis.sh answered ${res.status}`)
      await judged(() => enableTest, app, session, [host, test])
    },
    async check(app, _run, _session, used) {
      const [host, test] = used.map(String) as [string, string]
      return settle(async () => {
        const e = await boardEntry(app, short(host), test)
        if (e.disableTime) return `${host}'s ${test} is still disabled`
        if (host !== 'xymon.example.net' && !(await boardEntry(app, 'xymon', 'disk')).disableTime)
          return "xymon.example.net's disk (the recorded one) was enabled too"
        return null
      })
    },
  },
}

const CANCELLED = 'BIOS update'

/** Enable/disable: in Scheduled actions, presses Cancel on the row whose reason is BIOS update. */
export const cancelScheduledDisable: Workflow = {
  id: 'cancel_scheduled_disable',
  intent: `cancel the scheduled disable with the reason "${CANCELLED}" in Xymon`,
  rewordings: {
    terse: `xymon cancel scheduled "${CANCELLED}"`,
    chatty: `The ${CANCELLED} on db01 got postponed, can you cancel that scheduled disable in Xymon so the checks keep running?`,
    withoutValue: 'cancel a scheduled disable in Xymon',
  },
  startPath: HOME_PATH,
  signedIn: true,
  async play(page, app) {
    await openEnadis(page, app)
    const row = page
      .locator('tr')
      .filter({ hasText: `Reason: ${CANCELLED}` })
      .last()
    await row.getByRole('button', { name: 'Cancel' }).click()
    await page.getByText('Currently disabled tests').waitFor()
    await page.getByText(`Reason: ${CANCELLED}`).waitFor({ state: 'detached' })
  },
  key: {
    // Each job's Cancel is a form: canceljob=<the job's number>, go=Cancel. The number is on
    // the Enable/disable page, in the row of the job's reason.
    target: enadisKey('Cancel'),
    inputs: [
      {
        recorded: CANCELLED,
        changed: ['Array rebuild', 'Load balancer firmware upgrade'],
      },
    ],
    dependencies: [ENADIS_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const reason = 'Array rebuild'
      const job = (await scheduledJobs(app)).find((j) => j.command.includes(`Reason: ${reason}`))
      if (!job) throw new Error(`no scheduled job "${reason}"`)
      const res = await postAdminForm(app, session, ENADIS, [
        ['canceljob', String(job.id)],
        ['go', 'Cancel'],
      ])
      if (res.status !== 302) throw new Error(`enadis.sh answered ${res.status}`)
      await judged(() => cancelScheduledDisable, app, session, [reason])
    },
    async check(app, _run, _session, used) {
      const reason = String(used[0])
      return settle(async () => {
        const jobs = await scheduledJobs(app)
        if (jobs.some((j) => j.command.includes(`Reason: ${reason}\n`)))
          return `the scheduled disable "${reason}" is still there`
        if (reason !== CANCELLED && !jobs.some((j) => j.command.includes(`Reason: ${CANCELLED}\n`)))
          return `the recorded scheduled disable "${CANCELLED}" was cancelled too`
        return null
      })
    },
  },
}

const ACK_MESSAGE = 'Restarting the app pool'

/**
 * Administration > Acknowledge alert: in the row of web01.example.net's http, types 60 minutes
 * and the message, presses that row's Send.
 */
export const acknowledgeAlert: Workflow = {
  id: 'acknowledge_alert',
  intent: `acknowledge the http alert of web01.example.net in Xymon for 60 minutes with the message "${ACK_MESSAGE}"`,
  rewordings: {
    terse: `xymon ack web01 http 60m "${ACK_MESSAGE}"`,
    chatty: `web01's website is down and I'm on it, can you acknowledge that http alert in Xymon for an hour and say "${ACK_MESSAGE}"?`,
    withoutValue: 'acknowledge an alert in Xymon',
  },
  startPath: HOME_PATH,
  signedIn: true,
  async play(page, app) {
    await holdLogin(page, app)
    await mainView(page)
    await menu(page, 'Administration', 'Acknowledge alert', 'Ack Multiple')
    const row = page
      .locator('tr')
      .filter({ has: page.locator('input[type="hidden"][value="web01.example.net"]') })
      .filter({ has: page.locator('input[type="hidden"][value="http"]') })
    await row.locator('input[name^="DELAY_"]').fill('60')
    await row.locator('input[name^="MESSAGE_"]').click()
    await row.locator('input[name^="MESSAGE_"]').pressSequentially(ACK_MESSAGE, { delay: 25 })
    await row.getByRole('button', { name: 'Send' }).click()
    await page.getByText('Acknowledge sent for host web01.example.net').waitFor()
  },
  key: {
    // Send posts the whole table: for each row N DELAY_N, PERIOD_N, MESSAGE_N, NUMBER_N (the
    // alert's number, a random "cookie" xymond gives each alert), HOSTNAME_N, TESTNAME_N; the
    // pressed row's Send_N=Send says which row counts. The number is only on this page.
    target: { method: 'POST', path: ACKNOWLEDGE },
    inputs: [
      { recorded: 'web01.example.net', changed: ['mail01.example.net', 'db01.example.net'] },
      { recorded: 'http', changed: ['smtp', 'disk'] },
      { recorded: 60, changed: [30, 120] },
      {
        recorded: ACK_MESSAGE,
        changed: ['Looking into the mail relay', 'Vendor ticket 4711 opened'],
      },
    ],
    dependencies: [ACKNOWLEDGE_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [host, test, minutes, message] = [
        'mail01.example.net',
        'smtp',
        30,
        'Looking into the mail relay',
      ]
      const page = await (await app.fetch(ACKNOWLEDGE, { session })).text()
      // The row of host/test: its number N and the alert's number.
      const rows = [
        ...page.matchAll(
          /NAME="NUMBER_(\d+)" VALUE="(\d+)">\s*<INPUT TYPE="HIDDEN" NAME="HOSTNAME_\1" VALUE="([^"]+)">\s*<INPUT TYPE="HIDDEN" NAME="TESTNAME_\1" VALUE="([^"]+)">/g,
        ),
      ]
      const row = rows.find((r) => r[3] === host && r[4] === test)
      if (!row) throw new Error(`the Acknowledge page has no row for ${host}'s ${test}`)
      const n = row[1]!
      const res = await postAdminForm(app, session, ACKNOWLEDGE, [
        [`DELAY_${n}`, String(minutes)],
        [`PERIOD_${n}`, 'min'],
        [`MESSAGE_${n}`, message],
        [`NUMBER_${n}`, row[2]!],
        [`HOSTNAME_${n}`, host],
        [`TESTNAME_${n}`, test],
        [`Send_${n}`, 'Send'],
      ])
      if (res.status !== 200 || !res.text.includes('Acknowledge sent'))
        throw new Error(`acknowledge.sh answered ${res.status}`)
      await judged(() => acknowledgeAlert, app, session, [host, test, minutes, message])
    },
    async check(app, _run, _session, used) {
      const [host, test] = [String(used[0]), String(used[1])]
      const minutes = Number(used[2])
      const message = String(used[3])
      return settle(async () => {
        const e = await boardEntry(app, short(host), test)
        if (!e.ackTime) return `${host}'s ${test} is not acknowledged`
        if (!e.ackMessage.includes(message))
          return `${host}'s ${test} is acknowledged with another message: ${e.ackMessage}`
        const left = (e.ackTime * 1000 - Date.now()) / 60_000
        if (left > minutes + 2 || left < minutes - 10)
          return `${host}'s ${test} is acknowledged for ${left.toFixed(0)} more minutes, not ${minutes}`
        if (host !== 'web01.example.net' && (await boardEntry(app, 'web01', 'http')).ackTime)
          return "web01's http (the recorded one) was acknowledged too"
        return null
      })
    },
  },
}

/** One critical-systems record as the editor's Search shows it. */
interface CriticalRecord {
  priority: string
  group: string
  instruction: string
}

/** Reads a record with the editor's Search (signed in). */
async function criticalRecord(
  app: AppInstance,
  session: StorageState,
  host: string,
  test: string,
): Promise<CriticalRecord> {
  const q = new URLSearchParams({ HOSTNAME: host, SERVICE: test, Find: 'Search' })
  const html = await (await app.fetch(`${CRITICAL_EDITOR}?${q}`, { session })).text()
  const prioritySelect = /<SELECT NAME="PRIORITY">([\s\S]*?)<\/SELECT>/i.exec(html)?.[1] ?? ''
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  return {
    priority: /<option value="(\d+)" selected>/i.exec(prioritySelect)?.[1] ?? '',
    group: decode(/NAME="GROUP" TYPE="TEXT" SIZE=\d+ VALUE="([^"]*)"/i.exec(html)?.[1] ?? ''),
    instruction: decode(/NAME="EXTRA" TYPE="TEXT" SIZE=\d+ VALUE="([^"]*)"/i.exec(html)?.[1] ?? ''),
  }
}

const INSTRUCTION = 'Call the web team lead'

/**
 * Administration > Edit critical systems: types web01.example.net and http, presses Search (the
 * record's fields fill in), picks priority 3, retypes the instruction, presses Update record.
 */
export const editCritical: Workflow = {
  id: 'edit_critical',
  intent: `in Xymon's critical systems, set the priority of web01.example.net's http test to 3 and its instruction to "${INSTRUCTION}"`,
  rewordings: {
    terse: `xymon critical web01 http priority 3 "${INSTRUCTION}"`,
    chatty: `The web01 http alert isn't that urgent anymore, could you drop it to priority 3 in Xymon's critical systems list and change the instruction to "${INSTRUCTION}"?`,
    withoutValue: "change a critical system's priority and instruction in Xymon",
  },
  startPath: HOME_PATH,
  signedIn: true,
  async play(page, app) {
    await holdLogin(page, app)
    await mainView(page)
    await menu(page, 'Administration', 'Edit critical systems', 'Edit Critical Systems')
    await retype(page, 'HOSTNAME', 'web01.example.net')
    await retype(page, 'SERVICE', 'http')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/Find=Search/)
    await page.locator('input[name="GROUP"][value="webteam"]').waitFor()
    await page.locator('select[name="PRIORITY"]').selectOption('3')
    await retype(page, 'EXTRA', INSTRUCTION)
    await page.getByRole('button', { name: 'Update record' }).click()
    await page.waitForURL(/Update=Update/)
  },
  key: {
    // Update record is a GET of criticaleditor.sh with the whole record (HOSTNAME, SERVICE,
    // PRIORITY, the monitoring days and hours, start and stop dates, GROUP, EXTRA, the clone
    // fields) and Update=Update record; it replaces the record. The fields not asked about (the
    // resolver group, the times) are the record's own, which Search shows.
    target: {
      method: 'GET',
      path: CRITICAL_EDITOR,
      operation: { field: 'Update', value: 'Update record' },
    },
    inputs: [
      { recorded: 'web01.example.net', changed: ['db01.example.net', 'mail01.example.net'] },
      { recorded: 'http', changed: ['disk', 'smtp'] },
      { recorded: 3, changed: [1, 2] },
      { recorded: INSTRUCTION, changed: ['Page the DBA on call', 'Ask the mail admin first'] },
    ],
    dependencies: [CRITICAL_SEARCH],
    mutating: true,
    async replayByHand(app, session) {
      const [host, test, priority, instruction] = [
        'db01.example.net',
        'disk',
        1,
        'Page the DBA on call',
      ]
      const current = await criticalRecord(app, session, host, test)
      const q = new URLSearchParams([
        ['HOSTNAME', host],
        ['SERVICE', test],
        ['PRIORITY', String(priority)],
        ['CRITWKDAYS', '*'],
        ['CRITSTARTHOUR', '0000'],
        ['CRITENDHOUR', '2400'],
        ['start-day', '0'],
        ['start-mon', '0'],
        ['start-yr', '0'],
        ['end-day', '0'],
        ['end-mon', '0'],
        ['end-yr', '0'],
        ['GROUP', current.group],
        ['EXTRA', instruction],
        ['Update', 'Update record'],
      ])
      const res = await app.fetch(`${CRITICAL_EDITOR}?${q}`, {
        session,
        headers: { referer: `${app.origin}${CRITICAL_EDITOR}` },
      })
      await res.text()
      if (res.status !== 200) throw new Error(`criticaleditor.sh answered ${res.status}`)
      await judged(() => editCritical, app, session, [host, test, priority, instruction])
    },
    async check(app, _run, session, used) {
      const [host, test, priority, instruction] = used.map(String) as [
        string,
        string,
        string,
        string,
      ]
      const seeded = SEEDED_CRITICAL.find((c) => fqdn(c.host) === host && c.test === test)
      return settle(async () => {
        const r = await criticalRecord(app, session, host, test)
        if (r.priority !== priority)
          return `${host}'s ${test} has priority ${r.priority}, not ${priority}`
        if (r.instruction !== instruction)
          return `${host}'s ${test} has the instruction "${r.instruction}"`
        if (seeded && r.group !== seeded.group)
          return `${host}'s ${test} lost its resolver group ${seeded.group} (now "${r.group}")`
        if (host !== 'web01.example.net') {
          const recorded = await criticalRecord(app, session, 'web01.example.net', 'http')
          if (recorded.instruction === INSTRUCTION || recorded.priority === '3')
            return "web01's http (the recorded record) was changed too"
        }
        return null
      })
    },
  },
}
