/**
 * Devices (Management → Devices, `host.php`). The list filters by GET as the person types or picks
 * (`host.php?host_status=-1&...&site_id=2&filter=web&header=false`, loaded by Ajax into the page;
 * the site is a drop-down whose options hold the site ids). The add and edit forms post every
 * field back to `host.php` with `action=save`, `save_component_host=1`, the device's `id` (0 for a
 * new one) and `__csrf_magic`, answered 302 to the device's edit page. Deleting ticks the row
 * (`chk_<id>=on`), picks Delete in the action drop-down (`drp_action=1`) and posts with
 * `action=actions`; Cacti answers a confirmation page whose form hands the ticked rows on as a
 * serialized PHP array (`selected_items=a:1:{i:0;s:1:"6";}`) with `delete_type`; Continue posts
 * that, answered 302 to the list.
 */
import type { AppInstance, Workflow } from '../../types'
import type { StorageState } from '../../../../src/shared/trace'
import { resultText } from '../../match'
import { deviceId, literal, mustPass, post, query } from '../keys'
import { clickAdd, openMenu, pickOption, saved, tickRow } from '../person'
import { DEVICES, SITE_IDS } from '../seed'
import { pageCsrf, postForm } from '../session'

/** The list or edit page of devices: it holds the session's `__csrf_magic` and the device ids. */
const DEVICE_PAGE = { method: 'GET', path: '/host.php' }

/** A list's text without tags and white space (Cacti marks a filter's match with a span). */
function listText(result: unknown): string {
  return resultText(result)
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, '')
}

/** The hostname and description of every device whose description is one of `names`. */
async function devices(app: AppInstance, names: string[]) {
  const rows = await query(
    app,
    `SELECT description, hostname, site_id FROM host WHERE description IN (${names.map(literal).join(', ')})`,
  )
  return rows.map(([description, hostname, site]) => ({ description, hostname, site }))
}

/** Types "web" into the Devices list's search box and presses Enter. */
export const searchDevices: Workflow = {
  id: 'search_devices',
  intent: "find the devices in Cacti whose name contains 'web'",
  rewordings: {
    terse: 'search devices web',
    chatty: "hey, which of the devices we graph in Cacti have 'web' in their name?",
    withoutValue: 'search the Cacti devices by name',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Devices')
    const box = page.locator('#filter')
    await box.waitFor()
    await box.click()
    await box.pressSequentially('web', { delay: 40 })
    await box.press('Enter')
    // The list is redrawn by Ajax: done once the other devices are gone from it.
    await page.getByRole('link', { name: 'db-01', exact: true }).waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'web-02', exact: true }).waitFor()
  },
  key: {
    target: DEVICE_PAGE,
    inputs: [{ recorded: 'web', changed: ['db', 'printer'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/host.php?host_status=-1&host_template_id=-1&site_id=-1&poller_id=-1&location=-1&rows=-1&filter=db&header=false',
        { session },
      )
      mustPass(
        await searchDevices.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['db'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = listText(run.result)
      const term = String(used[0])
      const want = DEVICES.map(([d]) => d).filter((d) => d.includes(term))
      const missing = want.filter((d) => !text.includes(d))
      if (!want.length || missing.length)
        return `the search for "${term}" does not show ${missing.join(', ') || 'any device'}`
      if (text.includes('web-01')) return 'the result shows web-01: the recorded search ran'
      return null
    },
  },
}

/** Devices list, picks the site "Core" in the Site drop-down. */
export const devicesAtSite: Workflow = {
  id: 'devices_at_site',
  intent: 'list the Cacti devices at the Core site',
  rewordings: {
    terse: 'devices at site Core',
    chatty: "I'm auditing the Core site, can you pull up every device Cacti has there?",
    withoutValue: 'show the devices of one site',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Devices')
    await page.locator('#site_id-button').waitFor()
    await pickOption(page, 'site_id', 'Core')
    await page.getByRole('link', { name: 'old-kiosk', exact: true }).waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'db-02', exact: true }).waitFor()
  },
  key: {
    target: DEVICE_PAGE,
    inputs: [{ recorded: 'Core', changed: ['Head Office', 'Lab'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const site = SITE_IDS['Head Office']
      const res = await app.fetch(
        `/host.php?host_status=-1&host_template_id=-1&site_id=${site}&poller_id=-1&location=-1&rows=-1&filter=&header=false`,
        { session },
      )
      mustPass(
        await devicesAtSite.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['Head Office'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const text = listText(run.result)
      const site = String(used[0])
      const want = DEVICES.filter(([, , s]) => s === site).map(([d]) => d)
      const missing = want.filter((d) => !text.includes(d))
      if (!want.length || missing.length)
        return `the list for site ${site} does not show ${missing.join(', ') || 'any device'}`
      if (text.includes('web-01'))
        return 'the result shows web-01 (Core): the recorded site was listed'
      return null
    },
  },
}

/** Devices → "+", types a description and a hostname, Create. */
export const createDevice: Workflow = {
  id: 'create_device',
  intent: "add a device called 'mail-01' with hostname 10.20.0.31 to Cacti",
  rewordings: {
    terse: 'new device mail-01 10.20.0.31',
    chatty: "we've got a new mail server at 10.20.0.31, could you add it to Cacti as mail-01?",
    withoutValue: 'add a new device to Cacti',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Devices')
    await clickAdd(page, 'host.php?action=edit')
    await page.locator('#description').fill('mail-01')
    await page.locator('#hostname').fill('10.20.0.31')
    await page.locator('#submit').click()
    await saved(page)
  },
  key: {
    target: post('/host.php', 'save'),
    inputs: [
      { recorded: 'mail-01', changed: ['mail-02', 'mail-03'] },
      { recorded: '10.20.0.31', changed: ['10.20.0.32', '10.20.0.33'] },
    ],
    dependencies: [DEVICE_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const token = await pageCsrf(app, session, '/host.php?action=edit')
      const res = await postForm(app, session, '/host.php?header=false', [
        ['__csrf_magic', token],
        ...deviceFields('mail-02', '10.20.0.32', '1', '0'),
        ['id', '0'],
        ['save_component_host', '1'],
        ['action', 'save'],
      ])
      await res.arrayBuffer()
      mustPass(
        await createDevice.key.check(app, { status: 'succeeded', result: null }, session, [
          'mail-02',
          '10.20.0.32',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const found = await devices(app, [String(used[0]), 'mail-01'])
      const device = found.find((d) => d.description === String(used[0]))
      if (!device) return `there is no device "${String(used[0])}"`
      if (device.hostname !== String(used[1]))
        return `"${device.description}" has hostname ${device.hostname}, not ${String(used[1])}`
      if (found.some((d) => d.description === 'mail-01'))
        return 'the recorded device mail-01 was created'
      return null
    },
  },
}

/** The fields of the device form as Cacti's add and edit pages post them (no SNMP, no ping). */
function deviceFields(
  description: string,
  hostname: string,
  site: string,
  template: string,
): Array<[string, string]> {
  return [
    ['description', description],
    ['hostname', hostname],
    ['location', ''],
    ['poller_id', '1'],
    ['site_id', site],
    ['host_template_id', template],
    ['device_threads', '1'],
    ['snmp_version', '0'],
    ['snmp_community', 'public'],
    ['snmp_security_level', 'authPriv'],
    ['snmp_auth_protocol', 'MD5'],
    ['snmp_username', ''],
    ['snmp_password', ''],
    ['snmp_password_confirm', ''],
    ['snmp_priv_protocol', 'DES'],
    ['snmp_priv_passphrase', ''],
    ['snmp_priv_passphrase_confirm', ''],
    ['snmp_context', ''],
    ['snmp_engine_id', ''],
    ['snmp_port', '161'],
    ['snmp_timeout', '500'],
    ['max_oids', '10'],
    ['bulk_walk_size', '-1'],
    ['availability_method', '0'],
    ['ping_method', '1'],
    ['ping_port', '23'],
    ['ping_timeout', '400'],
    ['ping_retries', '1'],
    ['notes', ''],
    ['external_id', ''],
  ]
}

/** Devices, clicks db-01, changes its hostname, Save. */
export const changeDeviceHostname: Workflow = {
  id: 'change_device_hostname',
  intent: 'change the hostname of the Cacti device db-01 to 10.20.0.99',
  rewordings: {
    terse: 'db-01 hostname 10.20.0.99',
    chatty: 'db-01 moved to a new address, 10.20.0.99, can you update it in Cacti?',
    withoutValue: "change a device's hostname",
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Devices')
    await page.getByRole('link', { name: 'db-01', exact: true }).click()
    const hostname = page.locator('#hostname')
    await hostname.waitFor()
    await hostname.fill('10.20.0.99')
    await page.locator('#submit').click()
    await saved(page)
  },
  key: {
    target: post('/host.php', 'save'),
    inputs: [
      { recorded: 'db-01', changed: ['db-02', 'web-02'] },
      { recorded: '10.20.0.99', changed: ['10.20.0.98', '10.20.0.97'] },
    ],
    dependencies: [DEVICE_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const id = await deviceId(app, 'db-02')
      if (!id) throw new Error('no device db-02')
      const token = await pageCsrf(app, session, `/host.php?action=edit&id=${id}`)
      const res = await postForm(app, session, '/host.php?header=false', [
        ['__csrf_magic', token],
        ...deviceFields('db-02', '10.20.0.98', String(SITE_IDS.Core), '0'),
        ['id', id],
        ['save_component_host', '1'],
        ['action', 'save'],
      ])
      await res.arrayBuffer()
      mustPass(
        await changeDeviceHostname.key.check(app, { status: 'succeeded', result: null }, session, [
          'db-02',
          '10.20.0.98',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const found = await devices(app, [name, 'db-01'])
      const mine = found.filter((d) => d.description === name)
      if (mine.length !== 1) return `there are ${mine.length} devices named "${name}"`
      if (mine[0]!.hostname !== String(used[1]))
        return `"${name}" has hostname ${mine[0]!.hostname}, not ${String(used[1])}`
      const db01 = found.filter((d) => d.description === 'db-01')
      if (db01.length !== 1 || db01[0]!.hostname !== '10.20.0.21')
        return 'the recorded device db-01 was changed (or another device was renamed to it)'
      const seeded = DEVICES.find(([d]) => d === name)
      if (seeded && mine[0]!.site !== String(SITE_IDS[seeded[2]]))
        return `"${name}" moved from site ${seeded[2]} to site id ${mine[0]!.site}`
      return null
    },
  },
}

/** Devices, ticks old-kiosk, picks Delete, Go, then Continue on the confirmation page. */
export const deleteDevice: Workflow = {
  id: 'delete_device',
  intent: 'delete the device old-kiosk from Cacti',
  rewordings: {
    terse: 'delete device old-kiosk',
    chatty: 'the old kiosk got unplugged for good, please remove old-kiosk from Cacti',
    withoutValue: 'delete one of the devices',
  },
  startPath: '/index.php',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Management', 'Devices')
    await tickRow(page, 'old-kiosk')
    await pickOption(page, 'drp_action', 'Delete')
    await page.locator('#submit').click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('link', { name: 'web-01', exact: true }).waitFor()
    await page.getByRole('link', { name: 'old-kiosk', exact: true }).waitFor({ state: 'detached' })
  },
  key: {
    target: {
      method: 'POST',
      path: '/host.php',
      operation: [
        { field: 'action', value: 'actions' },
        { field: 'drp_action', value: '1' },
        { field: 'delete_type', value: '2' },
      ],
    },
    inputs: [{ recorded: 'old-kiosk', changed: ['retired-scanner', 'spare-switch'] }],
    dependencies: [
      DEVICE_PAGE,
      {
        method: 'POST',
        path: '/host.php',
        operation: [
          { field: 'action', value: 'actions' },
          { field: 'drp_action', value: '1' },
        ],
      },
    ],
    mutating: true,
    async replayByHand(app, session) {
      await deleteByHand(app, session, 'retired-scanner')
      mustPass(
        await deleteDevice.key.check(app, { status: 'succeeded', result: null }, session, [
          'retired-scanner',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = (await query(app, 'SELECT description FROM host')).map(([d]) => d)
      if (names.includes(String(used[0]))) return `the device "${String(used[0])}" is still there`
      if (!names.includes('old-kiosk')) return 'the recorded device old-kiosk was deleted'
      if (!names.includes('web-01')) return 'web-01 was deleted too'
      return null
    },
  },
}

/** The two posts of a list delete, as the page sends them: tick and Go, then Continue. */
async function deleteByHand(app: AppInstance, session: StorageState, name: string): Promise<void> {
  const id = await deviceId(app, name)
  if (!id) throw new Error(`no device ${name}`)
  const token = await pageCsrf(app, session, '/host.php')
  const confirm = await postForm(app, session, '/host.php?header=false', [
    ['__csrf_magic', token],
    [`chk_${id}`, 'on'],
    ['drp_action', '1'],
    ['action', 'actions'],
  ])
  const html = await confirm.text()
  const items = /name='selected_items' value='([^']+)'/.exec(html)?.[1]
  if (!items)
    throw new Error(`the confirmation page holds no selected_items: ${html.slice(0, 300)}`)
  const res = await postForm(app, session, '/host.php?header=false', [
    ['delete_type', '2'],
    ['action', 'actions'],
    ['selected_items', items.replace(/&quot;/g, '"')],
    ['drp_action', '1'],
    ['__csrf_magic', token],
  ])
  await res.arrayBuffer()
}
