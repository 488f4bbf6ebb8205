/**
 * Icecast (Debian's `icecast2`) in the real-app corpus: a streaming server whose admin pages are
 * rendered on the server from XSLT, behind HTTP Basic auth, with every operation a GET link or a
 * small GET form that names the mount in `?mount=`.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { icecastUnavailable, startIcecast } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'icecast',
  title: 'Icecast',
  source: 'apt icecast2 2.4.4-4+b1 (its web status and admin pages)',
  about:
    'HTTP Basic auth only (no cookie, no token); server-rendered XSLT pages under /admin/ whose ' +
    'operations are GET links and GET forms naming the mount in ?mount= (listclients.xsl, ' +
    'metadata.xsl?mode=updinfo&song=, killclient.xsl?id=<connection id>, ' +
    'moveclients.xsl?destination=, killsource.xsl, manageauth.xsl?action=add|delete); public ' +
    '/status.xsl and /status-json.xsl.',
  unavailable: icecastUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startIcecast(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/status.xsl',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u admin:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
