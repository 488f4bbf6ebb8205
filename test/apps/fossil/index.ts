/**
 * Fossil SCM (Debian's `fossil` package) in the real-app corpus: a server-rendered app whose
 * forms post with a `csrf` field and a same-origin Referer check, a wiki editor that saves
 * through `/wikiajax/save`, a forum, tickets, and multipart attachments.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { MAIN_USER } from './seed'
import { fossilUnavailable, startFossilServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'fossil',
  title: 'Fossil SCM',
  source: 'apt fossil 1:2.21-1+deb12u1 (fossil server)',
  about:
    'Server-rendered pages with GET query parameters (timeline, search, reports); ticket and ' +
    "forum forms that post with a csrf field (the login cookie's prefix) and only pass a " +
    'same-origin Referer check; a wiki editor saving by XHR multipart posts to /wikiajax/save; ' +
    'multipart attachment uploads to /attachadd.',
  unavailable: fossilUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startFossilServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: MAIN_USER.name, password: MAIN_USER.password }
    return {
      origin: server.origin,
      homePath: '/home',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: Fossil answers a saved form with a 302, which keys check.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
