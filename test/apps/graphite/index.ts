/**
 * Graphite's web app (Debian's `graphite-web` 1.1.8 on Django 3.2) in the real-app corpus: an
 * ExtJS dashboard that finds metrics by POSTing the typed path to `/metrics/find/`, renders graphs
 * as `/render?target=<function expression>` images, saves and deletes dashboards by name in the
 * URL path (`/dashboard/save/<name>` with the whole dashboard as a JSON `state` form field), makes
 * short links by GET `/s/<render url>`, and Django's admin site for events (CSRF-token forms,
 * a list action with a confirmation page), signed in through the account login form.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { graphiteUnavailable, startGraphiteServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'graphite',
  title: 'Graphite',
  source:
    'apt graphite-web 1.1.8-2 (python3-django 3:3.2.25, python3-whisper 1.1.4) served by ' +
    "Django's runserver, metrics in whisper files",
  about:
    'A metrics dashboard: the ExtJS page finds metrics as one types (form POST to ' +
    '/metrics/find/ with query=<typed path>), draws graphs as /render?target=<function ' +
    'expression> images, saves a dashboard as POST /dashboard/save/<name> whose `state` field is ' +
    'the whole dashboard as JSON (and deletes it by name in the path), searches dashboards with ' +
    '/dashboard/find/, shortens a graph URL with GET /s/<render url> answered in plain text; ' +
    "events are kept through Django's admin (forms with csrfmiddlewaretoken, a delete action " +
    'confirmed on a second page), signed in by the /account/login form (sessionid cookie).',
  unavailable: graphiteUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startGraphiteServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/dashboard/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
