/**
 * Host groups and hosts. Host groups are an old-style page, `hostgroups.php`: the create form
 * posts `sid`, `form=create`, `groupid=0`, `name` and the submit button `add=Add` back to
 * `hostgroups.php`; the list's mass delete posts the ticked rows as `groups[<id>]=<id>` with
 * `action=hostgroup.massdelete` and `sid`. A host is created in a popup (`popup.host.edit`)
 * whose Add posts the whole form to `zabbix.php?action=host.create` (answered with JSON); its
 * host group is picked in a multiselect that looks names up with
 * `jsrpc.php?method=multiselect.get` and posts the picked id as `groups[0]`.
 */
import type { Workflow } from '../../types'
import {
  action,
  api,
  hostGroupId,
  hostGroupNames,
  MULTISELECT_LOOKUP,
  mustPass,
  SID_PAGE,
} from '../keys'
import { confirmButton, openMenu, pickSuggestion, success, tickRow } from '../person'
import { pageSid, postForm } from '../session'

/** Configuration → Host groups → Create host group, types the name, Add. */
export const createHostGroup: Workflow = {
  id: 'create_host_group',
  intent: "create a host group called 'Branch Paris' in Zabbix",
  rewordings: {
    terse: 'new host group Branch Paris',
    chatty: "we're opening a Paris office, can you add a Zabbix host group named 'Branch Paris'?",
    withoutValue: 'add a new host group',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Host groups')
    await page.waitForURL(/hostgroups\.php/)
    await page.getByRole('button', { name: 'Create host group' }).click()
    await page.waitForURL(/form=create/)
    await page.locator('#name').fill('Branch Paris')
    await page.locator('#add').click()
    await success(page, 'Group added')
  },
  key: {
    target: { method: 'POST', path: '/hostgroups.php', operation: { field: 'add', value: 'Add' } },
    inputs: [{ recorded: 'Branch Paris', changed: ['Branch Lyon', 'Branch Oslo'] }],
    dependencies: [SID_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const sid = await pageSid(app, session, '/hostgroups.php?form=create')
      const res = await postForm(app, session, '/hostgroups.php', [
        ['sid', sid],
        ['form_refresh', '1'],
        ['groupid', '0'],
        ['form', 'create'],
        ['name', 'Branch Lyon'],
        ['add', 'Add'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createHostGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          'Branch Lyon',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = await hostGroupNames(app)
      if (!names.includes(String(used[0]))) return `there is no host group "${String(used[0])}"`
      if (names.includes('Branch Paris')) return 'the recorded group Branch Paris was created'
      return null
    },
  },
}

/** Configuration → Host groups, ticks "Old kiosks", Delete, confirms. */
export const deleteHostGroup: Workflow = {
  id: 'delete_host_group',
  intent: "delete the host group 'Old kiosks' from Zabbix",
  rewordings: {
    terse: 'delete host group Old kiosks',
    chatty: 'the kiosks are gone for good, please remove the Old kiosks host group',
    withoutValue: 'delete one of the host groups',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Host groups')
    await page.waitForURL(/hostgroups\.php/)
    await tickRow(page, 'Old kiosks')
    await confirmButton(page, 'Delete')
    await success(page, 'Group deleted')
  },
  key: {
    target: {
      method: 'POST',
      path: '/hostgroups.php',
      operation: { field: 'action', value: 'hostgroup.massdelete' },
    },
    inputs: [{ recorded: 'Old kiosks', changed: ['Retired scanners', 'Test benches'] }],
    dependencies: [{ method: 'GET', path: '/hostgroups.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const sid = await pageSid(app, session, '/hostgroups.php')
      const id = await hostGroupId(app, 'Retired scanners')
      if (!id) throw new Error('no host group Retired scanners')
      const res = await postForm(app, session, '/hostgroups.php', [
        ['sid', sid],
        [`groups[${id}]`, id],
        ['action', 'hostgroup.massdelete'],
      ])
      await res.arrayBuffer()
      mustPass(
        await deleteHostGroup.key.check(app, { status: 'succeeded', result: null }, session, [
          'Retired scanners',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = await hostGroupNames(app)
      if (names.includes(String(used[0])))
        return `the host group "${String(used[0])}" is still there`
      if (!names.includes('Old kiosks')) return 'the recorded group Old kiosks was deleted'
      if (!names.includes('Web servers')) return 'Web servers was deleted too'
      return null
    },
  },
}

/** Configuration → Hosts → Create host, types the host name, picks its group, Add. */
export const createHost: Workflow = {
  id: 'create_host',
  intent: "add a host named 'web-03' to Zabbix in the 'Web servers' group",
  rewordings: {
    terse: 'create host web-03 in Web servers',
    chatty:
      "we just racked a third web server, can you add it to Zabbix as 'web-03' under Web servers?",
    withoutValue: 'add a new host to one of the host groups',
  },
  startPath: '/zabbix.php?action=dashboard.view',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Configuration', 'Hosts')
    await page.waitForURL(/action=host\.list/)
    await page.getByRole('button', { name: 'Create host' }).click()
    const dialog = page.locator('.overlay-dialogue.modal')
    await dialog.locator('#host').waitFor()
    await dialog.locator('#host').fill('web-03')
    await pickSuggestion(page, '#groups__ms', 'Web', 'Web servers')
    await dialog.locator('.overlay-dialogue-footer').getByRole('button', { name: 'Add' }).click()
    await success(page, 'Host added')
  },
  key: {
    target: action('POST', 'host.create'),
    inputs: [
      { recorded: 'web-03', changed: ['app-01', 'app-02'] },
      { recorded: 'Web servers', changed: ['Database servers', 'Lab devices'] },
    ],
    dependencies: [MULTISELECT_LOOKUP, SID_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const sid = await pageSid(app, session, '/zabbix.php?action=host.list')
      const group = await hostGroupId(app, 'Database servers')
      if (!group) throw new Error('no host group Database servers')
      const res = await postForm(
        app,
        session,
        '/zabbix.php?action=host.create',
        [
          ['sid', sid],
          ['host', 'app-01'],
          ['visiblename', ''],
          ['groups[0]', group],
          ['description', ''],
          ['proxy_hostid', '0'],
          ['status', '0'],
          ['inventory_mode', '-1'],
          ['tls_connect', '1'],
          ['tls_accept', '1'],
        ],
        true,
      )
      const answer = await res.text()
      if (!answer.includes('Host added'))
        throw new Error(`host.create answered ${answer.slice(0, 300)}`)
      mustPass(
        await createHost.key.check(app, { status: 'succeeded', result: null }, session, [
          'app-01',
          'Database servers',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const hosts = await api<Array<{ host: string; groups: Array<{ name: string }> }>>(
        app,
        'host.get',
        { output: ['host'], selectGroups: ['name'], filter: { host: [String(used[0]), 'web-03'] } },
      )
      const host = hosts.find((h) => h.host === String(used[0]))
      if (!host) return `there is no host "${String(used[0])}"`
      if (!host.groups.some((g) => g.name === String(used[1])))
        return `"${host.host}" is in ${host.groups.map((g) => g.name).join(', ')}, not ${String(used[1])}`
      if (hosts.some((h) => h.host === 'web-03')) return 'the recorded host web-03 was created'
      return null
    },
  },
}
