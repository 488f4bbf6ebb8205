/**
 * Starts a private Tryton 6.0: Debian's `trytond` (tryton-server) with the `party` module (and
 * `country`, which party depends on) over SQLite in a temp dir, serving Debian's sao web client
 * (tryton-sao) as its `[web] root`, on a free 127.0.0.1 port. The database is made by
 * `trytond-admin --all -u party --activate-dependencies` (the admin's password from
 * `TRYTONPASSFILE`), about 4 s, then seeded through the server's own JSON-RPC.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { ADMIN, DATABASE, seedTryton } from './seed'

const TRYTOND = '/usr/bin/trytond'
const TRYTOND_ADMIN = '/usr/bin/trytond-admin'
const PARTY_MODULE = '/usr/lib/python3/dist-packages/trytond/modules/party/__init__.py'
const SAO_ROOT = '/usr/share/tryton-sao/www'

/** A running trytond serving sao. */
export interface TrytonServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why Tryton cannot run here (naming the apt packages), or null. */
export function trytonUnavailable(): string | null {
  const install =
    'apt-get install --no-install-recommends tryton-server tryton-modules-party tryton-sao'
  if (!existsSync(TRYTOND) || !existsSync(TRYTOND_ADMIN))
    return `trytond is not installed: ${install}`
  if (!existsSync(PARTY_MODULE)) return `the party module is not installed: ${install}`
  if (!existsSync(join(SAO_ROOT, 'index.html'))) return `sao is not installed: ${install}`
  return null
}

/** trytond's configuration: SQLite files in `dir`, sao as the web root, no bus, no cron. */
function config(dir: string, port: number): string {
  return `[web]
listen = 127.0.0.1:${port}
root = ${SAO_ROOT}

[database]
uri = sqlite://
path = ${dir}

[session]
timeout = 36000
`
}

/**
 * Builds, seeds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startTrytonServer(lifetimeMs: number): Promise<TrytonServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-tryton-'))
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(() => {
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const conf = join(dir, 'trytond.conf')
    writeFileSync(conf, config(dir, port))
    const passFile = join(dir, 'admin.pass')
    writeFileSync(passFile, `${ADMIN.password}\n`)
    // trytond's SQLite backend opens `<path>/<db>.sqlite`; the admin run fills an empty file.
    writeFileSync(join(dir, `${DATABASE}.sqlite`), '')
    const env = { ...process.env, TRYTONPASSFILE: passFile, PYTHONDONTWRITEBYTECODE: '1' }
    await promisify(execFile)(
      TRYTOND_ADMIN,
      ['-c', conf, '-d', DATABASE, '--all', '-u', 'party', '--activate-dependencies'].concat([
        '--email',
        ADMIN.email,
      ]),
      { cwd: dir, env, timeout: 120_000 },
    )
    const server = spawnServer(TRYTOND, ['-c', conf], {
      cwd: dir,
      env,
      output: { stderr: true },
    })
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/`, server.child, {
      name: 'trytond',
      timeoutMs: 60_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    await seedTryton(origin)
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
