/**
 * Starts a private Monit: Debian's `/usr/bin/monit` in the foreground (`-I`) with only its own
 * control file in a temp dir (nothing from `/etc/monit`, no system service touched), as its own
 * process group, the web interface on a free 127.0.0.1 port. Resolves once every seeded service
 * shows its seeded state.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
} from '../childProcess'
import {
  MONIT_ID,
  SERVICES,
  SERVICE_SCRIPT,
  USER,
  monitrc,
  programScript,
  serviceScript,
} from './seed'
import type { AppInstance } from '../types'
import { fetchBasic, readStates, type ServiceState } from './session'

/** Where Debian's `monit` package puts the binary. */
const MONIT = '/usr/bin/monit'

/** A running Monit. */
export interface MonitServer {
  origin: string
  /** The instance's temp dir (control file, log, state, the watched files and scripts). */
  dir: string
  /** The pid each process that runs from the start had when Monit started (restart's check). */
  seededPids: Record<string, number>
  close(): Promise<void>
}

/** Why Monit cannot run here (naming the apt package), or null. */
export function monitUnavailable(): string | null {
  return existsSync(MONIT) ? null : 'Monit is not installed: apt-get install monit'
}

/** Writes the scripts, files and directories the checks watch, and the fixed Monit id. */
function writeSeed(dir: string): void {
  for (const sub of ['run', 'files', 'dirs', 'programs']) mkdirSync(join(dir, sub))
  writeFileSync(join(dir, SERVICE_SCRIPT), serviceScript(dir), { mode: 0o755 })
  for (const s of SERVICES) {
    if (s.file) writeFileSync(join(dir, 'files', s.file.name), s.file.content, { mode: 0o644 })
    if (s.dir) mkdirSync(join(dir, 'dirs', s.dir), { mode: 0o755 })
    if (s.program)
      writeFileSync(join(dir, 'programs', `${s.name}.sh`), programScript(s.program), {
        mode: 0o755,
      })
  }
  writeFileSync(join(dir, 'monit.id'), MONIT_ID)
}

/**
 * Starts the processes that run from the start with the instance's own script, before Monit, so
 * Monit's first cycle finds them running (as on a machine where they were up already) instead of
 * starting them itself. Returns their pids.
 */
function startSeededProcesses(dir: string): Record<string, number> {
  const pids: Record<string, number> = {}
  for (const s of SERVICES.filter((x) => x.running)) {
    const done = spawnSync('/bin/sh', [join(dir, SERVICE_SCRIPT), 'start', s.name], {
      stdio: 'ignore',
      timeout: 10_000,
    })
    const pid = Number(readFileSync(join(dir, 'run', `${s.name}.pid`), 'utf8').trim())
    if (done.status !== 0 || !pid) throw new Error(`could not start the seeded process ${s.name}`)
    pids[s.name] = pid
  }
  return pids
}

/** Ends the seeded processes still running (Monit's start programs put them in other sessions). */
function killSeededProcesses(dir: string): void {
  const run = join(dir, 'run')
  if (!existsSync(run)) return
  for (const file of readdirSync(run).filter((f) => f.endsWith('.pid'))) {
    const pid = Number(readFileSync(join(run, file), 'utf8').trim())
    if (pid > 1)
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
  }
}

/** Why `states` is not yet the seeded state, or null when it is. */
function unsettled(states: ServiceState[], pids: Record<string, number>): string | null {
  for (const s of SERVICES) {
    const state = states.find((x) => x.name === s.name)
    if (!state) return `${s.name} not listed`
    if (s.nostart) {
      if (state.monitor !== 0) return `${s.name} is monitored`
    } else if (state.monitor !== 1 || state.pendingAction !== 0)
      return `${s.name} not monitored yet`
    if (s.running && state.pid !== pids[s.name]) return `${s.name} has pid ${state.pid}`
    if (s.program && state.output?.trim() !== s.program.output) return `${s.name} not run yet`
    if (!s.nostart && !s.program && state.status !== 0) return `${s.name} failed (${state.status})`
  }
  return null
}

/**
 * Writes the seed and the control file, starts Monit and waits until it is settled; stops by
 * itself after `lifetimeMs`. Rejects, after removing everything, when a step fails.
 */
export async function startMonit(lifetimeMs: number): Promise<MonitServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-monit-'))
  const removeAll = () => {
    killSeededProcesses(dir)
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
  // When Node exits without close() (an uncaught error), Monit (its own process group) and the
  // seeded processes (sessions of their own) would outlive it: end them and remove the dir.
  process.once('exit', removeAll)
  let unkill = (): void => undefined
  const stopper = instanceStopper(() => {
    unkill()
    process.removeListener('exit', removeAll)
    removeAll()
  })
  return orStop(stopper.stop, async () => {
    writeSeed(dir)
    const port = await freePort()
    const control = join(dir, 'monitrc')
    writeFileSync(control, monitrc(dir, port))
    // Monit refuses a control file that others may read (it holds the password).
    chmodSync(control, 0o600)
    const seededPids = startSeededProcesses(dir)
    const origin = `http://127.0.0.1:${port}`
    // -I: foreground (no fork into the background); -c: this file only.
    const server = spawnServer(MONIT, ['-I', '-c', control], {
      cwd: dir,
      env: { ...process.env, HOME: dir },
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    unkill = killOnExit(server.child)
    const session = { cookies: [], origins: [] }
    const fetchApp: AppInstance['fetch'] = (path, init) => fetchBasic(origin, USER, path, init)
    let last = 'no answer'
    let woke = Date.now()
    await waitUntil(
      'monit',
      server.child,
      async () => {
        try {
          const why = unsettled(await readStates(fetchApp, session), seededPids)
          last = why ?? 'settled'
          // A program's exit status and output are collected on the cycle after the one that
          // ran it, a whole poll interval later: SIGUSR1 makes Monit run that cycle now.
          if (why && Date.now() - woke > 400) {
            woke = Date.now()
            process.kill(server.child.pid!, 'SIGUSR1')
          }
          return why === null
        } catch (error) {
          last = String(error)
          return false
        }
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => `${last}; ${server.log()}` },
    )
    stopper.expireAfter(lifetimeMs)
    return { origin, dir, seededPids, close: stopper.stop }
  })
}
