/**
 * Starts a private ZNC: a temp data dir holding only `configs/znc.conf` (seed.ts), then
 * `znc --foreground --datadir <dir>` as the leader of its own process group on a free
 * 127.0.0.1 port. ZNC refuses to start as root without a 30-second warning pause, so when this
 * process is root the server runs as `nobody` (the data dir is handed to that user first).
 */
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { zncConfig } from './seed'

/** Where Debian's `znc` package puts the binary and the webadmin module. */
const ZNC = '/usr/bin/znc'
const WEBADMIN = '/usr/lib/znc/webadmin.so'
/** `nobody:nogroup` on Debian: the user a root caller runs ZNC as. */
const NOBODY = { uid: 65534, gid: 65534 }
/** util-linux's setpriv (Essential in Debian): drops to NOBODY, then execs ZNC in place. */
const SETPRIV = '/usr/bin/setpriv'

/** A running ZNC. */
export interface ZncServer {
  origin: string
  /** The instance's data dir (`configs/znc.conf`, and the `users/`, `moddata/` ZNC adds). */
  dir: string
  close(): Promise<void>
}

/** Why ZNC cannot run here (naming the apt package), or null. */
export function zncUnavailable(): string | null {
  if (!existsSync(ZNC) || !existsSync(WEBADMIN)) return 'ZNC is not installed: apt-get install znc'
  if (process.getuid?.() === 0 && !existsSync(SETPRIV))
    return 'setpriv is missing (needed to run ZNC as nobody): apt-get install util-linux'
  return null
}

/** Gives `dir` and everything in it to `owner` (ZNC writes its config and user dirs there). */
function chownTree(dir: string, owner: { uid: number; gid: number }): void {
  chownSync(dir, owner.uid, owner.gid)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) chownTree(path, owner)
    else chownSync(path, owner.uid, owner.gid)
  }
}

/**
 * Writes a fresh data dir and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startZncServer(lifetimeMs: number): Promise<ZncServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-znc-'))
  // ZNC runs in the foreground and forks nothing (its DNS resolver is a thread); SIGTERM to the
  // group makes it exit at once.
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    mkdirSync(join(dir, 'configs'))
    writeFileSync(join(dir, 'configs', 'znc.conf'), zncConfig(port))
    const asRoot = process.getuid?.() === 0
    if (asRoot) chownTree(dir, NOBODY)
    const zncArgs = ['--foreground', '--no-color', '--datadir', dir]
    // setpriv execs ZNC in place (same pid), so ZNC stays the group leader the stopper kills.
    const [command, args] = asRoot
      ? [
          SETPRIV,
          [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', ZNC, ...zncArgs],
        ]
      : [ZNC, zncArgs]
    const server = spawnServer(command, args, {
      cwd: dir,
      // HOME is the data dir: nothing of the caller's home is read or written.
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    await waitForHttp(`${origin}/`, server.child, {
      name: 'znc',
      timeoutMs: 30_000,
      redirect: 'manual',
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
