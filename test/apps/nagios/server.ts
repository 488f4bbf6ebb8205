/**
 * Starts a private Nagios: Debian's `/usr/sbin/nagios4` with only its own `nagios.cfg` (objects,
 * status, retention and command files in a temp dir), and Debian's Apache (`/usr/sbin/apache2`,
 * its own `httpd.conf`, ServerRoot and PidFile in the same dir, prefork in the foreground) serving
 * Nagios' CGIs and PHP pages on a free 127.0.0.1 port behind HTTP Basic auth. Both run under one
 * `/bin/sh` that is the leader of their process group. Nothing of `/etc/nagios4`, `/etc/apache2`
 * or the system services is used, except Debian's read-only stylesheets.
 *
 * Nagios refuses nothing as root but drops to `nagios_user`; Apache as root would want a `User`.
 * So when this process is root, the whole group runs as `nobody` (the temp dir is handed to it
 * first): the CGIs then run as the same user as Nagios and can write its command file.
 */
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitUntil } from '../childProcess'
import {
  CGI,
  COMMENTS,
  HOSTS,
  type Layout,
  USER,
  cgiConfig,
  fixedCheckScript,
  htpasswd,
  httpdConfig,
  landingPage,
  nagiosConfig,
  objectsConfig,
  phpConfig,
  retentionFile,
} from './seed'
import { basicAuthorization } from './session'

/** Where Debian's packages put the binaries and files this needs. */
const NAGIOS = '/usr/sbin/nagios4'
const APACHE = '/usr/sbin/apache2'
const CGI_DIR = '/usr/lib/cgi-bin/nagios4'
const HTDOCS = '/usr/share/nagios4/htdocs'
const PHP_MODULE = '/usr/lib/apache2/modules/libphp8.2.so'
/** `nobody:nogroup` on Debian: the user a root caller runs the group as. */
const NOBODY = { uid: 65534, gid: 65534 }
/** util-linux's setpriv (Essential in Debian): drops to NOBODY, then execs the shell in place. */
const SETPRIV = '/usr/bin/setpriv'

/** A running Nagios with its Apache. */
export interface NagiosServer {
  origin: string
  /** The instance's temp dir (configs, htdocs copy, `var/` with status and command files). */
  dir: string
  close(): Promise<void>
}

/** Why Nagios cannot run here (naming the apt packages), or null. */
export function nagiosUnavailable(): string | null {
  for (const [path, pkg] of [
    [NAGIOS, 'nagios4-core'],
    [`${CGI_DIR}/cmd.cgi`, 'nagios4-cgi'],
    [APACHE, 'apache2'],
    [PHP_MODULE, 'libapache2-mod-php'],
  ] as const)
    if (!existsSync(path))
      return `${path} (${pkg}) is missing: apt-get install nagios4 apache2 libapache2-mod-php`
  if (process.getuid?.() === 0 && !existsSync(SETPRIV))
    return 'setpriv is missing (needed to run Nagios as nobody): apt-get install util-linux'
  return null
}

/** Gives `dir` and everything in it to `owner`. */
function chownTree(dir: string, owner: { uid: number; gid: number }): void {
  chownSync(dir, owner.uid, owner.gid)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) chownTree(path, owner)
    else chownSync(path, owner.uid, owner.gid)
  }
}

/** Writes every file of the instance into `dir` (see seed.ts). */
function writeInstance(l: Layout): void {
  for (const sub of ['var', 'var/rw', 'var/checkresults', 'www']) mkdirSync(join(l.dir, sub))
  // A copy of Debian's HTML pages, so their config.inc.php can name this instance's files.
  cpSync(HTDOCS, join(l.dir, 'htdocs'), { recursive: true, dereference: true })
  writeFileSync(join(l.dir, 'htdocs/config.inc.php'), phpConfig(l))
  writeFileSync(join(l.dir, 'fixed.sh'), fixedCheckScript())
  chmodSync(join(l.dir, 'fixed.sh'), 0o755)
  writeFileSync(join(l.dir, 'objects.cfg'), objectsConfig(l))
  writeFileSync(join(l.dir, 'nagios.cfg'), nagiosConfig(l))
  writeFileSync(join(l.dir, 'cgi.cfg'), cgiConfig(l))
  writeFileSync(join(l.dir, 'htpasswd'), htpasswd())
  writeFileSync(join(l.dir, 'httpd.conf'), httpdConfig(l))
  writeFileSync(join(l.dir, 'www/index.html'), landingPage())
  writeFileSync(join(l.dir, 'var/retention.dat'), retentionFile(Math.floor(Date.now() / 1000)))
}

/**
 * True once the CGIs answer signed in and show the seeded state: every service of the status
 * file with its retained state (the status file is written a second after Nagios started) and
 * the four seeded comments.
 */
async function seeded(origin: string): Promise<string | null> {
  const headers = { authorization: basicAuthorization(USER) }
  const get = async (query: string) => {
    const res = await fetch(`${origin}${CGI}/statusjson.cgi?${query}`, { headers })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`statusjson ${query} answered ${res.status}`)
    return JSON.parse(text) as { result: { type_text: string }; data: Record<string, unknown> }
  }
  const services = await get('query=servicecount')
  const count = services.data.count as Record<string, number> | undefined
  const want = HOSTS.reduce((n, h) => n + h.services.length, 0)
  const total = count ? Object.values(count).reduce((a, b) => a + b, 0) : 0
  if (!count || total !== want || count.pending) return `service counts ${JSON.stringify(count)}`
  const notes = await get('query=commentcount')
  if (notes.data.count !== COMMENTS.length) return `comment count ${String(notes.data.count)}`
  return null
}

/**
 * Writes the instance, starts Nagios and Apache and waits until the seeded state shows; stops by
 * itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startNagios(lifetimeMs: number): Promise<NagiosServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-nagios-'))
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const port = await freePort()
    const layout = { dir, port }
    writeInstance(layout)
    const asRoot = process.getuid?.() === 0
    if (asRoot) chownTree(dir, NOBODY)
    // Nagios in the background of the shell, Apache exec'd in its place (it keeps the pid, so
    // the shell's process group is Apache's and Nagios'; Nagios' check workers leave with it).
    const script = `${NAGIOS} ${join(dir, 'nagios.cfg')} & exec ${APACHE} -f ${join(dir, 'httpd.conf')} -DFOREGROUND`
    const [command, args] = asRoot
      ? [
          SETPRIV,
          [
            `--reuid=${NOBODY.uid}`,
            `--regid=${NOBODY.gid}`,
            '--clear-groups',
            '/bin/sh',
            '-c',
            script,
          ],
        ]
      : ['/bin/sh', ['-c', script]]
    const server = spawnServer(command, args, {
      cwd: dir,
      // Nothing of the caller's environment: the CGIs see only what Apache passes them.
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: dir, LANG: 'C', TZ: 'UTC' },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    const origin = `http://127.0.0.1:${port}`
    let last = 'no answer'
    await waitUntil(
      'nagios',
      server.child,
      async () => {
        try {
          last = (await seeded(origin)) ?? 'ready'
          return last === 'ready'
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 60_000, intervalMs: 300, detail: () => `${last}; ${server.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
