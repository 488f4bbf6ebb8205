/**
 * A private PostgreSQL 15 cluster for tests and benchmarks: Debian's binaries, `initdb` into a
 * temp dir, `postgres` on 127.0.0.1 at a free port. initdb and postgres refuse to run as root, so
 * as root (CI) they run as Debian's `postgres` system user through `setpriv` in a dir that user
 * owns (as `test/apps/postgraphile/server.ts` does); as any other user they run as that user.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

/** Debian's PostgreSQL 15 server binaries (package `postgresql-15`, pulled in by `postgresql`). */
const PG_BIN = '/usr/lib/postgresql/15/bin'
const PG_USER = 'postgres'
const isRoot = (): boolean => process.getuid?.() === 0

export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string
  port: number
  /** A fresh database of the cluster and its URL (each test file or node set gets its own). */
  createDatabase(name: string): Promise<string>
  /** Stops postgres (fast shutdown) without removing the cluster: `start()` brings it back. */
  stop(): Promise<void>
  /** Starts it again on the same port, waiting until it accepts connections. */
  start(): Promise<void>
  /** Stops postgres and removes the temp dir; safe to call twice. */
  close(): Promise<void>
}

/** Why no cluster can start here (naming what to install), or null. */
export function pgUnavailable(): string | null {
  for (const bin of ['initdb', 'postgres', 'pg_isready'])
    if (!existsSync(join(PG_BIN, bin)))
      return `PostgreSQL 15 is not installed (${PG_BIN}/${bin}): apt-get install postgresql`
  if (isRoot()) {
    try {
      execFileSync('id', ['-u', PG_USER], { stdio: 'ignore' })
    } catch {
      return `there is no ${PG_USER} user to run PostgreSQL as root: apt-get install postgresql`
    }
  }
  return null
}

function asPgUser(bin: string, args: string[]): [string, string[]] {
  const path = join(PG_BIN, bin)
  if (!isRoot()) return [path, args]
  return [
    '/usr/bin/setpriv',
    [`--reuid=${PG_USER}`, `--regid=${PG_USER}`, '--init-groups', '--', path, ...args],
  ]
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * Builds and starts a cluster. Durability is off (fsync, synchronous_commit): the cluster is
 * thrown away with its temp dir, and the tests measure Sitecall, not the disk.
 */
export async function startPgCluster(
  options: { maxConnections?: number; durable?: boolean } = {},
): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-pg-'))
  if (isRoot()) {
    const id = (flag: string) => Number(execFileSync('id', [flag, PG_USER], { encoding: 'utf8' }))
    chownSync(dir, id('-u'), id('-g'))
  }
  const data = join(dir, 'data')
  const [initdb, initdbArgs] = asPgUser('initdb', [
    ...['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8'],
    ...['--no-sync', '--no-instructions'],
  ])
  await run(initdb, initdbArgs, { cwd: dir, timeout: 120_000 })
  const port = await freePort()
  let child: ChildProcess | null = null
  let log = ''
  const durability = options.durable
    ? []
    : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
  const start = async () => {
    const [bin, args] = asPgUser('postgres', [
      ...['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port)],
      ...['-c', `max_connections=${options.maxConnections ?? 200}`, ...durability],
    ])
    const started = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
    started.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000)
    })
    child = started
    const until = Date.now() + 60_000
    for (;;) {
      try {
        await run(join(PG_BIN, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)])
        return
      } catch {
        if (started.exitCode !== null || Date.now() > until)
          throw new Error(`postgres did not start: ${log}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  }
  const stop = async () => {
    const current = child
    child = null
    if (!current || current.exitCode !== null) return
    const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()))
    // SIGINT is postgres's fast shutdown: open sessions are ended, the cluster stays whole.
    current.kill('SIGINT')
    const timer = setTimeout(() => current.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  const onExit = () => child?.kill('SIGKILL')
  process.once('exit', onExit)
  try {
    await start()
  } catch (error) {
    await stop()
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  let closed = false
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    stop,
    start,
    async close() {
      if (closed) return
      closed = true
      await stop()
      process.removeListener('exit', onExit)
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
  }
}
