/**
 * Starts a private calibre content server: Debian's `calibre-server` over a library made in a
 * temp dir (seeded through calibre's own library API, `seed.ts`), with a user database of its own
 * holding one user with write access, HTTP Digest auth on, `--enable-local-write`, listening on a
 * free 127.0.0.1 port. HOME, calibre's config dir, the Qt runtime dir and TMPDIR all point into
 * the temp dir, so nothing of the machine's calibre setup is read or written.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
} from '../childProcess'
import { signInDigest } from './session'
import { BOOKS, LIBRARY_ID, SEED_SCRIPT, USER, seedSpec } from './seed'

const run = promisify(execFile)

/** Where Debian's `calibre` package puts the commands. */
const CALIBRE_SERVER = '/usr/bin/calibre-server'
const CALIBRE_DEBUG = '/usr/bin/calibre-debug'

/** A running calibre content server. */
export interface CalibreServer {
  origin: string
  /** The temp dir: library, user database, config, home, logs. */
  dir: string
  close(): Promise<void>
}

/** Why calibre cannot run here (naming the apt package), or null. */
export function calibreUnavailable(): string | null {
  return existsSync(CALIBRE_SERVER) && existsSync(CALIBRE_DEBUG)
    ? null
    : 'calibre is not installed: apt-get install --no-install-recommends calibre'
}

/**
 * The environment every calibre command of the instance runs in. calibre takes a per-user lock
 * (an abstract socket named by the uid) so only one calibre program writes libraries at a time;
 * each instance has its own library, so `CALIBRE_NO_SI_DANGER_DANGER` lets two instances (or a
 * person's own calibre) run side by side. Qt needs no display with the offscreen platform.
 */
function calibreEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    CALIBRE_CONFIG_DIRECTORY: join(dir, 'config'),
    XDG_RUNTIME_DIR: join(dir, 'runtime'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    QT_QPA_PLATFORM: 'offscreen',
    CALIBRE_NO_SI_DANGER_DANGER: '1',
  }
}

/**
 * Makes the library (sixteen books, ids 1..16 in `BOOKS` order) and the user database, starts
 * calibre-server and waits until the user can read the library; stops by itself after
 * `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startCalibre(lifetimeMs: number): Promise<CalibreServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-calibre-'))
  const removeAll = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  process.once('exit', removeAll)
  let unkill = (): void => undefined
  const stopper = instanceStopper(() => {
    unkill()
    process.removeListener('exit', removeAll)
    removeAll()
  })
  return orStop(stopper.stop, async () => {
    for (const sub of ['home', 'tmp', 'config', 'cache', LIBRARY_ID]) mkdirSync(join(dir, sub))
    // Qt refuses a runtime dir others may read.
    mkdirSync(join(dir, 'runtime'), { mode: 0o700 })
    const env = calibreEnv(dir)
    const library = join(dir, LIBRARY_ID)
    writeFileSync(join(dir, 'seed.py'), SEED_SCRIPT)
    writeFileSync(join(dir, 'seed.json'), seedSpec(library))
    const seeded = await run(
      CALIBRE_DEBUG,
      ['-e', join(dir, 'seed.py'), '--', join(dir, 'seed.json')],
      {
        env,
        cwd: dir,
        timeout: 120_000,
      },
    )
    const added = seeded.stdout.split('\n').filter((line) => /^\d+ /.test(line)).length
    if (added !== BOOKS.length)
      throw new Error(
        `the seed added ${added} of ${BOOKS.length} books: ${seeded.stdout}${seeded.stderr}`,
      )
    const userdb = join(dir, 'users.sqlite')
    await run(
      CALIBRE_SERVER,
      ['--userdb', userdb, '--manage-users', '--', 'add', USER.name, USER.password],
      { env, cwd: dir, timeout: 60_000 },
    )
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      CALIBRE_SERVER,
      [
        '--listen-on',
        '127.0.0.1',
        '--port',
        String(port),
        '--enable-local-write',
        '--enable-auth',
        '--auth-mode',
        'digest',
        '--userdb',
        userdb,
        '--disable-use-bonjour',
        '--log',
        join(dir, 'server.log'),
        '--access-log',
        join(dir, 'access.log'),
        library,
      ],
      { cwd: dir, env, output: { stdout: true, stderr: true } },
    )
    stopper.server = server.child
    unkill = killOnExit(server.child)
    let last = 'no answer'
    await waitUntil(
      'calibre-server',
      server.child,
      async () => {
        try {
          await signInDigest(origin, USER)
          return true
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 60_000, intervalMs: 250, detail: () => `${last}; ${server.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
