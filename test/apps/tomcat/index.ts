/**
 * Apache Tomcat's Manager and Host Manager (Debian's `tomcat10` and `tomcat10-admin`) in the
 * real-app corpus: server-rendered pages behind HTTP Basic auth whose every form posts to an
 * action URL carrying a per-session CSRF nonce handed out in the page's HTML.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { startTomcat, tomcatUnavailable } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'tomcat',
  title: 'Apache Tomcat Manager and Host Manager',
  source: 'apt tomcat10 + tomcat10-admin 10.1.60-1~deb12u1 (Tomcat 10.1.60, OpenJDK 17)',
  about:
    'HTTP Basic auth plus a JSESSIONID session per admin app; every button is its own ' +
    '<form method="POST"> to /manager/html/<stop|start|reload|undeploy|expire>?path=/app&' +
    'org.apache.catalina.filters.CSRF_NONCE=<nonce from the page HTML>, the upload a multipart ' +
    'POST, Host Manager the same under /host-manager/html; answers are the page again with an ' +
    '"OK - ..." message.',
  unavailable: tomcatUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startTomcat(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password; redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
