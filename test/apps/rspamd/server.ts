/**
 * Starts a private Rspamd: Debian's `/usr/bin/rspamd` in the foreground (`-f`) with only its own
 * `rspamd.conf` in a temp dir (nothing from /etc/rspamd, no Redis, no DNS), its own process group,
 * one controller worker on a free 127.0.0.1 port serving the web UI. Rspamd will not run its
 * workers as root, so as root it is started with `-u nobody -g nogroup` and the temp dir is given
 * to that user. Resolves once the controller answers and the seed messages are scanned and learned.
 */
import { execFileSync } from 'node:child_process'
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { LEARNED, MAPS, SCANNED, TLDS, USER, rspamdConfig } from './seed'

/** Where Debian's `rspamd` package puts the binary. */
const RSPAMD = '/usr/bin/rspamd'

/** A running Rspamd. */
export interface RspamdServer {
  origin: string
  /** The instance's temp dir (config, maps, db, log). */
  dir: string
  close(): Promise<void>
}

/** Why Rspamd cannot run here (naming the apt package), or null. */
export function rspamdUnavailable(): string | null {
  return existsSync(RSPAMD) && existsSync('/usr/share/rspamd/www/index.html')
    ? null
    : 'Rspamd is not installed: apt-get install rspamd'
}

/** uid and gid of `nobody`/`nogroup`, the throwaway user the workers run as under root. */
function nobody(): { uid: number; gid: number } {
  const id = (args: string[]) => Number(execFileSync('id', args, { encoding: 'utf8' }).trim())
  return { uid: id(['-u', 'nobody']), gid: id(['-g', 'nobody']) }
}

/** Gives `path` and everything under it to `owner`. */
function chownTree(path: string, owner: { uid: number; gid: number }): void {
  chownSync(path, owner.uid, owner.gid)
  if (statSync(path).isDirectory())
    for (const name of readdirSync(path)) chownTree(join(path, name), owner)
}

/** Writes the config, the maps and the TLD list into `dir`. */
function writeInstance(dir: string, port: number): string {
  for (const sub of ['db', 'log', 'run', 'maps']) mkdirSync(join(dir, sub))
  for (const m of MAPS) writeFileSync(join(dir, 'maps', m.file), `${m.lines.join('\n')}\n`)
  writeFileSync(join(dir, 'tld.dat'), `${TLDS.join('\n')}\n`)
  const config = join(dir, 'rspamd.conf')
  writeFileSync(config, rspamdConfig(dir, port))
  return config
}

/** Sends the seed messages through the controller: scans (History rows), then learns. */
async function seedThroughController(origin: string): Promise<void> {
  const headers = { Password: USER.password }
  for (const m of SCANNED) {
    const res = await fetch(`${origin}/checkv2`, {
      method: 'POST',
      headers: { ...headers, IP: m.ip },
      body: m.text,
    })
    if (!res.ok) throw new Error(`seeding scan ${m.id} answered ${res.status}`)
    await res.arrayBuffer()
  }
  for (const m of LEARNED) {
    const res = await fetch(`${origin}/learn${m.as}`, { method: 'POST', headers, body: m.text })
    if (!res.ok) throw new Error(`seeding learn${m.as} answered ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
}

/**
 * Writes the instance, starts Rspamd and seeds it; stops by itself after `lifetimeMs`. Rejects,
 * after removing everything, when a step fails.
 */
export async function startRspamd(lifetimeMs: number): Promise<RspamdServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-rspamd-'))
  // SIGKILL at once: the dir is removed next, nothing to save (history, stats).
  const stopper = instanceStopper(
    () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }),
    { first: 'SIGKILL', graceMs: 5000 },
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const config = writeInstance(dir, port)
    const args = ['-f', '-c', config]
    if (process.getuid?.() === 0) {
      chownTree(dir, nobody())
      args.push('-u', 'nobody', '-g', 'nogroup')
    }
    // cwd = the dir: the maps' URIs (file://./maps/…) are relative to it.
    const server = spawnServer(RSPAMD, args, { cwd: dir, output: { stdout: true, stderr: true } })
    stopper.server = server.child
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/stat`, server.child, {
      name: 'rspamd',
      timeoutMs: 60_000,
      intervalMs: 250,
      requestTimeoutMs: 2000,
      // The controller answers 403 (no password) once it is up.
      ready: (res) => res.status === 200 || res.status === 403 || res.status === 401,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.log()}`)
    })
    await seedThroughController(origin)
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
