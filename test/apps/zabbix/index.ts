/**
 * Zabbix 6.0 (Debian's `zabbix-frontend-php`) in the real-app corpus: a PHP monitoring frontend
 * over PostgreSQL whose pages talk to it with form posts (old-style pages such as
 * `hostgroups.php` and `maintenance.php`, and `zabbix.php?action=...` controllers) carrying the
 * session's `sid`, Ajax popups answered with JSON, and multiselect lookups on `jsrpc.php`.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { startZabbixServer, zabbixUnavailable } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'zabbix',
  title: 'Zabbix',
  source:
    'apt zabbix-frontend-php 1:6.0.14+dfsg-1 with zabbix-server-pgsql (schema) over PostgreSQL 15, ' +
    'served by php -S (php8.2-cli, php8.2-pgsql, -bcmath, -gd, -mbstring, -xml)',
  about:
    'A monitoring frontend: old-style pages post whole forms back to themselves ' +
    '(hostgroups.php, maintenance.php, naming the operation by the submit field `add` or an ' +
    '`action` field) and newer ones go through zabbix.php?action=<controller> (list pages by GET ' +
    'with filter fields, popups and creates by Ajax POST answered with JSON); every write ' +
    'carries the `sid` the pages print (part of the session id), ids are numeric and come from ' +
    'list pages or the multiselect lookup jsrpc.php?method=multiselect.get; login is a form post ' +
    'to index.php setting the zbx_session cookie.',
  unavailable: zabbixUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startZabbixServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/zabbix.php?action=dashboard.view',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
