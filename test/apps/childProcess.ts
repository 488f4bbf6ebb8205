/**
 * Child-process helpers the corpus apps share: every app serves itself from a child process on a
 * free loopback port, in its own process group (so stopping it reaches the workers it forks), and
 * waits until it answers HTTP before a test uses it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** A port on 127.0.0.1 that was free a moment ago (the kernel picks it, then it is released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** True while `child` has neither exited nor been killed by a signal. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null
}

/** A long-running server in its own process group, with the tail of its output when piped. */
export interface ServerProcess {
  child: ChildProcess
  /** The last 4000 characters the server wrote to the piped streams ('' when none are piped). */
  log(): string
}

/**
 * Starts `command` as the leader of a new process group (detached), so {@link killGroup} can end
 * it and every worker it forks with one signal. `output` names which of stdout/stderr are piped
 * and kept (their tail is {@link ServerProcess.log}); the others are ignored, as is stdin.
 */
export function spawnServer(
  command: string,
  args: string[],
  options: {
    cwd?: string
    env?: NodeJS.ProcessEnv
    output?: { stdout?: boolean; stderr?: boolean }
    /** Lets Node exit while the server still runs (its own cleanup then ends the server). */
    unref?: boolean
  } = {},
): ServerProcess {
  const stdout = options.output?.stdout ? 'pipe' : 'ignore'
  const stderr = options.output?.stderr ? 'pipe' : 'ignore'
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', stdout, stderr],
  })
  let log = ''
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  if (options.unref) child.unref()
  return { child, log: () => log }
}

/** Sends `signal` to the process group `pid` leads; a group already gone is not an error. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}

/**
 * Stops the process group `child` leads: sends `first` (SIGTERM unless told), waits up to
 * `graceMs` for the leader to exit, then sends SIGKILL and waits up to `graceMs` more. Resolves
 * at once when the child is not running. Bounded, so a stuck server cannot hang a close().
 */
export async function killGroup(
  child: ChildProcess | null | undefined,
  options: { first?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  if (!child?.pid || !isRunning(child)) return
  const graceMs = options.graceMs ?? 3000
  const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)))
  const exitedWithin = () => Promise.race([exited, delay(graceMs).then(() => false)])
  signalGroup(child.pid, options.first ?? 'SIGTERM')
  if (await exitedWithin()) return
  signalGroup(child.pid, 'SIGKILL')
  await exitedWithin()
}

/**
 * Kills `child`'s process group with SIGKILL when this Node process exits, since a detached child
 * otherwise outlives it; returns the function that removes that handler (call it on close).
 */
export function killOnExit(child: ChildProcess): () => void {
  const kill = () => {
    if (isRunning(child)) signalGroup(child.pid, 'SIGKILL')
  }
  process.once('exit', kill)
  return () => process.removeListener('exit', kill)
}

/**
 * Polls `ready()` every `intervalMs` (150 unless told) until it holds; throws when `child` exits
 * first or `timeoutMs` passes, naming the server as `name` and adding `detail()` (an output tail,
 * the last answer seen) to the message when given.
 */
export async function waitUntil(
  name: string,
  child: ChildProcess,
  ready: () => Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; detail?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  const detail = () => (options.detail ? `: ${options.detail()}` : '')
  while (Date.now() < deadline) {
    if (!isRunning(child))
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode})${detail()}`)
    if (await ready()) return
    await delay(options.intervalMs ?? 150)
  }
  throw new Error(`${name} did not come up within ${options.timeoutMs} ms${detail()}`)
}

/**
 * Polls `url` (every `intervalMs`, 200 unless told) until `ready(response)` holds (by default:
 * any HTTP answer at all); throws when `child` exits first or `timeoutMs` passes, with the last
 * answer or error seen. Each response body is read, so no socket stays open.
 */
export async function waitForHttp(
  url: string,
  child: ChildProcess,
  options: {
    name: string
    timeoutMs: number
    intervalMs?: number
    ready?: (res: Response) => boolean
    /** `manual` to see a redirect as the answer itself. */
    redirect?: RequestRedirect
    /** Gives up on one request after this long (a fresh timeout per request). */
    requestTimeoutMs?: number
  },
): Promise<void> {
  const ready = options.ready ?? (() => true)
  let last = 'no answer'
  const answers = async (): Promise<boolean> => {
    try {
      const res = await fetch(url, {
        redirect: options.redirect,
        signal: options.requestTimeoutMs ? AbortSignal.timeout(options.requestTimeoutMs) : null,
      })
      await res.arrayBuffer()
      last = `${url} answered HTTP ${res.status}`
      return ready(res)
    } catch (error) {
      // Not listening yet.
      last = `${url}: ${String(error)}`
      return false
    }
  }
  await waitUntil(options.name, child, answers, {
    timeoutMs: options.timeoutMs,
    intervalMs: options.intervalMs ?? 200,
    detail: () => last,
  })
}

/**
 * Calls `stop` after `lifetimeMs`, so an instance nobody closed still goes away; the timer does
 * not keep Node alive. Clear it on close.
 */
export function lifetimeTimer(lifetimeMs: number, stop: () => Promise<void>): NodeJS.Timeout {
  const timer = setTimeout(() => void stop(), lifetimeMs)
  timer.unref()
  return timer
}

/** The stop side of a served instance: see {@link instanceStopper}. */
export interface InstanceStopper {
  /** The server `stop()` ends, with its whole process group; null until it is spawned. */
  server: ChildProcess | null
  /**
   * Clears the lifetime timer, stops the server, then runs the cleanup (removing the data dir).
   * Safe to call twice, and from the timer: every call gets the same promise.
   */
  stop(): Promise<void>
  /** Starts the lifetime timer: `stop()` runs by itself after `lifetimeMs`. */
  expireAfter(lifetimeMs: number): void
}

/**
 * What every app's close() does, once: stop the server's process group (with `kill`, see
 * {@link killGroup}) and run `cleanup`. Create it before the first step that can fail, so a
 * failed start can clean up with {@link orStop}.
 */
export function instanceStopper(
  cleanup: () => void | Promise<void>,
  kill: { first?: NodeJS.Signals; graceMs?: number } = {},
): InstanceStopper {
  let timer: NodeJS.Timeout | null = null
  let stopping: Promise<void> | null = null
  const stopper: InstanceStopper = {
    server: null,
    stop: () => {
      stopping ??= (async () => {
        if (timer) clearTimeout(timer)
        await killGroup(stopper.server, kill)
        await cleanup()
      })()
      return stopping
    },
    expireAfter: (lifetimeMs) => {
      timer = lifetimeTimer(lifetimeMs, stopper.stop)
    },
  }
  return stopper
}

/** Runs `start`; when it throws, awaits `stop()` (so nothing is left behind) and rethrows. */
export async function orStop<T>(stop: () => Promise<void>, start: () => Promise<T>): Promise<T> {
  try {
    return await start()
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * Runs a command to its end and resolves with its stdout; rejects with the command, the error
 * and its output when it fails or runs past `timeout` ms (60 s by default). `input` is written to
 * its stdin. Output is buffered up to 8 MiB.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { input?: string; timeout?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { timeout: options.timeout ?? 60_000, maxBuffer: 8 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} failed: ${String(error)}\n${stdout}${stderr}`))
        else resolve(stdout)
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
  })
}
