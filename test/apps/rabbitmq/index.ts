/**
 * The RabbitMQ management UI (Debian's `rabbitmq-server` 3.10, its `rabbitmq_management` plugin)
 * in the real-app corpus: a jQuery/Sammy single page over a JSON HTTP API, whose login form never
 * reaches the server: the page keeps `user:password` in a cookie and sends it itself as
 * `Authorization: Basic` on every `/api/...` call.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { rabbitUnavailable, startRabbit } from './server'
import { fetchSignedIn, signInByHttp } from './session'
import { WORKFLOWS } from './workflows'

export const app: AppDefinition = {
  name: 'rabbitmq',
  title: 'RabbitMQ management UI',
  source: 'apt rabbitmq-server 3.10.8-1.1+deb12u1 (plugin rabbitmq_management 3.10.8)',
  about:
    'A jQuery/Sammy single page over a JSON HTTP API under /api/: its login form is never sent; ' +
    'the page keeps base64(user:password) in its preferences cookie m and adds ' +
    'Authorization: Basic to every XHR itself (no session, no CSRF); objects are named in the ' +
    'path by vhost and name (/api/queues/%2F/<queue>), writes are PUT/DELETE/POST with JSON ' +
    'bodies built from the form fields.',
  unavailable: rabbitUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRabbit(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // With a session: curl -u user:password, the login the page keeps in its cookie.
      fetch: (path, init) => fetchSignedIn(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
