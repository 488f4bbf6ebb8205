/**
 * Request Tracker 5 (Debian's `request-tracker5`) in the real-app corpus: a Perl helpdesk whose
 * Mason pages post multipart forms back to themselves (ticket create, update, modify; the admin
 * and preference pages), guarded against cross-site requests by the Referer header rather than a
 * token, with ids of queues, users and tickets picked from lists and selects, and searches run by
 * GET with a TicketSQL query in the URL.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { rememberDatabase } from './keys'
import { ROOT } from './seed'
import { rtUnavailable, startRtServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'rt',
  title: 'Request Tracker',
  source:
    'apt request-tracker5 5.0.3+dfsg-3~deb12u7 with rt5-db-sqlite (SQLite) and rt5-standalone, ' +
    "served by RT's own rt-server (Plack, Starlet)",
  about:
    'A helpdesk ticket system: Mason pages post multipart forms back to themselves ' +
    '(Ticket/Create.html with `SubmitTicket`, Ticket/Update.html for replies, comments and ' +
    'status changes, Ticket/ModifyPeople.html for the owner, Admin/Users/Modify.html, ' +
    'Prefs/AboutMe.html) carrying numeric ids of queues, users and tickets picked from selects ' +
    'and lists; no CSRF token in the forms: RT refuses a write whose Referer is not its own ' +
    'host; searches are GETs of Search/Results.html with a TicketSQL `Query` (the header box ' +
    'goes through Search/Simple.html?q=); login is a form post to NoAuth/Login.html setting the ' +
    'RT_SID_<name>.<port> cookie.',
  unavailable: rtUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRtServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ROOT.name, password: ROOT.password }
    const instance: AppInstance = {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
    rememberDatabase(instance, server.database)
    return instance
  },
  workflows: WORKFLOWS,
}
