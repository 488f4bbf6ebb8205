/**
 * Starts a private MailDev 3.0.0 (the repo's dev dependency) as a child process: its own process
 * group, SMTP and web on free 127.0.0.1 ports, its mail directory in a fresh temp dir holding the
 * seeded `.eml` files, HTTP Basic on the web UI, and its outgoing relay pointed at its own SMTP
 * port (so Relay works without reaching anything outside). Resolves once the web UI answers and
 * the whole seed is in the inbox.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitForHttp,
  waitUntil,
} from '../childProcess'
import {
  ALL_EMAILS,
  DELIVERED,
  STORED,
  USER,
  attachmentFileName,
  deliver,
  writeStoredEmails,
} from './seed'
import { basicAuthorization } from './session'

/** A running MailDev. */
export interface MailDevServer {
  /** The web UI and its API: `http://127.0.0.1:<web port>`. */
  origin: string
  /** Its SMTP port on 127.0.0.1 (and the relay's target). */
  smtpPort: number
  /** Kills the process group and removes the temp dir. Safe to call twice. */
  close(): Promise<void>
}

/** MailDev's CLI script (`maildev/dist/bin/maildev.js`), or null when it is not installed. */
function maildevBin(): string | null {
  // By path: the package's `exports` allow `import` of its main module only, so neither
  // require.resolve nor a subpath import can name its package.json or the CLI.
  const bin = fileURLToPath(
    new URL('../../../node_modules/maildev/dist/bin/maildev.js', import.meta.url),
  )
  return existsSync(bin) ? bin : null
}

/** Why MailDev cannot start here, or null. */
export function maildevUnavailable(): string | null {
  return maildevBin()
    ? null
    : 'maildev is missing from node_modules: it is a dev dependency of the repo (npm ci installs maildev@3.0.0)'
}

/** The environment without MAILDEV_* variables, which would override the flags' defaults. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('MAILDEV_')),
  )
}

/**
 * Starts MailDev with the seed and resolves once it answers, every seeded email is listed and
 * every seeded attachment can be downloaded. Stops by itself after `lifetimeMs`; rejects, after
 * cleaning up, when it does not come up.
 */
export async function startMailDev(lifetimeMs: number): Promise<MailDevServer> {
  const bin = maildevBin()
  if (!bin) throw new Error(maildevUnavailable()!)
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-maildev-'))
  const forgetters: Array<() => void> = []
  // SIGTERM first: MailDev closes its servers and exits at once; nothing needs saving.
  const stopper = instanceStopper(
    () => {
      for (const forget of forgetters) forget()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
    { first: 'SIGTERM', graceMs: 3000 },
  )
  return orStop(stopper.stop, async () => {
    const mailDir = join(dir, 'mail')
    writeStoredEmails(mailDir)
    // An explicit, empty config file: otherwise MailDev looks for .maildevrc.json and
    // maildev.config.* in its cwd and every parent directory.
    const config = join(dir, 'maildevrc.json')
    writeFileSync(config, '{}\n')
    const smtp = await freePort()
    const web = await freePort()
    const args = [
      bin,
      '--config',
      config,
      '--smtp',
      String(smtp),
      '--ip',
      '127.0.0.1',
      '--web',
      String(web),
      '--web-ip',
      '127.0.0.1',
      '--web-user',
      USER.name,
      '--web-pass',
      USER.password,
      '--mail-directory',
      mailDir,
      // Relay to itself: the UI's Relay menu shows only with an outgoing host, and a relayed
      // copy arriving back in the same inbox is what a check can read.
      '--outgoing-host',
      '127.0.0.1',
      '--outgoing-port',
      String(smtp),
    ]
    const server = spawnServer(process.execPath, args, {
      cwd: dir,
      env: cleanEnv(),
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    forgetters.push(killOnExit(server.child))
    const origin = `http://127.0.0.1:${web}`
    // The one path without the login.
    await waitForHttp(`${origin}/api/healthz`, server.child, {
      name: 'maildev',
      timeoutMs: 30_000,
      intervalMs: 150,
      requestTimeoutMs: 2000,
      ready: (res) => res.ok,
    })
    for (const [i, email] of DELIVERED.entries()) await deliver(smtp, email, `delivered${i + 1}`)
    const authorization = basicAuthorization(USER)
    let last = 'no answer'
    await waitUntil(
      'maildev',
      server.child,
      async () => {
        const res = await fetch(`${origin}/api/email/summary?limit=200`, {
          headers: { authorization },
        })
        const page = (await res.json()) as { storeTotal?: number; unread?: number }
        last = `GET /api/email/summary: ${res.status} ${JSON.stringify(page).slice(0, 200)}`
        return page.storeTotal === ALL_EMAILS.length && page.unread === DELIVERED.length
      },
      { timeoutMs: 15_000, intervalMs: 150, detail: () => `${last}; ${server.log()}` },
    )
    // The attachment files are written by the seed, not by MailDev: prove it serves them.
    for (const email of STORED.filter((e) => e.attachment)) {
      const path = `/api/email/${email.id}/attachment/${attachmentFileName(email.attachment!)}`
      const res = await fetch(`${origin}${path}`, { headers: { authorization } })
      const text = await res.text()
      if (res.status !== 200 || text !== email.attachment!.content)
        throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`)
    }
    stopper.expireAfter(lifetimeMs)
    return { origin, smtpPort: smtp, close: stopper.stop }
  })
}
