/**
 * Mailman 3's web UI (Debian's `mailman3-web`: Postorius 1.3.8 on Django 3.2, in front of Mailman
 * core 3.3.8) in the real-app corpus: server-rendered Django forms, each with its own
 * `csrfmiddlewaretoken` matched against the `csrftoken` cookie, answered by a redirect and a flash
 * message; lists named by their list id in the URL path (`/postorius/lists/team.lists.example.org/
 * ...`); members ticked by address in a list form; settings pages that post every field of a
 * section; sign-in through allauth's login form.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { coreApis } from './keys'
import { ADMIN } from './seed'
import { mailmanUnavailable, startMailmanServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'mailman3web',
  title: 'Mailman 3 (Postorius)',
  source:
    'apt mailman3-web 0+20200530-2.1 (python3-django-postorius 1.3.8-3+deb12u1, ' +
    'python3-django-allauth 0.51.0, python3-django 3:3.2.25) over apt mailman3 3.3.8-2~deb12u2, ' +
    "served by Django's runserver, both on SQLite",
  about:
    'A mailing-list admin UI: Django forms posting back to their own page with a ' +
    'csrfmiddlewaretoken field that must match the csrftoken cookie, answered 302 with a flash ' +
    'message; lists are addressed by their list id in the URL path (/postorius/lists/' +
    '<name>.<domain>/members/member/, /settings/list_identity, /bans/, /delete), members are ' +
    'ticked by address (choices=<email>) in the member list, member search is GET ?q=, a new ' +
    "list picks its domain from a select, a settings section posts all of its fields; allauth's " +
    'login form sets the sessionid cookie. Postorius reads and writes everything through Mailman ' +
    "core's REST API, which the browser never sees.",
  unavailable: mailmanUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startMailmanServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    const instance: AppInstance = {
      origin: server.origin,
      homePath: '/postorius/lists/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
    coreApis.set(instance, server.api)
    return instance
  },
  workflows: WORKFLOWS,
}
