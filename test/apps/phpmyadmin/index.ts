/**
 * phpMyAdmin (Debian's `phpmyadmin` package) in the real-app corpus: a PHP admin UI for MariaDB
 * whose pages are `index.php?route=/...`, loaded and submitted by jQuery XHRs that carry the
 * session's CSRF `token` and answer JSON wrapping HTML fragments.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { MAIN_USER } from './seed'
import { pmaUnavailable, startPmaServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'phpmyadmin',
  title: 'phpMyAdmin',
  source:
    'apt phpmyadmin 4:5.2.1+dfsg-1+deb12u1 (phpMyAdmin 5.2.1) over mariadb-server 1:10.11.19, served by php -S (php-cli 8.2)',
  about:
    'Every page and action is index.php?route=/...: the UI loads pages and posts forms by XHR ' +
    '(ajax_request=true) with a per-session CSRF token in the body, and gets JSON back whose ' +
    'fields hold HTML; rows are named by a where_clause SQL fragment, table columns by md5 ' +
    'hashes in the field names, and the login is a cookie form.',
  unavailable: pmaUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPmaServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: MAIN_USER.name, password: MAIN_USER.password }
    return {
      origin: server.origin,
      homePath: '/index.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
