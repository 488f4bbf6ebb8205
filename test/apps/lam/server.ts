/**
 * Starts a private LDAP Account Manager: its own OpenLDAP slapd (a slapd.conf and an mdb database
 * made by slapadd from the seed, in a temp dir, on a free 127.0.0.1 port) and PHP's built-in
 * server over a tree in the same temp dir. LAM finds its configuration, sessions and temp files
 * as `dirname(__FILE__).'/../config'` (`../sess`, `../tmp`) from its `lib` and `templates`, and
 * Debian links those to /var/lib/ldap-account-manager and /etc/ldap-account-manager: so `lib` and
 * `templates` are copied (PHP resolves a linked script's `__FILE__` to its real path, which would
 * lead back to /usr/share), the static parts (graphics, style, locale, help) are links, and
 * `config/`, `sess/` and `tmp/` are the instance's own. Nothing under /etc or /var/lib is written.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
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
import { ADMIN, SUFFIX, mainConfig, seedLdif, serverProfile, slapdConf } from './seed'

/** Where Debian's `ldap-account-manager` package puts the code. */
const LAM_TREE = '/usr/share/ldap-account-manager'
/** Debian's config dir (the tree's `config` link), read for its stock templates only. */
const LAM_CONFIG = '/var/lib/ldap-account-manager/config'
const PHP = '/usr/bin/php'
const SLAPD = '/usr/sbin/slapd'
const SLAPADD = '/usr/sbin/slapadd'
const LDAPSEARCH = '/usr/bin/ldapsearch'

/**
 * The LDAP URL of every running instance's slapd, by origin: answer keys read the directory
 * itself (with ldapsearch, as the admin) to check what a tool changed.
 */
export const LDAP_URLS = new Map<string, string>()

/**
 * LAM's config dir (`www/config`) of every running instance, by origin: the key of the profile
 * workflow reads the account profile LAM wrote there (`profiles/lam/<name>.user`, JSON).
 */
export const CONFIG_DIRS = new Map<string, string>()

/** A running LAM with its directory server. */
export interface LamServer {
  origin: string
  /** The instance's temp dir (LAM's tree in `www/`, the directory in `db/`). */
  dir: string
  close(): Promise<void>
}

/** Why LAM cannot run here (naming the apt packages), or null. */
export function lamUnavailable(): string | null {
  const install =
    'apt-get install --no-install-recommends ldap-account-manager slapd ldap-utils php-cli php-ldap'
  if (!existsSync(join(LAM_TREE, 'templates', 'login.php')) || !existsSync(LAM_CONFIG))
    return `LDAP Account Manager is not installed: ${install}`
  for (const bin of [SLAPD, SLAPADD, LDAPSEARCH, PHP])
    if (!existsSync(bin)) return `${bin} is missing: ${install}`
  return null
}

/**
 * Builds LAM's tree in `www` (see the file comment): copies of `lib` and `templates`, links to
 * the static parts, and the instance's own config (main config, server profile, the stock
 * language list and profile/PDF templates), session and temp dirs.
 */
function buildTree(www: string, ldapPort: number): void {
  mkdirSync(www)
  for (const part of ['lib', 'templates'])
    cpSync(join(LAM_TREE, part), join(www, part), { recursive: true })
  for (const part of [
    'graphics',
    'help',
    'locale',
    'style',
    'VERSION',
    'index.html',
    'pwa_worker.js',
  ])
    symlinkSync(join(LAM_TREE, part), join(www, part))
  const config = join(www, 'config')
  mkdirSync(config)
  for (const part of ['language', 'templates'])
    cpSync(join(LAM_CONFIG, part), join(config, part), { recursive: true })
  for (const part of ['profiles', 'pdf', 'selfService']) mkdirSync(join(config, part))
  writeFileSync(join(config, 'config.cfg'), mainConfig())
  writeFileSync(join(config, 'lam.conf'), serverProfile(ldapPort))
  mkdirSync(join(www, 'sess'))
  mkdirSync(join(www, 'tmp', 'internal'), { recursive: true })
}

/**
 * Builds a fresh directory and LAM and serves them; stops by itself after `lifetimeMs`. Rejects,
 * after removing everything, when a step fails.
 */
export async function startLamServer(lifetimeMs: number): Promise<LamServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-lam-'))
  let slapd: ServerProcess | null = null
  const forgets: Array<() => void> = []
  // The stopper's server is php -S; slapd stops in the cleanup, after it.
  const stopper = instanceStopper(async () => {
    await killGroup(slapd?.child, { graceMs: 5000 })
    for (const forget of forgets) forget()
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
    forgets.push(killOnExit(slapd.child))
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
    buildTree(www, ldapPort)
    mkdirSync(join(dir, 'uploads'))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const php = spawnServer(
      PHP,
      [
        ...['-d', `session.save_path=${join(www, 'sess')}`],
        ...['-d', `upload_tmp_dir=${join(dir, 'uploads')}`],
        ...['-d', 'display_errors=0', '-d', 'date.timezone=UTC'],
        // PHP 8.2 deprecations would otherwise fill the log.
        ...['-d', 'error_reporting=E_ALL & ~E_DEPRECATED'],
        ...['-d', 'memory_limit=256M'],
        ...['-S', `127.0.0.1:${port}`, '-t', www],
      ],
      {
        cwd: www,
        // A list page loads its scripts and images side by side with its XHRs.
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
        output: { stderr: true },
      },
    )
    stopper.server = php.child
    forgets.push(killOnExit(php.child))
    await waitForHttp(`${origin}/templates/login.php`, php.child, {
      name: 'php -S (LAM)',
      timeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      ready: (res) => res.status === 200,
    })
    stopper.expireAfter(lifetimeMs)
    LDAP_URLS.set(origin, ldapUrl)
    CONFIG_DIRS.set(origin, join(www, 'config'))
    const close = () => {
      LDAP_URLS.delete(origin)
      CONFIG_DIRS.delete(origin)
      return stopper.stop()
    }
    return { origin, dir, close }
  })
}
