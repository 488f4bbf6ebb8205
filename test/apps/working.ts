/**
 * The working-tools check of the real-app corpus (issue 9 "Measured"): a stored recording of a
 * workflow, moved to a live instance of its app, compiled, saved with the user's login, and run
 * through a real core's run engine with the answer key's changed values; the key's `check` then
 * reads the app to see that the tool did what the person did.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, LOCAL_TENANT } from '../../src/main/core'
import type { StorageState } from '../../src/shared/trace'
import { saveTestLogin, TEST_VAULT_ENV } from '../integration/logins/loginHelpers'
import { compileStored, inputFor, type StoredWorkflow } from './corpus'
import type { RecordingPath } from './store'
import type { AppInstance } from './types'

export interface WorkingVerdict {
  working: boolean
  /** The run's status and error code, or why no run happened. */
  detail: string
}

/** The time step of a TOTP code (RFC 6238 §4.1 default X = 30 s), ms. */
const TOTP_STEP_MS = 30_000

/** How long one tool run may take before the check calls it broken, ms. */
const RUN_TIMEOUT_MS = 60_000

/**
 * Compiles `entry`'s `path` recording against the live `inst`, runs the tool once with the key's
 * changed values (`changed[0]` for the recording, `changed[1]` for the HAR, so writes never
 * collide), and judges it with the key's `check`. Never throws: a failure is a verdict.
 */
export async function checkWorking(
  entry: StoredWorkflow,
  path: RecordingPath,
  inst: AppInstance,
  session: StorageState,
): Promise<WorkingVerdict> {
  const compiled = compileStored(entry, path, { origin: inst.origin })
  if (!compiled) return { working: false, detail: 'not recorded' }
  if (!compiled.ok)
    return { working: false, detail: `no candidate: ${compiled.explanation.reason}` }
  const tool = compiled.candidate
  const key = entry.workflow.key
  const index = path === 'recording' ? 0 : 1
  const inputs: Record<string, unknown> = {}
  const used: Array<string | number | boolean> = []
  const taken = new Set<string>()
  for (const input of key.inputs) {
    const name = inputFor(tool, input.recorded, taken, input.secret)
    if (!name)
      return { working: false, detail: `no input carries ${JSON.stringify(input.recorded)}` }
    taken.add(name)
    // The caller gives each value in the slot's declared type, as an agent reading the schema
    // would (an issue number for a string slot is sent as "7").
    const type = tool.inputs.properties[name]!.type
    const value = input.changed[index]
    inputs[name] = type === 'string' ? String(value) : value
    used.push(input.changed[index])
  }
  // A file input with no recorded bytes (a plain HAR) takes the file the person uploaded.
  for (const [name, schema] of Object.entries(tool.inputs.properties))
    if (key.file && schema.contentEncoding === 'base64' && schema.default === undefined)
      inputs[name] ??= Buffer.from(key.file).toString('base64')
  const home = mkdtempSync(join(tmpdir(), 'sitecall-apps-run-'))
  const core = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, ...TEST_VAULT_ENV },
  })
  try {
    // The site's login as a person saves it: the session, and the user name and password, which
    // a sign-in tool sends as the secrets `login.<host>.username` / `.password`.
    await saveTestLogin(core, LOCAL_TENANT, tool.siteHost, session)
    const person = key.login ?? { username: inst.user.name, password: inst.user.password }
    await core.logins.save(LOCAL_TENANT, tool.siteHost, session, {
      credentials: { username: person.username, password: person.password },
      ...(key.login?.totpSeed ? { totpSeed: key.login.totpSeed } : {}),
    })
    core.store.tools.save(tool)
    // A site refuses a TOTP code used twice (RFC 6238 §5.2): a sign-in with a second factor
    // starts in a fresh 30-second step, so the HAR's run never reuses the recording's code.
    if (key.login?.totpSeed)
      await new Promise((resolve) =>
        setTimeout(resolve, TOTP_STEP_MS - (Date.now() % TOTP_STEP_MS)),
      )
    const started = core.engine.start(tool, inputs, {
      tenant: LOCAL_TENANT,
      allowMutation: true,
      mayAsk: false,
    })
    const run = await Promise.race([
      started.done,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), RUN_TIMEOUT_MS).unref()),
    ])
    if (!run) return { working: false, detail: `no answer within ${RUN_TIMEOUT_MS} ms` }
    const code = run.error?.code ? ` ${run.error.code}` : ''
    if (run.status !== 'succeeded')
      return {
        working: false,
        detail: `${run.status}${code}: ${run.error?.message ?? ''}`.slice(0, 300),
      }
    const problem = await key.check(inst, { status: run.status, result: run.result }, session, used)
    return problem
      ? { working: false, detail: `wrong answer: ${problem}` }
      : { working: true, detail: 'succeeded' }
  } catch (error) {
    return { working: false, detail: `error: ${(error as Error).message}` }
  } finally {
    await core.close()
    rmSync(home, { recursive: true, force: true })
  }
}
