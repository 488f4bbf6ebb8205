/**
 * Cacti 1.2 (Debian's `cacti`) in the real-app corpus: a PHP monitoring console over MariaDB whose
 * pages load their content by Ajax (`?header=false`), filter lists by GET, and write through form
 * posts carrying csrf-magic's `__csrf_magic` token; list actions (delete, disable) go through a
 * confirmation page that hands the ticked rows on as a serialized PHP array.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { rememberSocket } from './keys'
import { ADMIN } from './seed'
import { cactiUnavailable, startCactiServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'cacti',
  title: 'Cacti',
  source:
    'apt cacti 1.2.24+ds1-1+deb12u5 over MariaDB 10.11 (mariadb-server), ' +
    'served by php -S (php8.2-cli, php8.2-mysql)',
  about:
    'A monitoring console: list pages filter by GET (host.php?filter=...&site_id=...&header=false, ' +
    'loaded by Ajax into the page), edit forms post back to their page with `action=save` and ' +
    "csrf-magic's `__csrf_magic` token, list actions post the ticked rows (`chk_<id>=on`) with " +
    '`drp_action` and then confirm on a page that hands them on as a serialized PHP array ' +
    '(`selected_items`); settings post a whole tab; login is a form post to index.php keeping the ' +
    'PHP session cookie `Cacti`.',
  unavailable: cactiUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startCactiServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    const instance: AppInstance = {
      origin: server.origin,
      homePath: '/index.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
    rememberSocket(instance, server.socket)
    return instance
  },
  workflows: WORKFLOWS,
}
