/**
 * Xymon (Debian's `xymon`) in the real-app corpus: server-rendered CGI pages, the admin ones
 * behind HTTP Basic auth, whose writes are form posts (and one GET) to a handful of CGIs told
 * apart by their fields, guarded by a Referer check; the alerts are acknowledged by a number
 * that only the Acknowledge page tells.
 */
import type { AppDefinition, AppInstance } from '../types'
import { HOME_PATH, USER } from './seed'
import { startXymon, xymonUnavailable } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'xymon',
  title: 'Xymon',
  source: 'apt xymon 4.3.30-1+b2 (served by apt lighttpd 1.4.69-1)',
  about:
    'Static pages built by xymongen and CGI pages (C programs); public reads are GETs of ' +
    '/xymon-cgi/*.sh with the query the forms build; the admin CGIs under /xymon-seccgi/ need ' +
    'HTTP Basic and refuse a POST without a Referer from their own page: enable/disable, ' +
    'scheduled-job cancel and acknowledge are form POSTs with row-numbered or repeated fields ' +
    '(the acknowledgement needs the alert number the Acknowledge page shows), the ' +
    'critical-systems editor saves with a GET.',
  unavailable: xymonUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startXymon(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: HOME_PATH,
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
