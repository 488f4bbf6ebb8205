/**
 * Starts a private Radicale: Debian's `python3 -m radicale` with only its own config file in a
 * temp dir (`--config` replaces `/etc/radicale/config` and `~/.config/radicale/config`), its own
 * htpasswd file and storage folder there, its own process group, on a free 127.0.0.1 port; then
 * seeds the collections through Radicale's WebDAV API as a client would.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import {
  COLLECTIONS,
  OTHER_USER,
  USER,
  collectionPath,
  contactVcf,
  eventIcs,
  htpasswd,
  mkcolBody,
  radicaleConfig,
  type SeedCollection,
} from './seed'
import { basicAuthorization } from './session'

/** Debian's Python, which has the `radicale` module (a pyenv `python3` on PATH may not). */
const PYTHON = '/usr/bin/python3'

/** Where Debian's `python3-radicale` puts the module. */
const MODULE = '/usr/lib/python3/dist-packages/radicale/__init__.py'

/** A running Radicale. */
export interface RadicaleServer {
  origin: string
  /** The instance's temp dir (config, htpasswd file, `collections/`). */
  dir: string
  close(): Promise<void>
}

/** Why Radicale cannot run here (naming the apt package), or null. */
export function radicaleUnavailable(): string | null {
  return existsSync(PYTHON) && existsSync(MODULE)
    ? null
    : 'Radicale is not installed: apt-get install radicale'
}

/** Sends one seeding request as `owner` and throws unless Radicale answered `want`. */
async function seedRequest(
  origin: string,
  path: string,
  init: { method: string; body: string; contentType: string },
  want: number,
): Promise<void> {
  const owner = path.split('/')[1] === OTHER_USER.name ? OTHER_USER : USER
  const res = await fetch(`${origin}${path}`, {
    method: init.method,
    headers: { authorization: basicAuthorization(owner), 'content-type': init.contentType },
    body: init.body,
  })
  const text = await res.text()
  if (res.status !== want)
    throw new Error(`seeding: ${init.method} ${path} answered ${res.status} ${text.slice(0, 200)}`)
}

/** Creates one collection (extended MKCOL, as the web UI does) and PUTs its items one by one. */
async function seedCollection(origin: string, c: SeedCollection): Promise<void> {
  const path = collectionPath(c)
  const xml = 'application/xml; charset=utf-8'
  await seedRequest(origin, path, { method: 'MKCOL', body: mkcolBody(c), contentType: xml }, 201)
  for (const e of c.events ?? [])
    await seedRequest(
      origin,
      `${path}${e.uid}.ics`,
      { method: 'PUT', body: eventIcs(e), contentType: 'text/calendar; charset=utf-8' },
      201,
    )
  for (const p of c.contacts ?? [])
    await seedRequest(
      origin,
      `${path}${p.uid}.vcf`,
      { method: 'PUT', body: contactVcf(p), contentType: 'text/vcard; charset=utf-8' },
      201,
    )
}

/**
 * Writes the config and htpasswd file, starts Radicale, waits until its web UI answers, seeds
 * every collection; stops by itself after `lifetimeMs`. Rejects, after removing everything,
 * when a step fails.
 */
export async function startRadicale(lifetimeMs: number): Promise<RadicaleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-radicale-'))
  let forget = (): void => undefined
  const stopper = instanceStopper(() => {
    forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  })
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const config = join(dir, 'config')
    writeFileSync(config, radicaleConfig({ port, dir }))
    writeFileSync(join(dir, 'users'), htpasswd())
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(PYTHON, ['-m', 'radicale', '--config', config], {
      cwd: dir,
      // HOME: nothing may reach the real user's ~/.config/radicale or caches.
      env: { ...process.env, HOME: dir, PYTHONDONTWRITEBYTECODE: '1' },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    forget = killOnExit(server.child)
    try {
      await waitForHttp(`${origin}/.web/`, server.child, {
        name: 'radicale',
        timeoutMs: 30_000,
        intervalMs: 100,
        requestTimeoutMs: 2000,
        ready: (res) => res.status === 200,
      })
      for (const c of COLLECTIONS) await seedCollection(origin, c)
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${server.log()}`)
    }
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
