/**
 * The seeded database as a template: installing MariaDB's system tables and WordPress takes
 * 10-20 s on a loaded machine, so it is done once per machine and every start copies the result.
 * The cache dir's name holds a hash of everything that shapes the data (seed, installer, MariaDB
 * and WordPress versions), so a change builds a new one.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatabase, dataDirOf, initDataDir, startMariaDb } from './mariadb'
import { killGroup, run, type ServerProcess } from './proc'
import { seedJson } from './seed'
import { makeTree, PHP_DIR, WORDPRESS_DIR } from './tree'

/** The origin the template is installed for; each instance overrides it in wp-config.php. */
const TEMPLATE_ORIGIN = 'http://127.0.0.1:8080'

function templateKey(): string {
  const hash = createHash('sha256')
  hash.update(seedJson(TEMPLATE_ORIGIN))
  for (const file of ['install.php', 'sitecall.php']) hash.update(readFileSync(join(PHP_DIR, file)))
  hash.update(readFileSync(join(WORDPRESS_DIR, 'wp-includes/version.php')))
  const mariadbd = statSync('/usr/sbin/mariadbd')
  hash.update(`${mariadbd.size} ${mariadbd.mtimeMs}`)
  return hash.digest('hex').slice(0, 16)
}

let building: Promise<string> | null = null

/**
 * The path of a template dir whose `db/` is a cleanly shut down, installed and seeded data dir;
 * builds it when the machine has none yet. Concurrent builders (other processes) race harmlessly:
 * each builds in its own temp dir and the first rename wins.
 */
export function seededTemplate(): Promise<string> {
  building ??= buildTemplate().catch((error: unknown) => {
    building = null
    throw error
  })
  return building
}

async function buildTemplate(): Promise<string> {
  const target = join(tmpdir(), `sitecall-wordpress-${templateKey()}`)
  if (existsSync(join(target, 'ready'))) return target
  const dir = await mkdtemp(join(tmpdir(), 'sc-wpt-'))
  const socket = join(dir, 'db.sock')
  let db: ServerProcess | null = null
  try {
    await initDataDir(dataDirOf(dir))
    db = await startMariaDb(dataDirOf(dir), socket)
    await createDatabase(socket)
    const www = join(dir, 'www')
    await makeTree(www, TEMPLATE_ORIGIN, socket)
    await writeFile(join(dir, 'seed.json'), seedJson(TEMPLATE_ORIGIN))
    await run('php', [join(PHP_DIR, 'install.php'), www, join(dir, 'seed.json')])
    // A clean shutdown, so the copied data dir needs no crash recovery.
    await killGroup(db)
    db = null
    await rm(www, { recursive: true, force: true })
    await writeFile(join(dir, 'ready'), new Date().toISOString())
    await rename(dir, target).catch(() => rm(dir, { recursive: true, force: true }))
    if (!existsSync(join(target, 'ready'))) throw new Error(`no WordPress template at ${target}`)
    return target
  } catch (error) {
    await killGroup(db)
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}
