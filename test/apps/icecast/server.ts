/**
 * Starts a private Icecast: Debian's `/usr/bin/icecast2` with only its own `icecast.xml` in a temp
 * dir (nothing from `/etc/icecast2`, no service), on a free 127.0.0.1 port, with its seeded
 * sources and listeners. The process-group leader is the feeder (`feeder.ts`, a Node process that
 * starts Icecast as its child and keeps the streams going), so closing ends both with one signal.
 * Resolves once the feeder says every stream is in and the status page lists every mount.
 */
import { createHash } from 'node:crypto'
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { freePort, instanceStopper, orStop, spawnServer, waitUntil } from '../childProcess'
import {
  AUTH_MOUNTS,
  MOUNTS,
  htpasswd,
  htpasswdName,
  icecastConfig,
  type IcecastPaths,
} from './seed'

/** Where Debian's `icecast2` package puts the binary and the stylesheets. */
const ICECAST = '/usr/bin/icecast2'
const STYLESHEETS = '/usr/share/icecast2/admin/listclients.xsl'

/** The feeder script, run by Node with tsx's loader (it is TypeScript, like the rest). */
const FEEDER = fileURLToPath(new URL('./feeder.ts', import.meta.url))

/** tsx's ESM loader, by file URL (`--import` resolves a bare name from the cwd, a temp dir). */
function tsxLoader(): string {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json')
  return pathToFileURL(join(dirname(pkg), 'dist', 'loader.mjs')).href
}

/** A running Icecast. */
export interface IcecastServer {
  origin: string
  /** The instance's temp dir (config, htpasswd, logs). */
  dir: string
  close(): Promise<void>
}

/** Why Icecast cannot run here (naming the apt package), or null. */
export function icecastUnavailable(): string | null {
  return existsSync(ICECAST) && existsSync(STYLESHEETS)
    ? null
    : 'Icecast is not installed: apt-get install icecast2'
}

const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex')

/** The temp dir of each running instance, by origin (the keys read its htpasswd files). */
const instanceDirs = new Map<string, string>()

/**
 * The htpasswd file of an authenticated `mount` of the instance at `origin`: the accounts as
 * Icecast keeps them (its Manage Authentication page lists a cached copy, see NOTES.md).
 */
export function htpasswdFile(origin: string, mount: string): string {
  const dir = instanceDirs.get(origin)
  if (!dir) throw new Error(`no running Icecast at ${origin}`)
  return join(dir, htpasswdName(mount))
}

/** The temp dir's files: config, htpasswd files, log dir; Icecast's own when it runs as nobody. */
function writeInstanceFiles(paths: IcecastPaths): string {
  mkdirSync(paths.logDir)
  const files = Object.keys(AUTH_MOUNTS).map((mount) => {
    const file = join(paths.dir, htpasswdName(mount))
    writeFileSync(file, htpasswd(mount, md5Hex))
    return file
  })
  const config = join(paths.dir, 'icecast.xml')
  writeFileSync(config, icecastConfig(paths))
  // As root the feeder starts Icecast as nobody (uid/gid 65534), which must read the config and
  // write its logs, pid file and the htpasswd files (Manage Authentication rewrites them through
  // a temp file in the same dir).
  if (process.getuid?.() === 0)
    for (const path of [paths.dir, paths.logDir, config, ...files]) chownSync(path, 65534, 65534)
  return config
}

/** True when `/status-json.xsl` lists every seeded mount. */
async function everyMountListed(origin: string): Promise<boolean> {
  const res = await fetch(`${origin}/status-json.xsl`)
  const text = await res.text()
  return res.ok && MOUNTS.every((m) => text.includes(`"listenurl":"${origin}${m.mount}"`))
}

/**
 * Writes the files, starts the feeder (which starts Icecast and connects the streams) and waits
 * until every stream is in; stops by itself after `lifetimeMs`. Rejects, after removing
 * everything, when a step fails.
 */
export async function startIcecast(lifetimeMs: number): Promise<IcecastServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-icecast-'))
  let origin = ''
  const stopper = instanceStopper(() => {
    instanceDirs.delete(origin)
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  })
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const paths: IcecastPaths = { port, dir, logDir: join(dir, 'log') }
    const config = writeInstanceFiles(paths)
    origin = `http://127.0.0.1:${port}`
    instanceDirs.set(origin, dir)
    const feeder = spawnServer(
      process.execPath,
      ['--import', tsxLoader(), FEEDER, config, String(port)],
      { cwd: dir, output: { stdout: true, stderr: true } },
    )
    stopper.server = feeder.child
    // No request of ours before READY: it would take a connection id from a listener.
    await waitUntil('icecast feeder', feeder.child, async () => feeder.log().includes('READY'), {
      timeoutMs: 60_000,
      intervalMs: 100,
      detail: () => feeder.log(),
    })
    let last = 'no answer'
    await waitUntil(
      'icecast',
      feeder.child,
      async () => {
        try {
          return await everyMountListed(origin)
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 10_000, intervalMs: 100, detail: () => `${last}; ${feeder.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
