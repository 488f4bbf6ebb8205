/**
 * MailDev 3.0.0 (npm) in the real-app corpus: a mail catcher whose React single-page UI reads a
 * REST JSON API under `/api/email` and gets live updates over socket.io, behind HTTP Basic auth.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { maildevUnavailable, startMailDev } from './server'
import { fetchBasic, signInBasic } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'maildev',
  title: 'MailDev',
  source: 'npm maildev@3.0.0',
  about:
    'A mail catcher whose React UI reads JSON from /api/email/summary (the search box as ' +
    '?search=), opens an email by its random id (GET /api/email/<id>, /html, /source), deletes ' +
    'with DELETE /api/email/<id> or /api/email/all, marks all read with PATCH ' +
    '/api/email/read-all, relays with POST /api/email/<id>/relay/<address>, and gets new mail ' +
    'over socket.io; HTTP Basic auth only, no cookie, token or CSRF.',
  unavailable: maildevUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startMailDev(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInBasic(server.origin, user),
      // With a session: curl -u user:password (Basic is the whole login); redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
