import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { monotonicFactory } from 'ulid'
import { isServiceError } from '../shared/errors'
import { dataDir, databasePath, DEFAULT_PORT } from './config'
import { DEMO_ORDERS_PATH } from './app/appHandlers'
import { DEFAULT_USER } from './demo/orders'
import { compileHarCommand, exportHarCommand, importHarCommand } from './cliHar'
import { loginCommand } from './cliLogin'
import { offerSeenLogin } from './cliSeenLogin'
import { mcpCommand } from './cliMcp'
import { SERVER_USAGE, serverCommand } from './serverCommand'
import { linkCommand, SYNC_USAGE, syncCommand } from './cliSync'
import { keepServeFile, readServeFile, type ServeFile } from './mcp/serveFile'
import { createCore, LOCAL_TENANT } from './core'
import { defaultHeadless, findChromium } from './recorder'
import { createStore } from './store/store'
import type { RecordingResult, RecordingState } from '../shared/appApi'

const USAGE = `Usage:
  sitecall serve [--port N] [--no-open]
  sitecall record --url URL --intent TEXT [--cdp ENDPOINT] [--save-login] [--json]
  sitecall keys create [--label TEXT] [--json]
  sitecall login HOST [--url URL] [--save-password] [--json]
  sitecall compile --har FILE --intent TEXT [--json]
  sitecall import-har FILE --intent TEXT [--save-login] [--json]
  sitecall export-har TRACE_ID [--out FILE] [--include-credentials]
  sitecall mcp [--apps HOST,...]     (MCP over stdio, for desktop MCP clients)
  ${SERVER_USAGE}
  ${SYNC_USAGE}

Data lives in SITECALL_HOME (now: ${dataDir()}).`

/**
 * The headless entry (docs/architecture.md "Processes"). Commands work on the data dir of SITECALL_HOME whether or not
 * `serve` runs (SQLite WAL lets several processes share the file), except the two that run the
 * engine: a second `serve` or `mcp` beside one refuses (the data dir's lock).
 * Exit codes: 0 done, 1 failed, 2 bad usage (no command, an unknown one: the usage on stderr);
 * `--help`, `-h` and `help` print the usage on stdout and exit 0.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  endQuietlyOnClosedStdout()
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  try {
    if (command === 'serve') return await serve(rest)
    if (command === 'record') return await record(rest)
    if (command === 'keys' && rest[0] === 'create') return keysCreate(rest.slice(1))
    if (command === 'login') return await loginCommand(rest)
    if (command === 'compile') return await compileHarCommand(rest)
    if (command === 'import-har') return await importHarCommand(rest)
    if (command === 'export-har') return await exportHarCommand(rest)
    if (command === 'mcp') return await mcpCommand(rest)
    if (command === 'server') return await serverCommand(rest)
    if (command === 'link') return await linkCommand(rest)
    if (command === 'sync') return await syncCommand(rest)
    process.stderr.write(
      `${command === undefined ? 'sitecall needs a command.' : `sitecall: unknown command "${command}".`}\n${USAGE}\n`,
    )
    return 2
  } catch (error) {
    const message = isServiceError(error)
      ? `${error.code}: ${error.message}`
      : (error as Error).message
    process.stderr.write(`sitecall ${command}: ${message}\n`)
    return isServiceError(error) && error.code === 'invalid_input' ? 2 : 1
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, 'no-open': { type: 'boolean' } },
  })
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port takes 0 to 65535, not ${values.port}`)
  const core = createCore({ port })
  const base = await core.listen().catch(async (error: unknown) => {
    // Refused (the data dir's lock, a taken port): nothing of this core may stay open.
    await core.close()
    throw error
  })
  // (Listening for a stop before the first line is printed: whoever reads that line may stop the
  // server at once, before the lines after it.)
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  // `sitecall mcp` started beside this process bridges to its /mcp with the owner's credential.
  const forgetServeFile = keepServeFile(core.home, base, () => core.ownerTokens.issue().token)
  // Links carry one-time codes the page trades for an owner token: the token itself never
  // appears in another process's arguments (the browser opener's, readable by any local user)
  // nor in browser history.
  const link = () => `${base}/app/?code=${core.ownerTokens.issueCode()}`
  process.stdout.write(
    `Sitecall is running at ${link()}\nAPI: ${base}/api/v1 and ${base}/v1 · data: ${core.home}\n` +
      `Demo shop to record on: ${base}${DEMO_ORDERS_PATH}/ (user ${DEFAULT_USER.username}, ` +
      `password ${DEFAULT_USER.password})\n` +
      'The link above signs in one browser once, within 10 minutes; that browser then opens ' +
      `${base}/app/ in any tab. Lost it? Stop and run \`sitecall serve\` again.\n`,
  )
  const chromium = findChromium()
  if (!chromium.path) process.stdout.write(`Recording needs Chromium: ${chromium.hint}\n`)
  // Saved logins and secrets need an open vault: say at once which mode it is in, or how to open it.
  const vault = await core.vault.open()
  process.stdout.write(`Vault: ${vault.message}\n`)
  if (!values['no-open']) openInBrowser(link())
  await stopped
  forgetServeFile()
  await core.close()
  return 0
}

async function record(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      intent: { type: 'string' },
      cdp: { type: 'string' },
      'save-login': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  })
  if (!values.url || !values.intent) {
    process.stderr.write(`sitecall record needs --url and --intent\n${USAGE}\n`)
    return 2
  }
  // Without a display the browser has no window: the recording is shown and used in the app's
  // Record page (its live view), served by this process on a free port.
  const windowless = !values.cdp && defaultHeadless()
  if (windowless) {
    const running = readServeFile(dataDir())
    if (running) return await recordInService(running, values.url, values.intent, values.json)
  }
  const core = createCore(windowless ? { port: 0 } : { rendererDir: null })
  try {
    const base = windowless ? await core.listen() : null
    // Ctrl+C (and SIGTERM) end the recording: the trace is kept and printed like a closed window.
    let sessionId: string | null = null
    let interrupted = false
    const onSignal = () => {
      interrupted = true
      if (sessionId) void core.recordings.stop(sessionId).catch(() => undefined)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    const state = await core.recordings
      .start({
        url: values.url,
        intent: values.intent,
        ...(values.cdp ? { cdpEndpoint: values.cdp } : {}),
      })
      .catch((error: unknown) => {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
        throw error
      })
    sessionId = state.sessionId
    if (interrupted) onSignal()
    process.stderr.write(
      base
        ? `Recording in a browser without a window (no display here). Watch and use it in the app: ${base}/app/?code=${core.ownerTokens.issueCode()}#/record\n(open that link in your browser; press Stop there, or Ctrl+C here, when done.${uiBuilt() ? '' : ' The web UI is not built: run `npm run build:renderer` first.'})\n`
        : 'Recording: use the browser window, then close it (or press Ctrl+C).\n',
    )
    const result = await core.recordings.finished(state.sessionId).finally(() => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    })
    const seen = result.login ?? null
    const login = await offerSeenLogin({
      command: 'record',
      offer: seen,
      save: values['save-login'] === true,
      json: values.json === true,
      vault: core.vault,
      saveLogin: (password) =>
        core.seenLogins.save(
          LOCAL_TENANT,
          result.traceId,
          seen!.host,
          password !== undefined ? { password } : {},
        ),
    })
    printRecording(result, values.json === true, login)
    return result.candidate ? 0 : 1
  } finally {
    await core.close()
  }
}

/**
 * Prints how a recording ended: `--json` one object `{traceId, candidate | explanation, login?}`
 * on stdout, else the trace id and the candidate (or what was missing) in words.
 */
function printRecording(result: RecordingResult, json: boolean, login: unknown = null): void {
  if (json) {
    const out = result.candidate
      ? { traceId: result.traceId, candidate: result.candidate }
      : { traceId: result.traceId, explanation: result.explanation }
    process.stdout.write(`${JSON.stringify(login ? { ...out, login } : out)}\n`)
  } else if (result.candidate) {
    const c = result.candidate
    process.stdout.write(
      `Trace ${result.traceId}\nCandidate ${c.name} (${c.id})\n  ${c.steps.at(-1)!.request.method} ${c.steps.at(-1)!.request.url}\n  inputs: ${Object.entries(
        c.inputs.properties,
      )
        .map(([n, s]) => `${s['x-slot']}=${n}:${String(s.type)}`)
        .join(', ')}\nVerify it in the app, or: POST /v1/tools/${c.id}/execute\n`,
    )
  } else {
    process.stdout.write(
      `Trace ${result.traceId}\nNo tool compiled: ${result.explanation?.reason}\n${result.explanation?.missing.map((m) => `  missing: ${m}`).join('\n')}\n`,
    )
  }
}

/**
 * `record` without a display while `sitecall serve` runs on the data dir (it holds the engine):
 * the recording runs in that process, whose Record page shows its live view. Starts it through
 * the app API with the owner token of the serve file, prints the page's link, and waits until it
 * ends there (Stop) or here (Ctrl+C: `recorder.stop`, whose result is printed as usual; ended
 * in the page: its trace id, the candidate being in the page). Exit 0 with a candidate, else 1.
 */
async function recordInService(
  running: ServeFile,
  url: string,
  intent: string,
  json: boolean | undefined,
): Promise<number> {
  const call = async <T>(method: string, body: unknown): Promise<T> => {
    const answer = await fetch(`${running.url}/app-api/${method}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${readServeFile(dataDir())?.token ?? running.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    })
    const reply = (await answer.json()) as
      { ok: true; value: T } | { ok: false; error: { code: string; message: string } }
    if (!reply.ok) throw new Error(reply.error.message)
    return reply.value
  }
  const state = await call<RecordingState>('recorder.start', { url, intent })
  process.stderr.write(
    `Recording in the running Sitecall (pid ${running.pid}), in a browser without a window (no display here). Watch and use it in the app: ${running.url}/app/#/record\n(open it in the browser you use Sitecall in; press Stop there, or Ctrl+C here, when done.)\n`,
  )
  // (An object, not a variable: it is set by the signal handler, between the loop's turns.)
  const stop: { asked: Promise<RecordingResult> | null } = { asked: null }
  const onSignal = () => {
    stop.asked ??= call<RecordingResult>('recorder.stop', { sessionId: state.sessionId })
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    for (;;) {
      if (stop.asked) {
        const result = await stop.asked
        printRecording(result, json === true)
        return result.candidate ? 0 : 1
      }
      const current = await call<RecordingState | null>('recorder.current', {})
      if (current?.sessionId !== state.sessionId) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  process.stdout.write(
    json
      ? `${JSON.stringify({ traceId: state.traceId })}\n`
      : `Trace ${state.traceId}\nEnded in the app: its Record page shows the candidate.\n`,
  )
  return 0
}

function keysCreate(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: { label: { type: 'string' }, json: { type: 'boolean' } },
  })
  const store = createStore(databasePath(dataDir()))
  try {
    const ulid = monotonicFactory()
    const { key } = store.keys.create(
      { id: `key_${ulid()}`, tenant: LOCAL_TENANT, label: values.label ?? 'cli' },
      Date.now(),
    )
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ key })}\n`
        : `${key}\nCopy it now: it is stored hashed and will not be shown again.\n`,
    )
    return 0
  } finally {
    store.close()
  }
}

/** Whether the web UI is built (`out/renderer`), which the windowless recording link opens. */
function uiBuilt(): boolean {
  return existsSync(fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url)))
}

/**
 * Output piped into a reader that stops early (`sitecall export-har ID | head`) closes stdout:
 * the next write fails with EPIPE, which Node raises as an unhandled 'error' event (a crash with
 * a stack). The reader has all it wanted, so the command ends at once, quietly, with exit code 0,
 * as POSIX tools killed by SIGPIPE are treated by shells without `pipefail`.
 */
function endQuietlyOnClosedStdout(): void {
  if (stdoutGuarded) return
  stdoutGuarded = true
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
}
let stdoutGuarded = false

/** Opens the UI in the person's browser where there is a desktop; silently skips elsewhere. */
function openInBrowser(url: string): void {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]]
  const child = spawn(cmd, args as string[], { detached: true, stdio: 'ignore' })
  child.on('error', () => undefined)
  child.unref()
}
