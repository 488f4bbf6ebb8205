import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
} from 'node:fs'
import { renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, instanceStopper, spawnServer, waitForHttp } from '../childProcess'
import { seedJson } from './seed'

/** Where Debian's `redmine` package puts the Rails app. */
const REDMINE_ROOT = '/usr/share/redmine'
const HERE = fileURLToPath(new URL('.', import.meta.url))
const GEMS = '/usr/share/rubygems-integration/all/gems'

/**
 * Why Redmine cannot run here, or null: Debian's `redmine` (the app), `redmine-sqlite` (the
 * sqlite3 gem) and `ruby-webrick` (the only Rack server on the machine) must be installed.
 */
export function redmineUnavailable(): string | null {
  const install = 'apt-get install -y --no-install-recommends redmine redmine-sqlite ruby-webrick'
  if (!existsSync(join(REDMINE_ROOT, 'config/environment.rb')))
    return `Redmine is not installed (${REDMINE_ROOT} is missing): ${install}`
  if (!existsSync('/usr/share/doc/redmine-sqlite'))
    return `Redmine's SQLite support is not installed: ${install}`
  const gems = existsSync(GEMS) ? readdirSync(GEMS) : []
  if (!gems.some((g) => g.startsWith('webrick-')))
    return `Ruby's WEBrick server is not installed: ${install}`
  return null
}

/**
 * Debian's Redmine reads each instance from `/usr/share/redmine/instances/$REDMINE_INSTANCE`
 * (a symlink to /var/lib/redmine). Climbing out with `..` points it at any dir instead, so the
 * instance lives in our temp dir and nothing under /etc or /var/lib is touched. Eight `..` reach
 * `/` both lexically (Ruby's expand_path) and through the symlink (the kernel).
 */
function tenantFor(dir: string): string {
  return `${'../'.repeat(8)}${dir.replace(/^\//, '')}`
}

/** Makes `dir` a Redmine instance dir (config, log, tmp, files) whose database is `db`. */
function makeInstanceDir(dir: string, db: string): void {
  for (const sub of ['config', 'log', 'tmp', 'files'])
    mkdirSync(join(dir, sub), { recursive: true })
  writeFileSync(
    join(dir, 'config/database.yml'),
    `production:\n  adapter: sqlite3\n  database: ${db}\n  encoding: utf8\n`,
  )
  writeFileSync(join(dir, 'config/secret_key.txt'), randomBytes(64).toString('hex'))
}

function railsEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, RAILS_ENV: 'production', REDMINE_INSTANCE: tenantFor(dir) }
}

/** Runs a command in Redmine's root, rejecting with its output's tail when it fails. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REDMINE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000))
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${output}`)),
    )
  })
}

/**
 * The path of a migrated, seeded SQLite database to copy per start. Building it (migrations,
 * default data, seed) takes about 15 s, so it is cached under the temp dir, keyed by Redmine's
 * version file and the seed, and written atomically so concurrent starts cannot see half of it.
 */
async function templateDatabase(): Promise<string> {
  const seed = seedJson()
  const hash = createHash('sha256')
    .update(readFileSync(join(REDMINE_ROOT, 'lib/redmine/version.rb')))
    .update(readFileSync(join(HERE, 'seed.rb')))
    .update(seed)
    .digest('hex')
    .slice(0, 16)
  const target = join(tmpdir(), `sitecall-redmine-template-${hash}.sqlite3`)
  if (existsSync(target)) return target
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-redmine-build-'))
  try {
    const db = join(dir, 'db.sqlite3')
    makeInstanceDir(dir, db)
    const env = { ...railsEnv(dir), REDMINE_LANG: 'en', SITECALL_SEED: seed }
    await run('bin/rake', ['db:migrate'], env)
    await run('bin/rake', ['redmine:load_default_data'], env)
    await run('bin/rails', ['runner', join(HERE, 'seed.rb')], env)
    const partial = `${target}.${process.pid}.partial`
    copyFileSync(db, partial)
    renameSync(partial, target)
    // Templates of an older seed or Redmine are never read again.
    for (const name of readdirSync(tmpdir()))
      if (name.startsWith('sitecall-redmine-template-') && join(tmpdir(), name) !== target)
        rmSync(join(tmpdir(), name), { force: true })
    return target
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A Redmine server process with its temp dir. */
export interface RedmineServer {
  origin: string
  dir: string
  /** Kills the server's process group and removes the dir. Safe to call twice. */
  stop(): Promise<void>
}

/**
 * Starts a private Redmine: a temp instance dir holding a copy of the template database, served
 * by WEBrick (`webrick.rb`) on a free loopback port in its own process group. Resolves once `/`
 * answers 200 (Rails boots in 5–60 s depending on the machine's load); rejects, after cleaning
 * up, if the server exits or does not answer within `bootMs`.
 */
export async function startRedmineServer(bootMs = 120_000): Promise<RedmineServer> {
  const template = await templateDatabase()
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-redmine-'))
  const db = join(dir, 'db.sqlite3')
  makeInstanceDir(dir, db)
  copyFileSync(template, db)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = spawnServer('ruby', [join(HERE, 'webrick.rb'), String(port)], {
    cwd: REDMINE_ROOT,
    env: railsEnv(dir),
    output: { stderr: true },
  })

  // The whole group, so nothing Redmine spawned (a git or svn for a repository) outlives it.
  const stopper = instanceStopper(() => rmSync(dir, { recursive: true, force: true }), {
    graceMs: 5000,
  })
  stopper.server = server.child
  const stop = stopper.stop

  try {
    await waitForHttp(`${origin}/`, server.child, {
      name: 'Redmine',
      timeoutMs: bootMs,
      intervalMs: 500,
      requestTimeoutMs: 5000,
      ready: (res) => res.status === 200,
    })
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}:\n${server.log()}`)
  }
  return { origin, dir, stop }
}
