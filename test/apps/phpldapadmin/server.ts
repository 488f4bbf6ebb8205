/**
 * Starts a private phpLDAPadmin: its own OpenLDAP slapd (a slapd.conf and an mdb database made by
 * slapadd from the seed, in a temp dir, on a free 127.0.0.1 port) and PHP's built-in server over a
 * copy of Debian's tree whose `config/config.php` is the instance's own (the package's is a link
 * to /etc/phpldapadmin/config.php, which is neither read nor written). Debian keeps the templates
 * in /etc/phpldapadmin/templates: they are copied, never changed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  orStop,
  runCommand,
  type ServerProcess,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import { ADMIN, SUFFIX, configPhp, seedLdif, slapdConf } from './seed'

/** Where Debian's `phpldapadmin` package puts the code. */
const PLA_TREE = '/usr/share/phpldapadmin'
/** Where Debian's package keeps the templates (the tree's `templates` links there). */
const PLA_TEMPLATES = '/etc/phpldapadmin/templates'
const PHP = '/usr/bin/php'
const SLAPD = '/usr/sbin/slapd'
const SLAPADD = '/usr/sbin/slapadd'
const LDAPSEARCH = '/usr/bin/ldapsearch'

/**
 * The LDAP URL of every running instance's slapd, by origin: answer keys read the directory
 * itself (with ldapsearch, as the admin) to check what a tool changed.
 */
export const LDAP_URLS = new Map<string, string>()

/** A running phpLDAPadmin with its directory server. */
export interface PlaServer {
  origin: string
  /** The instance's temp dir (tree copy in `www/`, the directory in `db/`). */
  dir: string
  close(): Promise<void>
}

/** Why phpLDAPadmin cannot run here (naming the apt packages), or null. */
export function plaUnavailable(): string | null {
  if (!existsSync(join(PLA_TREE, 'htdocs', 'cmd.php')) || !existsSync(PLA_TEMPLATES))
    return 'phpLDAPadmin is not installed: apt-get install --no-install-recommends phpldapadmin'
  for (const bin of [SLAPD, SLAPADD])
    if (!existsSync(bin)) return `${bin} is missing: apt-get install --no-install-recommends slapd`
  if (!existsSync(LDAPSEARCH)) return 'ldapsearch is missing: apt-get install ldap-utils'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli php-ldap'
  return null
}

/**
 * Copies Debian's tree into `www`, replacing the links that point into /etc (config.php and the
 * templates) with the instance's config and a copy of the templates. A copy, not links: the
 * code finds its config as `realpath(LIBDIR.'../config')`, so links would lead back to /usr.
 */
function copyTree(www: string, ldapPort: number): void {
  cpSync(PLA_TREE, www, {
    recursive: true,
    filter: (src) =>
      src !== join(PLA_TREE, 'doc') &&
      src !== join(PLA_TREE, 'templates') &&
      src !== join(PLA_TREE, 'config', 'config.php'),
  })
  cpSync(PLA_TEMPLATES, join(www, 'templates'), { recursive: true })
  writeFileSync(join(www, 'config', 'config.php'), configPhp(ldapPort))
}

/**
 * Builds a fresh directory and phpLDAPadmin and serves them; stops by itself after `lifetimeMs`.
 * Rejects, after removing everything, when a step fails.
 */
export async function startPlaServer(lifetimeMs: number): Promise<PlaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-phpldapadmin-'))
  let slapd: ServerProcess | null = null
  let forget: (() => void) | null = null
  // The stopper's server is php -S; slapd stops in the cleanup, after it.
  const stopper = instanceStopper(async () => {
    await killGroup(slapd?.child, { graceMs: 5000 })
    forget?.()
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  })
  return orStop(stopper.stop, async () => {
    mkdirSync(join(dir, 'db'))
    const conf = join(dir, 'slapd.conf')
    writeFileSync(conf, slapdConf(dir))
    writeFileSync(join(dir, 'seed.ldif'), seedLdif())
    await runCommand(SLAPADD, ['-q', '-f', conf, '-l', join(dir, 'seed.ldif')])
    const ldapPort = await freePort()
    const ldapUrl = `ldap://127.0.0.1:${ldapPort}/`
    // -d 0: stay in the foreground (in this process group) without debug output.
    slapd = spawnServer(SLAPD, ['-h', ldapUrl, '-f', conf, '-d', '0'], {
      cwd: dir,
      output: { stderr: true },
    })
    forget = killOnExit(slapd.child)
    const ldap = slapd
    await waitUntil(
      'slapd',
      ldap.child,
      () =>
        runCommand(
          LDAPSEARCH,
          ['-x', '-H', ldapUrl, '-D', ADMIN.dn, '-w', ADMIN.password, '-b', SUFFIX, '-s', 'base'],
          { timeout: 5000 },
        ).then(
          () => true,
          () => false,
        ),
      { timeoutMs: 30_000, intervalMs: 200, detail: () => ldap.log() },
    )

    const www = join(dir, 'www')
    copyTree(www, ldapPort)
    mkdirSync(join(dir, 'sessions'))
    mkdirSync(join(dir, 'tmp'))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = spawnServer(
      PHP,
      [
        '-d',
        `session.save_path=${join(dir, 'sessions')}`,
        '-d',
        `upload_tmp_dir=${join(dir, 'tmp')}`,
        '-d',
        'display_errors=0',
        // PHP 8.2 deprecations (`${var}` in strings) would otherwise fill the log.
        '-d',
        'error_reporting=E_ALL & ~E_DEPRECATED',
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        join(www, 'htdocs'),
      ],
      { cwd: join(www, 'htdocs') },
    ).child
    stopper.server = child
    await waitForHttp(`${origin}/index.php`, child, {
      name: 'php -S (phpLDAPadmin)',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    LDAP_URLS.set(origin, ldapUrl)
    const close = () => {
      LDAP_URLS.delete(origin)
      return stopper.stop()
    }
    return { origin, dir, close }
  })
}
