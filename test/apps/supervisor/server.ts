/**
 * Starts a private Supervisor: Debian's `/usr/bin/supervisord` in the foreground (`-n`) with only
 * its own `supervisord.conf` in a temp dir (nothing from `/etc/supervisor`, the system service
 * untouched), as its own process group, the web UI and XML-RPC on a free 127.0.0.1 port.
 * Resolves once every seeded program shows its seeded state and has printed its lines.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StorageState } from '../../../src/shared/trace'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
} from '../childProcess'
import type { AppInstance } from '../types'
import { PROGRAMS, USER, logPath, namespec, supervisordConf } from './seed'
import { fetchBasic, readStates, type ProcessInfo } from './session'

/** Where Debian's `supervisor` package puts the daemon. */
const SUPERVISORD = '/usr/bin/supervisord'

/** A running Supervisor. */
export interface SupervisorServer {
  origin: string
  /** The instance's temp dir (config, socket, pidfile, logs). */
  dir: string
  /** Each running program's pid once the instance was ready (the restart checks compare). */
  seededPids: Record<string, number>
  close(): Promise<void>
}

/** Why Supervisor cannot run here (naming the apt package), or null. */
export function supervisorUnavailable(): string | null {
  return existsSync(SUPERVISORD) ? null : 'Supervisor is not installed: apt-get install supervisor'
}

/** Why `states` is not yet the seeded state, or null when it is. */
function unsettled(dir: string, states: ProcessInfo[]): string | null {
  for (const p of PROGRAMS) {
    const spec = namespec(p)
    const state = states.find((s) => s.namespec === spec)
    if (!state) return `${spec} not listed`
    const want = p.stopped ? 'STOPPED' : 'RUNNING'
    if (state.statename !== want) return `${spec} is ${state.statename}`
    if (p.stopped) continue
    const log = existsSync(logPath(dir, p)) ? readFileSync(logPath(dir, p), 'utf8') : ''
    if (!p.lines.every((line) => log.includes(line))) return `${spec} has not printed its lines`
  }
  return null
}

/** SIGKILLs the process group of each pid still alive (Supervisor gives each child its own). */
function killPrograms(pids: number[]): void {
  for (const pid of pids)
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
}

/**
 * Writes the config, starts supervisord and waits until it is settled; stops by itself after
 * `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startSupervisor(lifetimeMs: number): Promise<SupervisorServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-supervisor-'))
  // The programs' pids last seen: killed by group after supervisord, in case one outlived it.
  let lastPids: number[] = []
  const removeAll = () => {
    killPrograms(lastPids)
    // The programs' loops also end within a second once `run/` is gone.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
  // When Node exits without close(), supervisord (its own process group) and its programs (a
  // group each) would outlive it: end them and remove the dir.
  process.once('exit', removeAll)
  let unkill = (): void => undefined
  let fetchApp: AppInstance['fetch'] | null = null
  const session: StorageState = { cookies: [], origins: [] }
  const stopper = instanceStopper(async () => {
    unkill()
    process.removeListener('exit', removeAll)
    removeAll()
  })
  // supervisord stops every program itself on SIGTERM; read their pids first, for the backstop.
  const close = async (): Promise<void> => {
    if (fetchApp)
      lastPids = await readStates(fetchApp, session)
        .then((all) => all.map((p) => p.pid).filter((pid) => pid > 0))
        .catch(() => lastPids)
    await stopper.stop()
  }
  return orStop(close, async () => {
    mkdirSync(join(dir, 'run'))
    mkdirSync(join(dir, 'logs'))
    const port = await freePort()
    const conf = join(dir, 'supervisord.conf')
    writeFileSync(conf, supervisordConf(dir, port), { mode: 0o600 })
    const origin = `http://127.0.0.1:${port}`
    // -n: foreground (no daemon); -c: this file only.
    const server = spawnServer(SUPERVISORD, ['-n', '-c', conf], {
      cwd: dir,
      env: { ...process.env, HOME: dir },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    unkill = killOnExit(server.child)
    fetchApp = (path, init) => fetchBasic(origin, USER, path, init)
    let last = 'no answer'
    let states: ProcessInfo[] = []
    await waitUntil(
      'supervisord',
      server.child,
      async () => {
        try {
          states = await readStates(fetchApp!, session)
          lastPids = states.map((p) => p.pid).filter((pid) => pid > 0)
          const why = unsettled(dir, states)
          last = why ?? 'settled'
          return why === null
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => `${last}; ${server.log()}` },
    )
    const seededPids: Record<string, number> = {}
    for (const s of states) if (s.pid > 0) seededPids[s.namespec] = s.pid
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, seededPids, close }
  })
}
