/**
 * Starts a private DokuWiki: a copy of Debian's tree (/usr/share/dokuwiki, symlinks resolved) in a
 * temp dir whose `inc/preload.php` points DOKU_CONF at the instance's own conf dir, its own data
 * dir with the seed, a fresh full-text index, and PHP's built-in server on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, instanceStopper, orStop, spawnServer, waitForHttp } from '../childProcess'
import { writeConfig, writeData } from './seed'

/** Where Debian's `dokuwiki` package puts the code and the default configuration. */
const DOKU_TREE = '/usr/share/dokuwiki'
const DOKU_ETC = '/etc/dokuwiki'
const PHP = '/usr/bin/php'
/** Parts of the tree linked instead of copied (see startDokuServer). */
const LINKED = ['inc/lang', 'lib/plugins', 'lib/images']

/** A running DokuWiki server. */
export interface DokuServer {
  origin: string
  /** The instance's temp dir (tree in `www/`, config in `conf/`, pages in `data/`). */
  dir: string
  close(): Promise<void>
}

/** Why DokuWiki cannot run here (naming the apt package), or null. */
export function dokuUnavailable(): string | null {
  if (!existsSync(join(DOKU_TREE, 'doku.php')) || !existsSync(join(DOKU_ETC, 'dokuwiki.php')))
    return 'DokuWiki is not installed: apt-get install dokuwiki'
  if (!existsSync(PHP)) return 'php is not installed: apt-get install php-cli'
  return null
}

/** Copies Debian's default conf files (not its users/ACL, which point into /var/lib). */
function copyDefaultConf(confDir: string): void {
  mkdirSync(confDir, { recursive: true })
  for (const name of readdirSync(DOKU_ETC)) {
    if (/\.auth\.php$|^local\.php$|^(apache|lighttpd)\.conf$|^htaccess$|^\./.test(name)) continue
    const src = join(DOKU_ETC, name)
    if (!statSync(src).isFile()) continue
    cpSync(src, join(confDir, name), { dereference: true })
  }
}

/**
 * Builds a fresh instance and serves it; stops by itself after `lifetimeMs`. Rejects, after
 * removing everything, when a step fails.
 */
export async function startDokuServer(lifetimeMs: number): Promise<DokuServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-dokuwiki-'))
  const www = join(dir, 'www')
  const confDir = join(dir, 'conf')
  const dataDir = join(dir, 'data')
  // php -S may fork workers: the stopper ends the whole process group it leads.
  const stopper = instanceStopper(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    // A copy, not a symlink: DokuWiki finds its own root (DOKU_INC) from the real path of the
    // entry script, and the copy's inc/preload.php must be the one it loads. The big read-only
    // parts that are only included or served by path (translations, bundled plugins, images)
    // stay links into Debian's tree, which keeps a start cheap on a busy machine.
    cpSync(DOKU_TREE, www, {
      recursive: true,
      dereference: true,
      filter: (src) =>
        !src.endsWith('/.htaccess') && !LINKED.includes(src.slice(DOKU_TREE.length + 1)),
    })
    for (const part of LINKED) symlinkSync(realpathSync(join(DOKU_TREE, part)), join(www, part))
    copyDefaultConf(confDir)
    // Debian's preload.php sends DOKU_CONF to /etc/dokuwiki; this one keeps it in the instance.
    writeFileSync(
      join(www, 'inc', 'preload.php'),
      `<?php\nif (!defined('DOKU_CONF')) define('DOKU_CONF', '${confDir}/');\n`,
    )
    writeConfig(confDir, dataDir)
    writeData(dataDir)
    mkdirSync(join(dir, 'sessions'))
    // Search (do=search, the quick search) reads the full-text index, which DokuWiki otherwise
    // builds lazily page by page as people view them: build it now so search works at once.
    execFileSync(PHP, [join(www, 'bin', 'indexer.php'), '-q'], {
      stdio: 'ignore',
      timeout: 120_000,
    })
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = spawnServer(
      PHP,
      ['-d', `session.save_path=${join(dir, 'sessions')}`, '-S', `127.0.0.1:${port}`, '-t', www],
      { cwd: www },
    ).child
    stopper.server = child
    await waitForHttp(`${origin}/doku.php`, child, {
      name: 'php -S (DokuWiki)',
      timeoutMs: 30_000,
      redirect: 'manual',
    })
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, close: stopper.stop }
  })
}
