/**
 * Starts a private Privoxy: Debian's `/usr/sbin/privoxy --no-daemon` with its own config in a temp
 * dir (its own confdir with copies of Debian's action and filter files and templates, the seeded
 * `user.action`, its own logdir), listening on a free 127.0.0.1 port, as its own process group.
 * Resolves once its web interface answers at that address.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import {
  STOCK_FILES,
  USER_ACTION_TEXT,
  privoxyConfig,
  webInterfaceAction,
  webInterfaceFilter,
} from './seed'

/** Debian's Privoxy: the binary and the files its package ships in /etc. */
const PRIVOXY = '/usr/sbin/privoxy'
const ETC = '/etc/privoxy'

/** A running Privoxy. */
export interface PrivoxyServer {
  origin: string
  /** The instance's temp dir (`config`, `conf/`, `log/`). */
  dir: string
  close(): Promise<void>
}

/** Why Privoxy cannot run here (naming the apt package), or null. */
export function privoxyUnavailable(): string | null {
  if (!existsSync(PRIVOXY) || !existsSync(join(ETC, 'default.action')))
    return 'Privoxy is not installed: apt-get install --no-install-recommends privoxy'
  return null
}

/**
 * Writes the config and seed, starts Privoxy and waits until its main page answers; stops by
 * itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startPrivoxy(lifetimeMs: number): Promise<PrivoxyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-privoxy-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const conf = join(dir, 'conf')
    mkdirSync(conf, { recursive: true })
    mkdirSync(join(dir, 'log'))
    for (const file of STOCK_FILES) cpSync(join(ETC, file), join(conf, file), { recursive: true })
    writeFileSync(join(conf, 'user.action'), USER_ACTION_TEXT)
    writeFileSync(join(conf, 'web-interface.action'), webInterfaceAction(port))
    writeFileSync(join(conf, 'web-interface.filter'), webInterfaceFilter(port))
    const config = join(dir, 'config')
    writeFileSync(config, privoxyConfig(dir, port))
    const origin = `http://127.0.0.1:${port}`
    // --no-daemon: foreground, logging to stderr too; the config file names everything it reads.
    const server = spawnServer(PRIVOXY, ['--no-daemon', config], {
      cwd: dir,
      output: { stderr: true },
    })
    stopper.server = server.child
    await waitForHttp(`${origin}/`, server.child, {
      name: 'privoxy',
      timeoutMs: 20_000,
      requestTimeoutMs: 5_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
