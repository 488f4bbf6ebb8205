/**
 * Starts a private Deluge: Debian's `deluged` (the BitTorrent daemon) and `deluge-web` (the web
 * UI, which talks to the daemon over Deluge's RPC), each in its own process group with its own
 * config dir inside one fresh temp dir, both on 127.0.0.1; then adds the seed torrents through
 * the web UI's JSON-RPC.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  waitUntil,
  type ServerProcess,
} from '../childProcess'
import { rpcLogin, rpcCall, rpcLogout } from './rpc'
import { PASSWORD, seedTorrents, writeConfigs, writeSeedData, type DelugeDirs } from './seed'

const DELUGED = '/usr/bin/deluged'
const DELUGE_WEB = '/usr/bin/deluge-web'

/** A running Deluge (daemon + web UI). */
export interface DelugeServer {
  origin: string
  /** Where the daemon saves torrents' files (the seeding ones are there). */
  downloads: string
  /** Kills both process groups and removes the temp dir. Safe to call twice. */
  close(): Promise<void>
}

/** Why Deluge cannot run here (naming the apt packages), or null. */
export function delugeUnavailable(): string | null {
  if (!existsSync(DELUGED) || !existsSync(DELUGE_WEB))
    return 'Deluge is not installed: apt-get install deluged deluge-web'
  return null
}

/** True once something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * The environment of both processes: HOME and TMPDIR inside the instance, so nothing lands in
 * the real home (Deluge writes ~/.cache for its translations) and uploads stay in the temp dir.
 */
function environment(dir: string, tmp: string): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: dir, TMPDIR: tmp, PYTHONNOUSERSITE: '1' }
}

/**
 * Starts the daemon, then the web UI (which connects to the daemon as it starts, so the daemon
 * must already listen), then seeds. Both run with `-q`: Debian's Deluge 2.0.3 logging breaks on
 * Python 3.11 (its `findCaller` takes one argument fewer than 3.11 passes), so every log record
 * that is emitted raises inside the daemon; at level "none" none is. Rejects, after stopping
 * everything and removing the dir, when a step fails.
 */
export async function startDeluge(lifetimeMs: number): Promise<DelugeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-deluge-'))
  const dirs: DelugeDirs = {
    daemonConfig: join(dir, 'daemon'),
    webConfig: join(dir, 'web'),
    downloads: join(dir, 'downloads'),
    tmp: join(dir, 'tmp'),
  }
  // Two process groups (the daemon's and the web UI's); SIGKILL at once, the dir goes next.
  const kill = { first: 'SIGKILL' as const, graceMs: 5000 }
  const forget: Array<() => void> = []
  const daemonStopper = instanceStopper(() => undefined, kill)
  const stopper = instanceStopper(async () => {
    await daemonStopper.stop()
    for (const f of forget) f()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  }, kill)
  let daemon: ServerProcess | null = null
  let web: ServerProcess | null = null
  const logs = () => `\ndeluged: ${daemon?.log() ?? ''}\ndeluge-web: ${web?.log() ?? ''}`
  return orStop(stopper.stop, async () => {
    const [daemonPort, bittorrentPort, webPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ]
    writeConfigs(dirs, { daemon: daemonPort, bittorrent: bittorrentPort })
    writeSeedData(dirs.downloads)
    const env = environment(dir, dirs.tmp)
    const output = { stdout: true, stderr: true }
    daemon = spawnServer(
      DELUGED,
      [
        '-c',
        dirs.daemonConfig,
        '-d',
        '-q',
        '-u',
        '127.0.0.1',
        '-p',
        String(daemonPort),
        '-i',
        '127.0.0.1',
      ],
      { cwd: dir, env, output },
    )
    daemonStopper.server = daemon.child
    forget.push(killOnExit(daemon.child))
    stopper.expireAfter(lifetimeMs)
    try {
      await waitUntil('deluged', daemon.child, () => listening(daemonPort), {
        timeoutMs: 60_000,
        intervalMs: 200,
      })
      web = spawnServer(
        DELUGE_WEB,
        ['-c', dirs.webConfig, '-d', '-q', '-i', '127.0.0.1', '-p', String(webPort)],
        { cwd: dir, env, output },
      )
      stopper.server = web.child
      forget.push(killOnExit(web.child))
      const origin = `http://127.0.0.1:${webPort}`
      await waitForHttp(`${origin}/`, web.child, {
        name: 'deluge-web',
        timeoutMs: 60_000,
        requestTimeoutMs: 5000,
        ready: (res) => res.ok,
      })
      const session = await rpcLogin(origin, PASSWORD)
      const call = (method: string, params: unknown[]) => rpcCall(origin, session, method, params)
      // The web UI connects to its default daemon as it starts; wait until it has.
      const webChild = web.child
      await waitUntil(
        'deluge-web (connecting to deluged)',
        webChild,
        async () => (await call('web.connected', [])) === true,
        {
          timeoutMs: 30_000,
          intervalMs: 200,
        },
      )
      await seedTorrents(call)
      await rpcLogout(origin, session)
      return { origin, downloads: dirs.downloads, close: stopper.stop }
    } catch (error) {
      throw new Error(`${(error as Error).message}${logs()}`)
    }
  })
}
