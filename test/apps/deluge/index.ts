/**
 * Deluge (Debian's `deluged` + `deluge-web` 2.0.3) in the real-app corpus: a BitTorrent client
 * whose ExtJS web UI sends every operation as JSON-RPC to one URL, `POST /json`, with the method
 * and the torrent ids (info hashes of the rows the person clicked) in the body.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { rpcLogin } from './rpc'
import { PASSWORD, USER_NAME } from './seed'
import { delugeUnavailable, startDeluge } from './server'
import { WORKFLOWS } from './workflows/index'

/** A Deluge instance: the contract's, plus where the daemon keeps downloaded files. */
export interface DelugeInstance extends AppInstance {
  downloads: string
}

export const app: AppDefinition = {
  name: 'deluge',
  title: 'Deluge',
  source: 'apt deluged + deluge-web 2.0.3-4 (libtorrent-rasterbar 2.0.8, python3-libtorrent)',
  about:
    'An ExtJS single-page UI that sends every operation as JSON-RPC to POST /json ' +
    '({"method": "core.pause_torrent", "params": [[<info hash>]], "id": n}): the operation and ' +
    'the ids of the rows clicked travel in the body; sign-in is auth.login with the password and ' +
    'a _session_id cookie; .torrent files go to POST /upload (multipart) first.',
  unavailable: delugeUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startDeluge(options.lifetimeMs ?? 15 * 60_000)
    const instance: DelugeInstance = {
      origin: server.origin,
      homePath: '/',
      user: { name: USER_NAME, password: PASSWORD },
      signIn: () => rpcLogin(server.origin, PASSWORD),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
      downloads: server.downloads,
    }
    return instance
  },
  workflows: WORKFLOWS,
}
