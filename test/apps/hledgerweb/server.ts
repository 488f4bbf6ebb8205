/**
 * Starts a private hledger-web: Debian's `/usr/bin/hledger-web` serving the seeded journal on a
 * free 127.0.0.1 port with the view, add and manage capabilities, from a temp dir. hledger-web
 * names the journal by its absolute path in every /edit, /upload and /download URL, so the
 * journal must sit at the same path on every start (as a person's journal does) for recorded
 * URLs to stay valid: the server runs in its own mount namespace (`unshare --mount`, root) where
 * a tmpfs covers /home and the temp dir is bind-mounted at `JOURNAL_DIR`. Nothing outside the
 * namespace sees either mount; the session key hledger-web keeps in `$XDG_CACHE_HOME` goes to the
 * temp dir too.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
import { JOURNAL_DIR, SEED_JOURNAL } from './seed'

/** Debian's `hledger-web` and util-linux's `unshare` (Essential in Debian). */
const HLEDGER_WEB = '/usr/bin/hledger-web'
const UNSHARE = '/usr/bin/unshare'

/** A running hledger-web; `dir/books/main.journal` is the journal it serves. */
export interface HledgerWebServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why hledger-web cannot run here (naming the apt package), or null. */
export function hledgerWebUnavailable(): string | null {
  if (!existsSync(HLEDGER_WEB)) return 'hledger-web is not installed: apt-get install hledger-web'
  if (!existsSync(UNSHARE)) return 'unshare is missing: apt-get install util-linux'
  // The private mount that keeps the journal's path fixed needs CAP_SYS_ADMIN.
  if (process.getuid?.() !== 0) return 'hledger-web runs in a private mount namespace: run as root'
  return null
}

/**
 * The shell run inside the new mount namespace: a tmpfs over /home (so nothing of the host's
 * /home shows and the journal's dir can be made), the temp dir's `books` bound at the journal's
 * dir, then hledger-web itself in place of the shell. `$0` is the books dir, `$@` the arguments.
 */
const IN_NAMESPACE =
  'mount -t tmpfs -o size=4m,mode=755 tmpfs /home && ' +
  `mkdir -p ${JOURNAL_DIR} && mount --bind "$0" ${JOURNAL_DIR} && ` +
  `exec ${HLEDGER_WEB} "$@"`

/**
 * Writes the seeded journal and starts hledger-web; resolves once it answers `/version`, and
 * stops by itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startHledgerWeb(lifetimeMs: number): Promise<HledgerWebServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-hledgerweb-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const books = join(dir, 'books')
    mkdirSync(books)
    writeFileSync(join(books, 'main.journal'), SEED_JOURNAL)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      UNSHARE,
      [
        ...['--mount', '--propagation', 'private', 'sh', '-c', IN_NAMESPACE, books],
        ...['--serve', '--host', '127.0.0.1', '--port', String(port)],
        ...['--file', `${JOURNAL_DIR}/main.journal`, '--capabilities', 'view,add,manage'],
      ],
      {
        cwd: dir,
        env: { ...process.env, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), LANG: 'C.UTF-8' },
        output: { stdout: true, stderr: true },
      },
    )
    stopper.server = server.child
    const forget = killOnExit(server.child)
    server.child.once('exit', forget)
    stopper.expireAfter(lifetimeMs)
    await waitForHttp(`${origin}/version`, server.child, {
      name: 'hledger-web',
      timeoutMs: 30_000,
      ready: (res) => res.status === 200,
    })
    return { origin, dir, close: stopper.stop }
  })
}
