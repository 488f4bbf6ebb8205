import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'

/** What one keychain call came to. A failure never carries a secret, only the store's reason. */
export type KeychainAnswer =
  | { ok: true; value: string | null }
  | { ok: false; reason: 'unavailable' | 'timeout'; message: string }

/** The OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux). */
export interface Keychain {
  /** The password stored under `account`, or `value: null` when there is none. */
  get(account: string): Promise<KeychainAnswer>
  set(account: string, value: string): Promise<KeychainAnswer>
  /** `value` is `'deleted'` when an entry was removed, null when there was none. */
  remove(account: string): Promise<KeychainAnswer>
}

export interface KeychainOptions {
  /** The keychain service name the entries are filed under; default `Sitecall`. */
  service?: string
  /** A call not answered within this many ms is killed and reported `timeout`; default 5000. */
  timeoutMs?: number
  /** The module the child loads `Entry` from; default `@napi-rs/keyring` as installed here. */
  modulePath?: string
  /** The child's environment; default this process's, less `SITECALL_PASSPHRASE`. */
  env?: Record<string, string | undefined>
}

const DEFAULT_KEYCHAIN_TIMEOUT_MS = 5000

/*
 * Runs in the child: reads one request on stdin, makes the one keychain call, writes one JSON
 * answer. On Linux the Secret Service is required: the kernel keyring it would fall back to
 * forgets its keys within days, which would lose every secret.
 */
const CHILD = `
const chunks = []
process.stdin.on('data', (c) => chunks.push(c))
process.stdin.on('end', () => {
  let answer
  try {
    const req = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const { Entry } = require(req.module)
    const options = process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined
    const entry = new Entry(req.service, req.account, options)
    if (req.op === 'get') answer = { ok: true, value: entry.getPassword() ?? null }
    else if (req.op === 'set') { entry.setPassword(req.value); answer = { ok: true, value: null } }
    else answer = { ok: true, value: entry.deletePassword() ? 'deleted' : null }
  } catch (error) {
    answer = { ok: false, message: String((error && error.message) || error) }
  }
  process.stdout.write(JSON.stringify(answer), () => process.exit(0))
})
`

/**
 * The keychain through `@napi-rs/keyring`, each call in a child process killed after
 * `timeoutMs`: with a locked keyring (a desktop unlock prompt no one answers) the binding's
 * calls can block forever, and a blocked native call cannot be interrupted in-process. Without
 * a Secret Service (a headless server) a call fails fast with `Couldn't access platform
 * storage` or a D-Bus error: `reason: 'unavailable'`. Never throws.
 */
export function createKeychain(options: KeychainOptions = {}): Keychain {
  const service = options.service ?? 'Sitecall'
  const timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS
  const modulePath =
    options.modulePath ?? createRequire(import.meta.url).resolve('@napi-rs/keyring')
  const baseEnv = { ...(options.env ?? process.env) }
  delete baseEnv.SITECALL_PASSPHRASE

  const call = (request: { op: 'get' | 'set' | 'delete'; account: string; value?: string }) =>
    new Promise<KeychainAnswer>((resolve) => {
      // Electron's binary acts as plain Node with this variable; Node ignores it.
      const child = spawn(process.execPath, ['-e', CHILD], {
        env: { ...baseEnv, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'pipe', 'ignore'],
        windowsHide: true,
      })
      let stdout = ''
      let settled = false
      const finish = (answer: KeychainAnswer) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(answer)
      }
      // Answered once the child is gone (reaped), so a timed-out call leaves no process behind.
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, timeoutMs)
      child.on('exit', () => {
        if (timedOut)
          finish({
            ok: false,
            reason: 'timeout',
            message: `The OS keychain did not answer within ${timeoutMs} ms (is it locked?).`,
          })
      })
      child.stdout.setEncoding('utf8')
      child.stdout.on('data', (chunk: string) => (stdout += chunk))
      child.on('error', (error) =>
        finish({ ok: false, reason: 'unavailable', message: `Keychain helper: ${error.message}` }),
      )
      child.on('close', () => finish(parseAnswer(stdout)))
      // The value goes over stdin, never argv: argv is visible to every user in `ps`.
      child.stdin.on('error', () => undefined)
      child.stdin.end(JSON.stringify({ ...request, service, module: modulePath }))
    })

  return {
    get: (account) => call({ op: 'get', account }),
    set: (account, value) => call({ op: 'set', account, value }),
    remove: (account) => call({ op: 'delete', account }),
  }
}

function parseAnswer(stdout: string): KeychainAnswer {
  try {
    const answer = JSON.parse(stdout) as { ok: boolean; value?: string | null; message?: string }
    if (answer.ok) return { ok: true, value: answer.value ?? null }
    return { ok: false, reason: 'unavailable', message: answer.message ?? 'unknown failure' }
  } catch {
    return {
      ok: false,
      reason: 'unavailable',
      message: 'The keychain helper exited without an answer.',
    }
  }
}
