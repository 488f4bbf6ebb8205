/**
 * Prometheus (Debian's `prometheus` package, the server only) in the real-app corpus: a
 * monitoring server whose classic web UI reads a JSON query API (`/api/v1/query`,
 * `/api/v1/query_range` with times computed at the click) and renders its status pages on the
 * server. Every workflow reads: the admin and lifecycle APIs have no UI (see NOTES.md).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { prometheusUnavailable, startPrometheus } from './server'
import { WORKFLOWS } from './workflows/index'

/**
 * Prometheus has no login (see NOTES.md), so nobody signs in. The contract still wants a fixed
 * user; this password is never typed and appears in no request.
 */
const USER = { name: 'prometheus', password: 'prom-no-login-Unused-83' }

/** An anonymous browser holds nothing for Prometheus: no cookie, no token. */
const NO_SESSION: StorageState = { cookies: [], origins: [] }

export const app: AppDefinition = {
  name: 'prometheus',
  title: 'Prometheus',
  source: 'apt prometheus 2.42.0+ds-5+deb12u1 (server and promtool; Debian ships the classic UI)',
  about:
    'No login; the classic graph page reads the JSON API with GET /api/v1/query?query=&time=<now> ' +
    'and /api/v1/query_range?query=&start=&end=&step= (times computed at the click) and ' +
    '/api/v1/label/__name__/values; targets, alerts and rules are server-rendered pages.',
  unavailable: prometheusUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPrometheus(options.lifetimeMs ?? 15 * 60_000)
    return {
      origin: server.origin,
      homePath: '/classic/graph',
      user: USER,
      signIn: () => Promise.resolve(NO_SESSION),
      // Redirects are not followed, as in the other apps' keys.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
