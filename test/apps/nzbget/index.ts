/**
 * NZBGet (Debian's `nzbget` package) in the real-app corpus: a jQuery single-page web UI behind
 * HTTP Basic auth that talks JSON-RPC to one URL, reads as `GET /jsonrpc/<method>` and writes as
 * `POST /jsonrpc` with the operation and the picked download ids in the JSON body.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchBasic } from './rpc'
import { USER } from './seed'
import { nzbgetUnavailable, startNzbget } from './server'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'nzbget',
  title: 'NZBGet',
  source: 'apt nzbget 21.0+dfsg-2.1 (its built-in web UI)',
  about:
    'HTTP Basic auth only (no cookie, no token); one JSON-RPC URL: reads are GET ' +
    '/jsonrpc/<method>?=<param>, writes POST /jsonrpc {"nocache", "method", "params"}, most of ' +
    'them method "editqueue" with the command ("GroupPause", "GroupSetPriority"...), its ' +
    "argument and the picked downloads' NZBIDs (from listgroups) as params; an NZB file is " +
    'uploaded base64 inside the JSON ("append").',
  unavailable: nzbgetUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startNzbget(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      // Basic auth leaves nothing in cookies or localStorage: the saved login of this site is an
      // empty storage state plus the user and password. One request checks them.
      async signIn() {
        const res = await fetchBasic(server.origin, user, '/jsonrpc/version', {
          session: { cookies: [], origins: [] },
        })
        await res.arrayBuffer()
        if (res.status !== 200)
          throw new Error(`NZBGet refused the login of ${user.name} (${res.status})`)
        return { cookies: [], origins: [] }
      },
      // With a session: curl -u user:password; redirects not followed.
      fetch: (path, init) => fetchBasic(server.origin, user, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
