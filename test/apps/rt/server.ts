/**
 * Starts a private Request Tracker 5 (Debian's `request-tracker5` with `rt5-db-sqlite` and
 * `rt5-standalone`): a site config written into a temp dir (RT reads the file `RT_SITE_CONFIG`
 * names instead of `/etc/request-tracker5/RT_SiteConfig.pm`, and the `RT_SiteConfig.d` folder
 * `RT_SITE_CONFIG_DIR` names, here an empty one, instead of Debian's), a fresh SQLite database made
 * by RT's own `rt-setup-database --action init`, the seed (`./seed.ts`) through RT's Perl
 * library, then RT's Plack server `rt-server` (Starlet, a few preforked workers) on 127.0.0.1.
 * Mason's compiled components, the web sessions (files, as RT keeps them on SQLite) and the
 * outgoing mail (RT's `testfile` mailer writes to a File::Temp in `TMPDIR`) stay in the temp dir;
 * nothing in /etc or /var is read for config or written.
 */
import { execFile } from 'node:child_process'
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
import { seedScript } from './seed'

/** Debian's RT: the library, the server script and the database tool. */
const RT_LIB = '/usr/share/request-tracker5/lib'
const RT_SERVER = '/usr/share/request-tracker5/libexec/rt-server'
const SETUP_DATABASE = '/usr/sbin/rt-setup-database-5'
const SQLITE_DRIVER = '/usr/lib/x86_64-linux-gnu/perl5/5.36/DBD/SQLite.pm'
const STARLET = '/usr/share/perl5/Starlet.pm'

/** The organisation name RT puts in its session cookie's name and in ticket mail. */
const RT_NAME = 'sitecall.test'

/** A running RT with its database. */
export interface RtServer {
  origin: string
  dir: string
  /** The SQLite database file, for the answer keys' reads. */
  database: string
  close(): Promise<void>
}

/** Why RT cannot run here (naming the apt packages), or null. */
export function rtUnavailable(): string | null {
  const install =
    'DEBIAN_FRONTEND=noninteractive apt-get install --no-install-recommends request-tracker5 ' +
    'rt5-db-sqlite rt5-standalone'
  if (!existsSync(join(RT_LIB, 'RT.pm')) || !existsSync(RT_SERVER) || !existsSync(SETUP_DATABASE))
    return `Request Tracker 5 is not installed: ${install}`
  if (!existsSync(SQLITE_DRIVER)) return `RT's SQLite driver is not installed: ${install}`
  if (!existsSync(STARLET)) return `RT's standalone server (Starlet) is not installed: ${install}`
  return null
}

/** The instance's site config (Perl, read by RT before its defaults in RT_Config.pm). */
function siteConfig(dir: string, port: number): string {
  // $MasonDataDir and $MasonSessionDir are package variables of RT (RT::Generated sets them to
  // Debian's /var/cache paths), not options: the site config is Perl run in package RT, so it
  // can point them at the temp dir.
  return `Set($rtname, '${RT_NAME}');
Set($Organization, '${RT_NAME}');
Set($CorrespondAddress, 'support@${RT_NAME}');
Set($CommentAddress, 'support-comment@${RT_NAME}');
Set($WebDomain, '127.0.0.1');
Set($WebPort, ${port});
Set($WebPath, '');
Set($Timezone, 'UTC');
Set($DatabaseType, 'SQLite');
Set($DatabaseName, '${join(dir, 'rt.db')}');
Set($LogToSyslog, undef);
Set($LogToFile, undef);
Set($LogToSTDERR, 'error');
Set($MailCommand, 'testfile');
$RT::MasonDataDir = '${join(dir, 'mason')}';
$RT::MasonSessionDir = '${join(dir, 'sessions')}';
1;
`
}

/**
 * Builds and serves a fresh instance; stops by itself after `lifetimeMs`. Rejects, after
 * stopping and removing everything, when a step fails.
 */
export async function startRtServer(lifetimeMs: number): Promise<RtServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-rt-'))
  const forgets: Array<() => void> = []
  const stopper = instanceStopper(() => {
    for (const forget of forgets) forget()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    for (const sub of ['mason', 'sessions', 'config.d', 'tmp']) mkdirSync(join(dir, sub))
    const port = await freePort()
    const config = join(dir, 'RT_SiteConfig.pm')
    writeFileSync(config, siteConfig(dir, port))
    const env = {
      ...process.env,
      RT_SITE_CONFIG: config,
      RT_SITE_CONFIG_DIR: join(dir, 'config.d'),
      TMPDIR: join(dir, 'tmp'),
    }
    const run = (command: string, args: string[]) =>
      new Promise<void>((resolve, reject) => {
        execFile(command, args, { env, timeout: 120_000, maxBuffer: 8 << 20 }, (error, out, err) =>
          error
            ? reject(new Error(`${command} failed: ${String(error)}\n${out}${err}`))
            : resolve(),
        )
      })
    await run(SETUP_DATABASE, ['--action', 'init', '--skip-create'])
    const seed = join(dir, 'seed.pl')
    writeFileSync(seed, seedScript())
    await run('perl', [seed])

    const origin = `http://127.0.0.1:${port}`
    const server = spawnServer(
      RT_SERVER,
      ['--host', '127.0.0.1', '--port', String(port), '--max-workers', '4'],
      { cwd: dir, env, output: { stderr: true } },
    )
    stopper.server = server.child
    forgets.push(killOnExit(server.child))
    await waitForHttp(`${origin}/NoAuth/Login.html`, server.child, {
      name: 'rt-server',
      timeoutMs: 60_000,
      requestTimeoutMs: 30_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, database: join(dir, 'rt.db'), close: stopper.stop }
  })
}
