/**
 * Syncthing (Debian's `syncthing` package, 1.19.2) in the real-app corpus: an AngularJS GUI over
 * a REST JSON API, signed in with HTTP Basic auth, with a CSRF token the server sets as a cookie
 * and the page echoes in a header; every change is the whole configuration written back.
 */
import type { AppDefinition, AppInstance } from '../types'
import { USER } from './seed'
import { startSyncthing, syncthingUnavailable } from './server'
import { fetchSignedIn, signInByHttp } from './session'
import { WORKFLOWS } from './workflows'

export const app: AppDefinition = {
  name: 'syncthing',
  title: 'Syncthing',
  source: 'apt syncthing 1.19.2~ds1-1+b4 (v1.19.2 "Fermium Flea")',
  about:
    'An AngularJS single page over REST JSON: it signs in with HTTP Basic auth (the first page ' +
    'that passes sets a session cookie and a CSRF cookie named after the device, which every ' +
    '/rest/ call echoes in X-CSRF-Token-<id>), reads the whole config with GET /rest/config and ' +
    'saves every change (folders, devices, settings) by PUTting the whole config back; folders ' +
    'are named by label in the page and by id in requests (POST /rest/db/scan?folder=<id>).',
  unavailable: syncthingUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startSyncthing(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: USER.name, password: USER.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchSignedIn(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
