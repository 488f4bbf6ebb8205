import { randomUUID } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { monotonicFactory } from 'ulid'
import type { CompileExplanation, LoginOffer } from '../shared/appApi'
import { ServiceError } from '../shared/errors'
import type { ToolSpec } from '../shared/toolSpec'
import type { Trace } from '../shared/trace'
import { compileTrace } from './compiler'
import { dataDir, databasePath } from './config'
import { exportHar, importHarFile } from './recorder/har'
import { createStore, type Store } from './store/store'
import { TRACE_CREDENTIALS, withoutCredentials } from './store/traceCredentials'
import { createKeychain, createVault, type Vault } from './vault'
import { createSiteLogins } from './logins/siteLogins'
import { createSeenLogins } from './logins/seenLogins'
import { offerSeenLogin } from './cliSeenLogin'
import { LOCAL_TENANT } from './core'
import { safeJson } from '../shared/safeJson'

/** The CLI contract's answer: scripts parse this; keep it stable. */
type CompileOutput =
  | {
      traceId?: string
      /** Its `evidence.confidence` (0..1) says how sure the target is. */
      candidate: ToolSpec
      target: { method: string; url: string; body: string | null }
      alternatives: Array<{ method: string; url: string; score: number; signals: string[] }>
    }
  | { traceId?: string; explanation: CompileExplanation }

/** `import-har` adds the login the HAR showed (never a secret value), when it showed one. */
type ImportOutput = CompileOutput & { login?: LoginOffer }

const MAX_ALTERNATIVES = 5

/**
 * HAR files over this size are refused. Entries are streamed, but every
 * exchange's bodies stay in memory to compile: about 4.7 bytes of memory per byte of HAR
 * (a 100 MB HAR peaked at 466 MB RSS), so 200 MB stays under 1 GB, inside Node's default heap on
 * small machines, where 400 MB ran out of memory.
 */
export const MAX_HAR_BYTES = 200 * 1024 * 1024

/**
 * `sitecall compile --har FILE --intent TEXT [--json]`: imports the HAR (streamed) and compiles
 * it without touching a data dir. Prints one JSON object (`CompileOutput`) with `--json`, else a
 * short summary. Returns 0 with a candidate, 1 with an explanation; bad usage, an unreadable or
 * invalid file and a file over `MAX_HAR_BYTES` throw 400 `invalid_input` (exit 2).
 */
export async function compileHarCommand(args: string[]): Promise<number> {
  const { file, intent, json } = harArgs('compile', args)
  const ulid = monotonicFactory()
  const trace = await importHarFile(file, { traceId: `trc_${ulid()}`, intent, now: Date.now() })
  const output = compileOutput(trace, compileTrace(trace, compileOptions(intent)))
  print(output, json)
  return 'candidate' in output ? 0 : 1
}

/**
 * `sitecall import-har FILE --intent TEXT [--save-login] [--json]`: as `compile`, and also stores
 * the trace and the candidate (named uniquely on its site) in the data dir of SITECALL_HOME, so
 * the candidate can be verified and run. The output carries `traceId`, and `login` when the HAR
 * shows a login to the site (logins seen are kept: HTTP Basic/Digest, cookies, a bearer token): with
 * `--save-login` it is saved as the site's login, sealed in the vault (opened by the keychain or
 * SITECALL_PASSPHRASE; a locked vault keeps nothing, and says so); without it stderr says how.
 */
export async function importHarCommand(args: string[]): Promise<number> {
  const { file, intent, json, saveLogin } = harArgs('import-har', args)
  const ulid = monotonicFactory()
  const trace = await importHarFile(file, { traceId: `trc_${ulid()}`, intent, now: Date.now() })
  const store = createStore(databasePath(dataDir()))
  try {
    // The vault is opened only to save the login: it also seals the trace's credentials then.
    const vault = dataDirVault(store)
    if (saveLogin) await unsealWithVault(store, vault, false)
    store.traces.save(trace)
    const compiled = compileTrace(trace, compileOptions(intent))
    if (compiled.ok) {
      const { candidate } = compiled
      candidate.name = store.tools.uniqueName(candidate.siteHost, candidate.name)
      candidate.capabilityId = `${candidate.siteHost}/${candidate.name}`
      store.tools.save(candidate)
    }
    const site = compiled.ok
      ? compiled.candidate.siteHost
      : URL.canParse(trace.startUrl)
        ? new URL(trace.startUrl).host
        : null
    const logins = createSiteLogins({
      repo: store.logins,
      vault,
      clock: Date.now,
    })
    const seen = createSeenLogins({ logins, traces: store.traces })
    const offer = site ? await seen.note(LOCAL_TENANT, trace, site) : null
    const login = await offerSeenLogin({
      command: 'import-har',
      offer,
      save: saveLogin,
      json,
      vault,
      saveLogin: (password) =>
        seen.save(LOCAL_TENANT, trace.id, offer!.host, password !== undefined ? { password } : {}),
    })
    const output = {
      traceId: trace.id,
      ...compileOutput(trace, compiled),
      ...(login ? { login } : {}),
    }
    print(output, json)
    return 'candidate' in output ? 0 : 1
  } finally {
    store.close()
  }
}

/**
 * `sitecall export-har TRACE_ID [--out FILE] [--include-credentials]`: writes a stored trace as
 * HAR 1.2 to the file, or to stdout. Cookie, Set-Cookie and Authorization values, URL userinfo
 * and the storage state are left out unless `--include-credentials`, which
 * opens the vault (keychain or SITECALL_PASSPHRASE) to unseal them; values recorded while the
 * vault was locked were never kept. An unknown trace is 404 `not_found` (exit 1).
 */
export async function exportHarCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    'export-har',
    args,
    { out: { type: 'string' }, 'include-credentials': { type: 'boolean' } },
    1,
  )
  const traceId = positionals[0]
  if (!traceId) throw usage('export-har needs a TRACE_ID')
  const store = createStore(databasePath(dataDir()))
  try {
    const withCredentials = values['include-credentials'] === true
    if (withCredentials) await unsealWithVault(store)
    const stored = store.traces.get(traceId)
    if (!stored) throw new ServiceError('not_found', `No trace ${traceId} in ${dataDir()}.`)
    const trace = withCredentials ? stored : withoutCredentials(stored)
    const text = `${JSON.stringify(exportHar(trace, { version: sitecallVersion() }), null, 2)}\n`
    if (typeof values.out === 'string') {
      writeFileSync(values.out, text)
      process.stderr.write(`Wrote ${trace.exchanges.length} entries to ${values.out}\n`)
    } else process.stdout.write(text)
    return 0
  } finally {
    store.close()
  }
}

/** The data dir's vault (keychain or SITECALL_PASSPHRASE), not opened yet. */
function dataDirVault(store: Store): Vault {
  const env = process.env
  return createVault({
    secrets: store.secrets,
    keychain: env.SITECALL_KEYCHAIN === 'off' ? null : createKeychain({ env }),
    passphrase: env.SITECALL_PASSPHRASE ?? null,
    clock: Date.now,
  })
}

/**
 * Opens `vault` so the store seals and unseals trace credentials with it; says when it cannot
 * (`tell`).
 */
async function unsealWithVault(store: Store, vault = dataDirVault(store), tell = true) {
  const status = await vault.open()
  if (status.mode === 'locked' && tell)
    process.stderr.write(`Credentials stay sealed: ${status.message}\n`)
  store.traces.useSealer(() => vault.sealerFor(LOCAL_TENANT, TRACE_CREDENTIALS))
}

function compileOptions(intent: string) {
  return { toolId: randomUUID(), now: Date.now(), intent }
}

function compileOutput(trace: Trace, compiled: ReturnType<typeof compileTrace>): CompileOutput {
  if (!compiled.ok) return { explanation: compiled.explanation }
  const { candidate } = compiled
  const target = trace.exchanges.find((e) => e.id === candidate.evidence.targetExchangeId)
  return {
    candidate,
    target: {
      method: target?.method ?? candidate.steps.at(-1)!.request.method,
      url: target?.url ?? candidate.steps.at(-1)!.request.url,
      body: target?.requestBody?.text ?? null,
    },
    alternatives: candidate.evidence.alternatives.slice(0, MAX_ALTERNATIVES).map((a) => ({
      method: a.method,
      url: a.url,
      score: a.score,
      signals: a.signals ?? [],
    })),
  }
}

function print(output: ImportOutput, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(output)}\n`)
    return
  }
  const lines: string[] = []
  if (output.traceId) lines.push(`Trace ${output.traceId}`)
  if ('candidate' in output) {
    const c = output.candidate
    const inputs = Object.entries(c.inputs.properties)
      .map(([name, s]) => `${s['x-slot']}=${name}:${String(s.type)}`)
      .join(', ')
    lines.push(
      `Candidate ${c.name} (${c.mutating ? 'mutating' : 'read-only'}, confidence ${c.evidence.confidence ?? c.evidence.score})`,
      `  ${output.target.method} ${output.target.url}`,
      `  inputs: ${inputs || 'none'}`,
      ...output.alternatives.map((a) => `  alternative: ${a.method} ${a.url} (score ${a.score})`),
    )
    if (output.traceId) lines.push(`Verify it in the app, or: POST /v1/tools/${c.id}/execute`)
  } else {
    lines.push(
      `No tool compiled: ${output.explanation.reason}`,
      ...output.explanation.missing.map((m) => `  missing: ${m}`),
    )
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}

function harArgs(
  command: string,
  args: string[],
): { file: string; intent: string; json: boolean; saveLogin: boolean } {
  const { values, positionals } = parse(
    command,
    args,
    {
      har: { type: 'string' },
      intent: { type: 'string' },
      json: { type: 'boolean' },
      // `compile` stays free of side effects: it never saves a login.
      ...(command === 'import-har' ? { 'save-login': { type: 'boolean' } } : {}),
    },
    1,
  )
  const file = typeof values.har === 'string' ? values.har : positionals[0]
  const intent = typeof values.intent === 'string' ? values.intent.trim() : ''
  if (!file || !intent)
    throw usage(
      command === 'compile'
        ? 'compile needs --har FILE and --intent TEXT'
        : 'import-har needs FILE and --intent TEXT',
    )
  refuseOversized(file)
  return { file, intent, json: values.json === true, saveLogin: values['save-login'] === true }
}

/** 400 `invalid_input` for a HAR over `MAX_HAR_BYTES`, saying how to make a smaller one. */
function refuseOversized(file: string): void {
  let size: number
  try {
    size = statSync(file).size
  } catch {
    return // The import names a missing or unreadable file itself.
  }
  if (size <= MAX_HAR_BYTES) return
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
  throw new ServiceError(
    'invalid_input',
    `${file} is ${mb(size)} MB; HAR files up to ${mb(MAX_HAR_BYTES)} MB are read (the bodies are kept in memory to compile). Record just the workflow (clear the DevTools network log, do it once, save as HAR), or keep only Fetch/XHR requests.`,
  )
}

type Options = Parameters<typeof parseArgs>[0] extends infer C
  ? C extends { options?: infer O }
    ? O
    : never
  : never

function parse(command: string, args: string[], options: Options, maxPositionals: number) {
  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseArgs({ args, options, allowPositionals: true }) as typeof parsed
  } catch (error) {
    throw usage(`${command}: ${(error as Error).message}`)
  }
  if (parsed.positionals.length > maxPositionals)
    throw usage(`${command}: unexpected ${parsed.positionals.slice(maxPositionals).join(' ')}`)
  return parsed
}

function usage(message: string): ServiceError {
  return new ServiceError('invalid_input', message)
}

function sitecallVersion(): string {
  let text = ''
  try {
    text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8')
  } catch {
    // A copy without package.json beside it: no version to tell, '0.0.0' below.
  }
  const pkg = safeJson(text)
  const version = pkg && typeof pkg === 'object' && 'version' in pkg ? pkg.version : undefined
  return typeof version === 'string' ? version : '0.0.0'
}
