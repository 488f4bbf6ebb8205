/**
 * Starts a private PostfixAdmin: a copy of Debian's tree (/usr/share/postfixadmin) in a temp dir
 * whose config.inc.php is a copy of the package's own defaults, with a dbconfig.inc.php and a
 * config.local.php of the instance (SQLite in the temp dir, no DNS checks, no mail sent); the
 * schema made by the package's upgrade.php, the seed by its CLI, served by PHP's built-in server.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { seedWithCli } from './seed'

/** Where Debian's `postfixadmin` package puts the code and its default configuration. */
const PFA_TREE = '/usr/share/postfixadmin'
const PFA_DEFAULT_CONFIG = '/etc/postfixadmin/config.inc.php'
const PHP = '/usr/bin/php'
/** The setup password of every instance (setup.php is not used by the workflows). */
const SETUP_PASSWORD = 'Setup-pass-123'

/** A running PostfixAdmin server. */
export interface PfaServer {
  origin: string
  dir: string
  close(): Promise<void>
}

/** Why PostfixAdmin cannot run here (naming the apt package), or null. */
export function pfaUnavailable(): string | null {
  if (!existsSync(join(PFA_TREE, 'public', 'edit.php')) || !existsSync(PFA_DEFAULT_CONFIG))
    return 'PostfixAdmin is not installed: apt-get install postfixadmin'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  try {
    execFileSync(PHP, ['-r', 'exit(extension_loaded("pdo_sqlite") ? 0 : 1);'], { timeout: 10_000 })
  } catch {
    return 'PHP has no SQLite driver: apt-get install php-sqlite3'
  }
  return null
}

/** A PHP single-quoted string literal. */
const phpString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/** The instance's overrides of the package defaults (read last by config.inc.php). */
function localConfig(db: string, setupHash: string): string {
  const conf: Record<string, string | boolean> = {
    configured: true,
    setup_password: setupHash,
    database_type: 'sqlite',
    database_name: db,
    // Seeded domains are not in any DNS here (and nothing may go to the network).
    emailcheck_resolve_domain: 'NO',
    sendmail: 'NO',
    fetchmail: 'NO',
    vacation: 'NO',
    quota: 'YES',
    maxquota: '2048',
    page_size: '50',
    show_footer_text: 'NO',
  }
  const lines = Object.entries(conf).map(
    ([k, v]) => `$CONF['${k}'] = ${typeof v === 'boolean' ? String(v) : phpString(v)};`,
  )
  return `<?php\n${lines.join('\n')}\n`
}

/**
 * Builds a fresh instance and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startPfaServer(lifetimeMs: number): Promise<PfaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-postfixadmin-'))
  const www = join(dir, 'www')
  const db = join(dir, 'postfixadmin.db')
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    // A copy (6 MB): the package's config.inc.php and templates_c are links into /etc and /var,
    // which the instance must not use; common.php finds its config next to itself.
    cpSync(PFA_TREE, www, {
      recursive: true,
      filter: (src) =>
        !['config.inc.php', 'config.local.php', 'templates_c'].includes(
          src.slice(PFA_TREE.length + 1),
        ),
    })
    mkdirSync(join(www, 'templates_c'))
    cpSync(PFA_DEFAULT_CONFIG, join(www, 'config.inc.php'))
    // config.inc.php requires dbconfig.inc.php (Debian's dbconfig-common file) by relative path,
    // found next to it in the copy.
    writeFileSync(
      join(www, 'dbconfig.inc.php'),
      `<?php\n$dbuser = ''; $dbpass = ''; $basepath = ''; $dbname = ${phpString(db)};\n` +
        `$dbserver = ''; $dbport = ''; $dbtype = 'sqlite';\n`,
    )
    const setupHash = execFileSync(
      PHP,
      ['-r', 'echo password_hash($argv[1], PASSWORD_DEFAULT);', '--', SETUP_PASSWORD],
      {
        encoding: 'utf8',
        timeout: 10_000,
      },
    )
    writeFileSync(join(www, 'config.local.php'), localConfig(db, setupHash))
    // PostfixAdmin opens an SQLite file only when it exists; upgrade.php then makes the schema.
    writeFileSync(db, '')
    mkdirSync(join(dir, 'sessions'))
    const out = execFileSync(
      PHP,
      ['-d', `session.save_path=${join(dir, 'sessions')}`, 'upgrade.php'],
      {
        cwd: join(www, 'public'),
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    if (!/target version/.test(out)) throw new Error(`upgrade.php failed: ${out.slice(-500)}`)
    seedWithCli(PHP, www, db)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = spawnServer(
      PHP,
      [
        '-d',
        `session.save_path=${join(dir, 'sessions')}`,
        '-d',
        'display_errors=0',
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        join(www, 'public'),
      ],
      { cwd: join(www, 'public') },
    ).child
    stopper.server = child
    await waitForHttp(`${origin}/login.php`, child, {
      name: 'php -S (PostfixAdmin)',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
