/**
 * Maintenance periods and users. A maintenance period is an old-style form,
 * `maintenance.php?form=create`, whose "Active since" and "Active till" the page fills with today
 * 00:00 and tomorrow 00:00 (times of the moment the form is drawn); its one-time period comes from
 * a popup (`zabbix.php?action=popup.maintenance.period`) that proposes the current minute as the
 * start and an hour as length; the host group is picked in a multiselect
 * (`jsrpc.php?method=multiselect.get`). Add posts the whole form to `maintenance.php` with
 * `add=Add`, `mname`, `active_since`, `active_till`, `timeperiods[0][...]` and `groupids[]`.
 * Users are deleted from the user list: ticked rows post `userids[<id>]=<id>` with
 * `action=user.delete` and `sid` to `zabbix.php`.
 */
import type { Workflow } from '../../types'
import { action, api, hostGroupId, MULTISELECT_LOOKUP, mustPass, userId } from '../keys'
import { confirmButton, logIn, openMenu, pickSuggestion, success, tickRow } from '../person'
import { pageSid, postForm } from '../session'

/** `YYYY-MM-DD hh:mm` in UTC (the instance's time zone), as Zabbix's date fields show it. */
function zabbixTime(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ')
}

/** A maintenance period as `maintenance.get` returns it. */
interface Maintenance {
  name: string
  active_since: string
  active_till: string
  groups: Array<{ name: string }>
  timeperiods: Array<{ timeperiod_type: string; start_date: string; period: string }>
}

/**
 * Configuration → Maintenance → Create maintenance period: types the name, adds the proposed
 * one-time period (starting now, one hour), picks the host group, Add.
 */
export const createMaintenance: Workflow = {
  id: 'create_maintenance',
  intent:
    "schedule a one-hour Zabbix maintenance called 'Disk swap' starting now for the 'Database servers' group",
  rewordings: {
    terse: 'maintenance Disk swap now for Database servers, 1h',
    chatty:
      "we're swapping disks on the database boxes right now, can you put Database servers in a one-hour maintenance called 'Disk swap'?",
    withoutValue: 'put a host group into maintenance for an hour from now',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Maintenance')
    await page.waitForURL(/maintenance\.php/)
    await page.getByRole('button', { name: 'Create maintenance period' }).click()
    await page.waitForURL(/form=create/)
    await page.locator('#mname').fill('Disk swap')
    await page.locator('#maintenance_periods').getByRole('button', { name: 'Add' }).click()
    const popup = page.locator('.overlay-dialogue.modal', { hasText: 'Maintenance period' })
    await popup.locator('#start_date').waitFor()
    await popup.locator('.overlay-dialogue-footer').getByRole('button', { name: 'Add' }).click()
    await page.locator('#maintenance_periods', { hasText: 'One time only' }).waitFor()
    await pickSuggestion(page, '#groupids__ms', 'Data', 'Database servers')
    await page.locator('#add').click()
    await success(page, 'Maintenance added')
  },
  key: {
    target: { method: 'POST', path: '/maintenance.php', operation: { field: 'add', value: 'Add' } },
    inputs: [
      { recorded: 'Disk swap', changed: ['Kernel update', 'Network move'] },
      { recorded: 'Database servers', changed: ['Web servers', 'Office printers'] },
    ],
    dependencies: [MULTISELECT_LOOKUP, { method: 'GET', path: '/maintenance.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const sid = await pageSid(app, session, '/maintenance.php?form=create')
      const group = await hostGroupId(app, 'Web servers')
      if (!group) throw new Error('no host group Web servers')
      const now = new Date()
      const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
      const res = await postForm(app, session, '/maintenance.php', [
        ['sid', sid],
        ['form_refresh', '2'],
        ['form', 'create'],
        ['mname', 'Kernel update'],
        ['maintenance_type', '0'],
        ['active_since', zabbixTime(midnight)],
        ['active_till', zabbixTime(new Date(midnight.getTime() + 86_400_000))],
        ['timeperiods[0][timeperiod_type]', '0'],
        ['timeperiods[0][start_date]', zabbixTime(now)],
        ['timeperiods[0][period]', '3600'],
        ['groupids[]', group],
        ['tags_evaltype', '0'],
        ['description', ''],
        ['add', 'Add'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createMaintenance.key.check(app, { status: 'succeeded', result: null }, session, [
          'Kernel update',
          'Web servers',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const all = await api<Maintenance[]>(app, 'maintenance.get', {
        output: ['name', 'active_since', 'active_till'],
        selectGroups: ['name'],
        selectTimeperiods: 'extend',
      })
      const found = all.find((m) => m.name === String(used[0]))
      if (!found) return `there is no maintenance "${String(used[0])}"`
      if (!found.groups.some((g) => g.name === String(used[1])))
        return `"${found.name}" covers ${found.groups.map((g) => g.name).join(', ')}, not ${String(used[1])}`
      const now = Date.now() / 1000
      if (!(Number(found.active_since) <= now && now < Number(found.active_till)))
        return `"${found.name}" is not active now (${found.active_since}..${found.active_till})`
      const period = found.timeperiods.find((p) => p.timeperiod_type === '0')
      if (!period || Math.abs(Number(period.start_date) - now) > 12 * 3600)
        return `"${found.name}" has no one-time period starting about now`
      if (all.some((m) => m.name === 'Disk swap'))
        return 'the recorded maintenance Disk swap was made'
      return null
    },
  },
}

/** Signs in, Administration → Users, ticks frank.ortiz, Delete, confirms. */
export const deleteUser: Workflow = {
  id: 'delete_user',
  intent: "sign in to Zabbix and delete the user 'frank.ortiz'",
  rewordings: {
    terse: 'delete user frank.ortiz',
    chatty: 'Frank left the company last week, can you log in and remove his frank.ortiz account?',
    withoutValue: 'delete one of the Zabbix users',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openMenu(page, 'Administration', 'Users')
    await page.waitForURL(/action=user\.list/)
    await tickRow(page, 'frank.ortiz')
    await confirmButton(page, 'Delete')
    await success(page, 'User deleted')
  },
  key: {
    target: action('POST', 'user.delete'),
    inputs: [{ recorded: 'frank.ortiz', changed: ['erin.walsh', 'david.novak'] }],
    dependencies: [action('GET', 'user.list')],
    mutating: true,
    async replayByHand(app, session) {
      const sid = await pageSid(app, session, '/zabbix.php?action=user.list')
      const id = await userId(app, 'erin.walsh')
      if (!id) throw new Error('no user erin.walsh')
      const res = await postForm(app, session, '/zabbix.php', [
        ['sid', sid],
        [`userids[${id}]`, id],
        ['action', 'user.delete'],
      ])
      await res.arrayBuffer()
      mustPass(
        await deleteUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'erin.walsh',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      if (await userId(app, String(used[0]))) return `the user ${String(used[0])} is still there`
      if (!(await userId(app, 'frank.ortiz'))) return 'the recorded user frank.ortiz was deleted'
      if (!(await userId(app, 'alice.martin'))) return 'alice.martin was deleted too'
      return null
    },
  },
}
