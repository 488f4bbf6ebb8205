/**
 * Radicale (Debian's `radicale` package, 3.1.8) in the real-app corpus: a CalDAV/CardDAV server
 * whose built-in web UI signs in with a login form and then speaks WebDAV to it with HTTP Basic
 * auth on every request.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { radicaleUnavailable, startRadicale } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'radicale',
  title: 'Radicale',
  source: 'apt radicale 3.1.8-2 (python3-radicale 3.1.8-2, its internal web UI at /.web/)',
  about:
    'A plain-JS page over WebDAV with XML bodies: its login form keeps the user name and ' +
    'password in memory and opens every XMLHttpRequest with them (HTTP Basic after a 401; the ' +
    'request URL carries them as userinfo); it lists collections with PROPFIND /<user>/ (depth ' +
    '1), creates with extended MKCOL /<user>/<uuid made in the page>/, edits with PROPPATCH, ' +
    'deletes with DELETE and uploads an .ics/.vcf file as the raw body of PUT /<user>/<uuid>/; ' +
    'collections are picked by title and addressed by id.',
  unavailable: radicaleUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRadicale(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/.web/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u alice:password (Basic is the whole login); no redirects followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
