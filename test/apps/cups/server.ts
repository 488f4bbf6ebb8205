/**
 * Starts a private CUPS scheduler: Debian's `/usr/sbin/cupsd` in the foreground (`-f`) with its
 * own `cupsd.conf` and `cups-files.conf` (`-c`, `-s`) in a temp dir that also holds its
 * ServerRoot, spool, cache, state and logs, as its own process group, listening on a free
 * 127.0.0.1 port only. Nothing of the system's CUPS (/etc/cups, /var/spool/cups, /run/cups) is
 * read or written. Once the web interface answers, the seed is created with `lpadmin`, `lp` and
 * `cupsdisable` pointed at this server (`-h 127.0.0.1:PORT`).
 */
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
} from '../childProcess'
import { JOBS, JOB_TEXT, cupsFilesConf, cupsdConf, seedCommands, type Dirs } from './seed'

const run = promisify(execFile)

/** Where Debian's `cups-daemon` package puts the scheduler. */
const CUPSD = '/usr/sbin/cupsd'
/** The admin tools of `cups-client` the seed uses. */
const CLIENT_TOOLS = ['/usr/sbin/lpadmin', '/usr/sbin/cupsdisable', '/usr/bin/lp']

/** A running private cupsd. */
export interface CupsServer {
  origin: string
  /** The instance's temp dir. */
  dir: string
  close(): Promise<void>
}

/** Why CUPS cannot run here (naming the apt package), or null. */
export function cupsUnavailable(): string | null {
  if (!existsSync(CUPSD)) return 'CUPS is not installed: apt-get install cups'
  const missing = CLIENT_TOOLS.filter((t) => !existsSync(t))
  if (missing.length) return `${missing.join(', ')} missing: apt-get install cups-client`
  return null
}

/**
 * Writes the config, starts cupsd, waits for the web interface, creates the seed; stops by itself
 * after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startCups(lifetimeMs: number): Promise<CupsServer> {
  const root = mkdtempSync(join(tmpdir(), 'sitecall-cups-'))
  // cupsd runs its CGIs, filters and backends as user `lp`: they must reach the dirs below.
  chmodSync(root, 0o755)
  const stopper = instanceStopper(() =>
    rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  )
  return orStop(stopper.stop, async () => {
    const d: Dirs = {
      root,
      serverRoot: join(root, 'etc'),
      spool: join(root, 'spool'),
      cache: join(root, 'cache'),
      state: join(root, 'state'),
      temp: join(root, 'spool', 'tmp'),
      log: join(root, 'log'),
    }
    for (const dir of [
      d.serverRoot,
      join(d.serverRoot, 'ppd'),
      d.spool,
      d.temp,
      d.cache,
      d.state,
      d.log,
    ])
      mkdirSync(dir, { recursive: true, mode: 0o755 })
    const port = await freePort()
    const filesConf = join(d.serverRoot, 'cups-files.conf')
    const conf = join(d.serverRoot, 'cupsd.conf')
    writeFileSync(filesConf, cupsFilesConf(d))
    writeFileSync(conf, cupsdConf(port))
    const doc = join(root, 'seed-job.txt')
    writeFileSync(doc, JOB_TEXT)
    chmodSync(doc, 0o644)
    // -f: foreground, so the process group is cupsd's own; -c/-s: these files only.
    const server = spawnServer(CUPSD, ['-f', '-c', conf, '-s', filesConf], {
      cwd: root,
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    const forget = killOnExit(server.child)
    server.child.once('exit', forget)
    stopper.expireAfter(lifetimeMs)
    const origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/`, server.child, {
      name: 'cupsd',
      timeoutMs: 30_000,
      intervalMs: 150,
      ready: (res) => res.status === 200,
    })
    const host = `127.0.0.1:${port}`
    // The client tools read no ~/.cups or /etc/cups/client.conf server: -h names this one.
    const env = { ...process.env, CUPS_SERVER: host, LANG: 'C' }
    for (const [tool, args] of seedCommands(host, doc)) {
      try {
        await run(tool, args, { env, timeout: 30_000 })
      } catch (error) {
        throw new Error(`seeding CUPS: ${tool} ${args.join(' ')} failed: ${String(error)}`)
      }
    }
    // Every job must be there, with the id the seed gives it.
    const last = JOBS[JOBS.length - 1]!
    const jobs = await fetch(`${origin}/jobs/`).then((r) => r.text())
    if (!jobs.includes(`>${last.printer}</A>-${last.id}&nbsp;`))
      throw new Error(`the seeded job ${last.printer}-${last.id} is not listed: ${server.log()}`)
    return { origin, dir: root, close: stopper.stop }
  })
}
