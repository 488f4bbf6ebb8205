import { isServiceError } from '../../shared/errors'
import type { RunStatus } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunEffect, RunRecord } from '../store/runRepository'
import type { DelegatedOutcome, EngineState, ViaOutcome } from './engineState'
import { executeHttp, type RunContext } from './httpExecutor'
import { settle } from './runSettle'

/** A run that has not ended: it may be sent (again) or is being sent. */
export const RUNNING: RunStatus[] = ['accepted', 'working']

/**
 * Starts `execute` in the background once the run is `persisted` (queued per workspace when
 * serialized). The promise settles with the run once it is final or waits on a person, and
 * never rejects: a fault of the engine ends the run `failed` with `worker_lost`.
 */
export function launch(
  state: EngineState,
  tool: ToolSpec,
  run: RunRecord,
  serialize: boolean,
  persisted: Promise<void> = Promise.resolve(),
): Promise<RunRecord> {
  const { chains, inFlight, deps } = state
  const go = () => persisted.then(() => execute(state, tool, run))
  let done: Promise<RunRecord>
  if (serialize) {
    const previous = chains.get(run.tenant) ?? Promise.resolve()
    done = previous.then(go, go)
    chains.set(run.tenant, done)
  } else done = go()
  const settled = done
    .catch((error: unknown) => {
      const lost = { code: 'worker_lost' as const, message: String(error) }
      try {
        const failed = state.move(run.runId, {
          status: 'failed',
          error: lost,
          from: RUNNING,
          finished: true,
        })
        // A run whose insert failed is on no disk: it ends here, in memory, having sent nothing.
        return (
          failed ?? deps.runs.get(run.runId) ?? { ...run, status: 'failed' as const, error: lost }
        )
      } catch {
        // The store closed under the run (shutdown): it stays in flight on disk, and the next
        // start's recover() settles it; `done` must still never reject.
        return run
      }
    })
    .finally(() => {
      inFlight.delete(run.runId)
      if (chains.get(run.tenant) === done) chains.delete(run.tenant)
    })
  inFlight.set(run.runId, settled)
  return settled
}

/**
 * Runs an `accepted` run to its end: sends it with the tool's executor (signing in again once
 * when a saved login's session expired), then records what it came to (`settle`). Every
 * transition is guarded so a cancel wins.
 */
async function execute(state: EngineState, tool: ToolSpec, run: RunRecord): Promise<RunRecord> {
  const { deps, controllers, sentBy } = state
  // A read starts out `working` (see `startRun`); a write or a resumed run moves there now.
  if (run.status !== 'working') {
    const working = state.move(run.runId, { status: 'working', from: ['accepted'] })
    if (!working) return deps.runs.get(run.runId)!
  }
  const controller = new AbortController()
  controllers.set(run.runId, controller)
  const delegated = deps.delegate?.(run, tool)
  if (delegated) return executeElsewhere(state, tool, run, delegated, controller)
  const effects: RunEffect[] = []
  sentBy.set(run.runId, effects)
  let outcome: ViaOutcome
  const secrets = deps.secrets?.forRun(run.tenant)
  const redact = <T>(value: T): T => (secrets ? secrets.redact(value) : value)
  let hadLogin = false
  let savedNothing = false
  try {
    const attempt = async (): Promise<ViaOutcome> => {
      const login = deps.logins
        ? await deps.logins.load(run.tenant, tool.siteHost)
        : { state: null, locked: null }
      if (login.locked && needsLogin(tool))
        return { ok: false, code: 'session_or_permission', message: login.locked }
      const context: RunContext = {
        login: login.state,
        ...(login.httpCredentials ? { httpCredentials: login.httpCredentials } : {}),
        ...(secrets ? { secrets } : {}),
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
        onSent: (sent) =>
          effects.push(redact({ ...sent, at: new Date(deps.clock()).toISOString() })),
      }
      hadLogin = login.state !== null
      savedNothing = !hadLogin && !login.locked && !login.httpCredentials
      const scope = state.validator.toScope(tool, run.inputs)
      return runVia(state, tool, scope, context, controller.signal)
    }
    outcome = await attempt()
    // An expired session of a saved login: sign in again by itself, then retry once.
    // A 401 or a redirect to sign-in means the site refused the request, so nothing landed.
    if (
      !outcome.ok &&
      outcome.code === 'session_or_permission' &&
      'signIn' in outcome &&
      hadLogin &&
      deps.relogin &&
      !controller.signal.aborted
    ) {
      const again = await deps.relogin(run.tenant, tool).catch((error: unknown) => {
        if (isServiceError(error) && error.code === 'mfa_required')
          return {
            ok: false as const,
            code: 'mfa_required' as const,
            message: error.message,
            signIn: true,
          }
        return false
      })
      if (again === true) outcome = await attempt()
      else if (again) outcome = again
    }
    if (savedNothing) outcome = missingLogin(state, tool, outcome, effects)
  } catch (error) {
    outcome = { ok: false, code: 'upstream_error', message: `Executor fault: ${String(error)}` }
  } finally {
    controllers.delete(run.runId)
    sentBy.delete(run.runId)
  }
  return settle(state, tool, run, outcome, effects, redact)
}

/**
 * Settles a run executed elsewhere (`RunEngineDeps.delegate`: a team server's device): what it
 * came to there is settled as here (billing, tool health), secrets already redacted where it
 * ran; nobody taking it before its deadline ends it `expired` (error `worker_lost` naming who).
 */
async function executeElsewhere(
  state: EngineState,
  tool: ToolSpec,
  run: RunRecord,
  delegated: (signal: AbortSignal) => Promise<DelegatedOutcome>,
  controller: AbortController,
): Promise<RunRecord> {
  let done: DelegatedOutcome
  try {
    done = await delegated(controller.signal)
  } finally {
    state.controllers.delete(run.runId)
  }
  if ('expired' in done)
    return (
      state.move(run.runId, {
        status: 'expired',
        error: { code: 'worker_lost', message: done.expired },
        from: RUNNING,
        finished: true,
      }) ?? state.deps.runs.get(run.runId)!
    )
  return settle(state, tool, run, done.outcome, [...done.effects], (value) => value)
}

/**
 * Dispatches to the executor of the tool's `via`; a read whose HTTP answer was a bot check is
 * tried once more in the browser.
 */
async function runVia(
  state: EngineState,
  tool: ToolSpec,
  scope: Record<string, unknown>,
  context: RunContext,
  signal: AbortSignal,
): Promise<ViaOutcome> {
  const rendered = state.deps.executeRendered
  if (tool.via === 'rendered') {
    if (!rendered)
      return {
        ok: false,
        code: 'browser_capacity',
        message:
          'This tool needs a browser and none is configured: point SITECALL_CHROMIUM at one.',
      }
    return { ...(await rendered(tool, scope, context, signal)), via: 'rendered' }
  }
  const outcome = await executeHttp(tool, scope, state.send, signal, context)
  if (!outcome.ok && outcome.code === 'challenge' && !tool.mutating && rendered)
    return { ...(await rendered(tool, scope, context, signal)), via: 'rendered' }
  return outcome
}

/** Failures that say the answer is not what was recorded, which a missing login also causes. */
const NOT_AS_RECORDED = new Set(['schema_or_auth_drift', 'outcome_not_verified'])

/**
 * A run made with no login saved for its tool's site (interface.md "Why a run failed":
 * `session_or_permission`, "`signIn.url` present when no login is saved"): when its tool needs a
 * login (bound to one, or compiled from requests that carried one) and the site answered
 * something other than what was recorded (drift, an unverified answer, or a redirect where data
 * used to be), the missing login is the failure, with a sign-in link, never
 * `schema_or_auth_drift`. The site's own answer stays in the message. Other outcomes pass.
 */
export function missingLogin(
  state: EngineState,
  tool: ToolSpec,
  outcome: ViaOutcome,
  effects: RunEffect[],
): ViaOutcome {
  if (outcome.ok) return outcome
  const last = effects.at(-1)?.status ?? null
  const redirected = outcome.code === 'upstream_error' && last !== null && last >= 300 && last < 400
  if (!NOT_AS_RECORDED.has(outcome.code) && !redirected) return outcome
  if (!needsLogin(tool) && !state.deps.recordedWithLogin?.(tool)) return outcome
  return {
    ...(outcome.via ? { via: outcome.via } : {}),
    ok: false,
    code: 'session_or_permission',
    message: `${tool.siteHost} needs a login and none is saved: sign in (signIn.url), then call again. The site answered: ${outcome.message}`,
    signIn: true,
  }
}

/** True when the tool takes cookies or values from its site's saved login. */
function needsLogin(tool: ToolSpec): boolean {
  const login = tool.login
  return !!login && (login.cookies.length > 0 || login.values.length > 0 || !!login.httpAuth)
}
