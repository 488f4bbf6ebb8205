import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

const bin = join(import.meta.dirname, '../../../bin/sitecall.mjs')

export interface ServeProcess {
  /** `http://127.0.0.1:PORT` of the child's local service. */
  base: string
  child: ChildProcess
  /** Sends `signal` and resolves once the child exited (with its signal name or exit code). */
  stop(signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null>
}

/**
 * Starts `sitecall serve --port 0 --no-open` on the data dir `home` as a child process (the real
 * app, as a person runs it) and resolves once it printed its URL. Rejects when it exits first.
 * `env` is added to this process's environment (e.g. the vault's `SITECALL_PASSPHRASE`).
 */
export async function startServe(
  home: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-open'], {
    env: { ...process.env, ...env, SITECALL_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/app\//.exec(out)
      if (match) resolve(match[1]!)
    })
    void exited.then((code) => reject(new Error(`serve exited (${code}) early: ${out}${err}`)))
  })
  return {
    base,
    child,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** Resolves once `check` returns true, checking every 20 ms (waits on the system, never times it). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20))
}
