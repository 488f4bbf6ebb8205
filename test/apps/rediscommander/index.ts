/**
 * Redis Commander 0.9.0 (npm) in the real-app corpus: a jQuery UI over a Redis (Debian's
 * `redis-server`) whose key tree, key views, modals and command-line panel read and write through
 * a JSON API under `/apiv2/...` that names the connection in every path.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { searchKeys, serverInfo, viewKey } from './reads'
import { redisCommanderUnavailable, startRedisCommander } from './server'
import { addKey, addListValue, deleteKey, editHashField, renameKey, setTtl } from './writes'

/**
 * The UI runs without a login (see NOTES.md: its login keeps the token in sessionStorage, which
 * a saved login cannot hold), so nobody signs in. The contract still wants a fixed user; the
 * password is what `--http-auth-password` would take, never typed.
 */
const USER = { name: 'admin', password: 'Redis-Commander-unused-7' }

/** An anonymous browser holds nothing for Redis Commander: no cookie, no localStorage. */
const NO_SESSION: StorageState = { cookies: [], origins: [] }

export const app: AppDefinition = {
  name: 'rediscommander',
  title: 'Redis Commander',
  source: 'npm redis-commander@0.9.0 (with apt redis-server 5:7.0.15-1~deb12u10)',
  about:
    'A jQuery UI whose key tree and views read JSON from /apiv2/keystree/<connection>/<prefix> ' +
    'and /apiv2/key/<connection>/<key>; modals save with form posts (POST /apiv2/key/<conn>/<key> ' +
    'with keyType=..., ?action=delete, action=patch to rename; /apiv2/hash/field/edit, ' +
    '/apiv2/list/value/add with the key in the body) and the command-line panel sends ' +
    'POST /apiv2/exec/<connection> cmd=<line>; no login, cookie or CSRF token.',
  unavailable: redisCommanderUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startRedisCommander(options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/',
      user: USER,
      signIn: () => Promise.resolve(NO_SESSION),
      fetch(path, init = {}) {
        // No session to add: the UI takes plain requests. Redirects are not followed.
        const { session: _session, ...rest } = init
        return fetch(`${origin}${path}`, { redirect: 'manual', ...rest })
      },
      close: () => server.close(),
    }
  },
  workflows: [
    serverInfo,
    viewKey,
    searchKeys,
    addKey,
    editHashField,
    addListValue,
    renameKey,
    deleteKey,
    setTtl,
  ],
}
