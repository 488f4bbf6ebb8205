/**
 * ZNC workflows on a user's IRC networks. A user's edit page lists its networks with Edit / Del
 * links and an [Add] link; the network page (`addnetwork?user=` or `editnetwork?user=&network=`)
 * is one form posting every field back, the user and the network named by hidden fields. Its
 * server list is a table the page's script serializes into one `servers` field, a line
 * `host [+]port [password]` per server (`+` for SSL).
 */
import type { RequestKey, Workflow } from '../../types'
import {
  WEBADMIN,
  formFields,
  getPage,
  mustPass,
  postForm,
  readNetwork,
  readUser,
  setField,
} from '../keys'
import { SEED_SERVER } from '../seed'
import { clickUserRow, openMenu } from './person'

const get = (page: string): RequestKey => ({ method: 'GET', path: `${WEBADMIN}/${page}` })
const post = (page: string): RequestKey => ({ method: 'POST', path: `${WEBADMIN}/${page}` })

/**
 * The network the person adds. Its server is a loopback address (nothing listens on 6697 there):
 * ZNC connects a new network at once, and must never reach beyond this machine.
 */
const NEW_NETWORK = { name: 'quakenet', host: '127.0.0.10' }
/** The port and SSL the server table proposes for a new row, which the person keeps. */
const DEFAULT_PORT = '+6697'

/**
 * From the home page: Manage Users, Edit in alice's row, [Add] in her Networks, types the network
 * name, clicks Add under the server table and types the host (keeping port 6697 with SSL), then
 * "Add Network and return"; waits for the network in alice's list.
 */
export const addNetwork: Workflow = {
  id: 'add_network',
  intent: `add the IRC network ${NEW_NETWORK.name} with server ${NEW_NETWORK.host} to ZNC user alice`,
  rewordings: {
    terse: `alice: new network ${NEW_NETWORK.name}, server ${NEW_NETWORK.host}`,
    chatty: `could you set alice up with a ${NEW_NETWORK.name} network on the bouncer? the server is ${NEW_NETWORK.host}`,
    withoutValue: 'add an IRC network to a bouncer user',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await clickUserRow(page, 'alice', 'Edit')
    await page.waitForURL('**/edituser?user=alice')
    await page.locator('#content').getByRole('link', { name: 'Add', exact: true }).click()
    await page.waitForURL('**/addnetwork?user=alice')
    await page.getByLabel('Network Name:').fill(NEW_NETWORK.name)
    await page.locator('#servers_add').click()
    const host = page.locator('#servers_tbody .servers_row_host').last()
    await host.fill(NEW_NETWORK.host)
    // The table writes the hidden server list on `change`, which fires when the field loses focus.
    await host.press('Tab')
    await page.getByRole('button', { name: 'Add Network and return' }).click()
    await page.waitForURL('**/edituser?user=alice')
    await page
      .locator('#content')
      .getByRole('cell', { name: NEW_NETWORK.name, exact: true })
      .waitFor()
  },
  key: {
    target: post('addnetwork'),
    inputs: [
      { recorded: 'alice', changed: ['bob', 'carol'] },
      { recorded: NEW_NETWORK.name, changed: ['undernet', 'dalnet'] },
      { recorded: NEW_NETWORK.host, changed: ['127.0.0.11', '127.0.0.12'] },
    ],
    // The empty network form of that user: the CSRF token and the defaults it posts.
    dependencies: [get('addnetwork')],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [user, name, host] = used as [string, string, string]
      const html = await getPage(app, session, `${WEBADMIN}/addnetwork?user=${user}`)
      const fields = formFields(html, 'addnetwork')
      setField(fields, 'name', name)
      // What the server table serializes: host, port with `+` for SSL, an empty password.
      setField(fields, 'servers', `${host} ${DEFAULT_PORT} \n`)
      fields.push(['submit_return', 'Add Network and return'])
      const res = await postForm(app, session, 'addnetwork', fields)
      if (res.status !== 302) throw new Error(`addnetwork answered ${res.status}, not a redirect`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [user, name, host] = used.map(String) as [string, string, string]
      const network = await readNetwork(app, session, user, name)
      if (!network) return `${user} has no network ${name}`
      if (!network.servers.some((s) => s.split(' ')[0] === host))
        return `${user}/${name} has the servers ${JSON.stringify(network.servers)}, not ${host}`
      const alice = await readUser(app, session, 'alice')
      return alice && !alice.networks.includes(NEW_NETWORK.name)
        ? null
        : `the recorded user alice got a network ${NEW_NETWORK.name}`
    },
  },
}

/**
 * From the home page: Manage Users, Edit in alice's row, Edit in the row of her network libera,
 * unticks "Active" (connect to IRC and reconnect), "Save and return".
 */
export const disableNetwork: Workflow = {
  id: 'disable_network',
  intent: "disable ZNC user alice's network libera so the bouncer stops connecting to it",
  rewordings: {
    terse: 'turn off libera for alice',
    chatty:
      "alice doesn't want the bouncer sitting on libera anymore, can you switch that network off for her?",
    withoutValue: "disable one of a bouncer user's networks",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Manage Users', 'listusers')
    await clickUserRow(page, 'alice', 'Edit')
    await page.waitForURL('**/edituser?user=alice')
    const row = page.locator('#content tbody tr').filter({
      has: page.getByRole('cell', { name: 'libera', exact: true }),
    })
    await row.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.waitForURL('**/editnetwork?user=alice&network=libera')
    await page.getByLabel('Connect to IRC & automatically re-connect').uncheck()
    await page.getByRole('button', { name: 'Save and return' }).click()
    await page.waitForURL('**/edituser?user=alice')
  },
  key: {
    target: post('editnetwork'),
    inputs: [
      { recorded: 'alice', changed: ['bob', 'carol'] },
      { recorded: 'libera', changed: ['hackint', 'rizon'] },
    ],
    // The network form: the CSRF token, and every other field (servers among them), which the
    // post must send back unchanged (ZNC drops a server list the post leaves out).
    dependencies: [get('editnetwork')],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [user, network] = used as [string, string]
      const query = new URLSearchParams({ user, network })
      const html = await getPage(app, session, `${WEBADMIN}/editnetwork?${query}`)
      const fields = formFields(html, 'editnetwork').filter(([n]) => n !== 'doconnect')
      fields.push(['submit_return', 'Save and return'])
      const res = await postForm(app, session, 'editnetwork', fields)
      if (res.status !== 302) throw new Error(`editnetwork answered ${res.status}, not a redirect`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [user, name] = used.map(String) as [string, string]
      const network = await readNetwork(app, session, user, name)
      if (!network) return `${user} has no network ${name}`
      if (network.active) return `${user}/${name} is still active`
      if (network.servers.join('\n') !== SEED_SERVER)
        return `${user}/${name}'s servers became ${JSON.stringify(network.servers)}`
      const recorded = await readNetwork(app, session, 'alice', 'libera')
      return recorded?.active ? null : 'the recorded network alice/libera was disabled'
    },
  },
}
