/**
 * Supervisor's web UI (Debian's `supervisor` package) in the real-app corpus: a server-rendered
 * status page behind HTTP Basic auth whose action links are plain GETs
 * (`index.html?processname=<group:name>&action=<stop|start|restart|clearlog>`) answered, once the
 * action is done, with a 301 back to the page and a message.
 */
import type { AppDefinition } from '../types'
import type { SupervisorInstance } from './keys'
import { USER } from './seed'
import { startSupervisor, supervisorUnavailable } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'supervisor',
  title: 'Supervisor',
  source: 'apt supervisor 4.2.5-1 (its built-in web UI, `[inet_http_server]`)',
  about:
    'HTTP Basic auth only (no session, no CSRF token); one server-rendered status page whose ' +
    'per-program action links are GETs of /index.html?processname=<group:name>&action=' +
    '<start|stop|restart|clearlog> (and ?action=restartall|stopall above the table), answered ' +
    'when done with a 301 to /?message=...; a program name opens /tail.html?processname= in a ' +
    'new tab; XML-RPC at /RPC2 behind the same login.',
  unavailable: supervisorUnavailable,
  async start(options = {}): Promise<SupervisorInstance> {
    const server = await startSupervisor(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
      seededPids: server.seededPids,
      restartAllPids: { ...server.seededPids },
    }
  },
  workflows: WORKFLOWS,
}
