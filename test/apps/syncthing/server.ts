/**
 * Starts a private Syncthing (Debian's `syncthing` package): a temp dir holding the home dir
 * (`--home`: identity, config, database) and the seeded folders under `Sync/`, served by
 * `syncthing serve` with the GUI on a free loopback port, in its own process group.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  delay,
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import { API_KEY, FOLDERS, writeSeed } from './seed'

/** Debian's binary. */
const SYNCTHING = '/usr/bin/syncthing'

/**
 * The GUI address the config file holds. The real one (a free port) is given with
 * `--gui-address`, which Syncthing uses without writing it to the config, so the config the GUI
 * reads and writes back is the same on every start.
 */
const CONFIG_GUI_ADDRESS = '127.0.0.1:8384'

/** A running Syncthing. */
export interface SyncthingServer {
  origin: string
  /** The instance's temp dir (Syncthing's cwd; `home/` and `Sync/` are in it). */
  dir: string
  /** The API key of the config: checks read state with it without making GUI sessions. */
  apiKey: string
  close(): Promise<void>
}

/** Why Syncthing cannot run here (naming the apt package), or null. */
export function syncthingUnavailable(): string | null {
  return existsSync(SYNCTHING) ? null : 'Syncthing is not installed: apt-get install syncthing'
}

/**
 * Writes a fresh instance and serves it; resolves once the GUI answers and every seeded folder
 * has finished its first scan (so every start shows the same page). Stops by itself after
 * `lifetimeMs`; rejects, after removing everything, when a step fails.
 */
export async function startSyncthing(lifetimeMs: number): Promise<SyncthingServer> {
  const apiKey = API_KEY
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-syncthing-'))
  let forget = (): void => undefined
  // SIGTERM first: Syncthing closes its database cleanly in well under the grace time.
  const stopper = instanceStopper(
    () => {
      forget()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
    { first: 'SIGTERM', graceMs: 5000 },
  )
  return orStop(stopper.stop, async () => {
    const home = join(dir, 'home')
    writeSeed(home, dir, CONFIG_GUI_ADDRESS)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      SYNCTHING,
      [
        'serve',
        '--home',
        home,
        '--no-browser',
        '--no-restart',
        '--no-upgrade',
        '--no-default-folder',
        `--gui-address=${origin}`,
        '--logflags=0',
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          // `~` in a folder path a person types means the instance dir, never the real home.
          HOME: dir,
          STNORESTART: '1',
          STNOUPGRADE: '1',
          STNODEFAULTFOLDER: '1',
          // Naming the hash package skips the start-up benchmark that picks one (about 1 s).
          STHASHING: 'minio',
        },
        output: { stdout: true, stderr: true },
      },
    )
    stopper.server = server.child
    forget = killOnExit(server.child)
    try {
      // Any answer will do (the GUI asks for the login with a 401); the folders come next.
      await waitForHttp(`${origin}/`, server.child, {
        name: 'syncthing',
        timeoutMs: 60_000,
        requestTimeoutMs: 2000,
      })
      await waitUntil('syncthing folders', server.child, () => allIdle(origin, apiKey), {
        timeoutMs: 60_000,
        intervalMs: 250,
      })
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${server.log()}`)
    }
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, apiKey, close: stopper.stop }
  })
}

/** True when every seeded folder has finished its first scan (state `idle`). */
async function allIdle(origin: string, apiKey: string): Promise<boolean> {
  for (const f of FOLDERS) {
    try {
      const res = await fetch(`${origin}/rest/db/status?folder=${f.id}`, {
        headers: { 'X-API-Key': apiKey },
        signal: AbortSignal.timeout(2000),
      })
      const body = (await res.json().catch(() => ({}))) as { state?: string }
      if (body.state !== 'idle') return false
    } catch {
      await delay(100)
      return false
    }
  }
  return true
}
