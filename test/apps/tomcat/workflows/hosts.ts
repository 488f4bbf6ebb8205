/**
 * Host Manager workflows. Its page works as the Manager's: every form posts to
 * `/host-manager/html/<add|remove|start|stop>?...&org.apache.catalina.filters.CSRF_NONCE=<nonce>`
 * with the session cookie (path /host-manager) of the page that handed the nonce out, and the
 * answer is the page again with `OK - Host [name] added`, `OK - Removed host [name]` (or `FAIL - ...`) in its Message box.
 * Add sends the form's fields as the body (`name`, `aliases`, `appBase`, and the ticked boxes as
 * `autoDeploy=on` ...); Remove names the host in the query (`?name=<host>`).
 */
import type { Workflow } from '../../types'
import { HOST_MANAGER_PAGE, listHosts, mustPass, postForm } from '../keys'
import { messageShown, openAdmin, pressHostButton } from '../person'

/** The boxes the Add form has ticked by default, as it posts them. */
const ADD_DEFAULTS = {
  autoDeploy: 'on',
  deployOnStartup: 'on',
  deployXML: 'on',
  unpackWARs: 'on',
  manager: 'on',
}

/** Types a host name and an alias into "Add Virtual Host", presses Add. */
export const addVirtualHost: Workflow = {
  id: 'add_virtual_host',
  intent:
    'add a virtual host staging.example.test with the alias www.staging.example.test in Tomcat',
  rewordings: {
    terse: 'tomcat add host staging.example.test alias www.staging.example.test',
    chatty:
      "We're bringing up the staging site, could you add staging.example.test as a new virtual host in Tomcat's Host Manager, with www.staging.example.test as its alias?",
    withoutValue: 'add a new virtual host to Tomcat',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openAdmin(page, app, 'host', true)
    const name = page.locator('input[name="name"]')
    await name.click()
    await name.pressSequentially('staging.example.test', { delay: 30 })
    const aliases = page.locator('input[name="aliases"]')
    await aliases.click()
    await aliases.pressSequentially('www.staging.example.test', { delay: 30 })
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await messageShown(page, 'OK - Host [staging.example.test] added')
  },
  key: {
    target: { method: 'POST', path: '/host-manager/html/add' },
    inputs: [
      { recorded: 'staging.example.test', changed: ['qa.example.test', 'preview.example.test'] },
      {
        recorded: 'www.staging.example.test',
        changed: ['www.qa.example.test', 'www.preview.example.test'],
      },
    ],
    dependencies: [HOST_MANAGER_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [name, alias] = ['qa.example.test', 'www.qa.example.test']
      const body = new URLSearchParams({ name, aliases: alias, appBase: '', ...ADD_DEFAULTS })
      await postForm(app, session, '/host-manager/html', '/host-manager/html/add', {}, body)
      mustPass(
        await addVirtualHost.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          alias,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, alias] = [String(used[0]), String(used[1])]
      const hosts = await listHosts(app)
      const aliases = hosts.get(name)
      if (!aliases) return `there is no virtual host ${name}`
      if (!aliases.includes(alias)) return `${name} has the aliases [${aliases}], not ${alias}`
      return hosts.has('staging.example.test')
        ? 'staging.example.test (recorded) was added too'
        : null
    },
  },
}

/** Presses Remove in legacy.example.test's row of Host Manager. */
export const removeVirtualHost: Workflow = {
  id: 'remove_virtual_host',
  intent: 'remove the virtual host legacy.example.test from Tomcat',
  rewordings: {
    terse: 'remove host legacy.example.test',
    chatty:
      'legacy.example.test was switched off at the DNS level ages ago, can you remove that virtual host from Tomcat too?',
    withoutValue: 'remove a virtual host from Tomcat',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openAdmin(page, app, 'host', true)
    await pressHostButton(page, 'legacy.example.test', 'Remove')
    await messageShown(page, 'OK - Removed host [legacy.example.test]')
  },
  key: {
    target: { method: 'POST', path: '/host-manager/html/remove' },
    inputs: [
      { recorded: 'legacy.example.test', changed: ['blog.example.test', 'docs.example.test'] },
    ],
    dependencies: [HOST_MANAGER_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'blog.example.test'
      await postForm(app, session, '/host-manager/html', '/host-manager/html/remove', { name })
      mustPass(
        await removeVirtualHost.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const hosts = await listHosts(app)
      if (hosts.has(name)) return `${name} is still a virtual host`
      return hosts.has('legacy.example.test')
        ? null
        : 'legacy.example.test (recorded) was removed too'
    },
  },
}
