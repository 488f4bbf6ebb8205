import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { redJsPath, startNodeRed } from './server'
import { fetchWithSession } from '../sessionFetch'
import { bearerOf, requestToken, storageStateFor } from './session'
import { WORKFLOWS } from './workflows'

/** Node-RED 4.1.8 from npm, run as a child process on loopback with seeded flows. */
export const app: AppDefinition = {
  name: 'nodered',
  title: 'Node-RED',
  source: 'npm node-red@4.1.8',
  about:
    'A jQuery single-page editor that logs in with an OAuth password grant (POST /auth/token), ' +
    'keeps the token in localStorage and sends it as Authorization: Bearer; it deploys by POSTing ' +
    'the whole flow configuration with the revision it last read (POST /flows with rev).',
  unavailable() {
    return redJsPath()
      ? null
      : 'node-red is missing from node_modules: it is a dev dependency of the repo (npm ci installs node-red@4.1.8)'
  },
  async start(options = {}): Promise<AppInstance> {
    const server = await startNodeRed(options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/',
      user: { name: USER.name, password: USER.password },
      async signIn() {
        return storageStateFor(origin, await requestToken(origin, USER))
      },
      // The session's token as `Authorization: Bearer`, as the editor's jQuery `beforeSend`
      // adds to every admin call.
      fetch: (path, init) =>
        fetchWithSession(origin, path, init, {
          follow: true,
          bearer: bearerOf(init?.session, origin),
        }),
      close: () => server.close(),
    }
  },
  workflows: WORKFLOWS,
}
