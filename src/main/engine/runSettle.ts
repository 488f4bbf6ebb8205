import type { RunStatus } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import { encodeResult } from '../store/resultCodec'
import { asStored, type RunEffect, type RunPatch, type RunRecord } from '../store/runRepository'
import type { EngineState, ViaOutcome } from './engineState'
import type { ExecutionOutcome } from './httpExecutor'

/**
 * Records what a `working` run came to (interface.md "Run status"): `succeeded` with its result stored
 * once, its credit and its tool's health in one transaction; `outcome_unknown` for a write whose
 * answer was lost; else `failed` with the code (a sign-in link when a login is missing, when to
 * retry a `browser_capacity` refusal) and a failure on the tool's streak. Every secret the run
 * resolved is redacted first (`redact`). A run a cancel overtook stays cancelled, unbilled, with
 * every request it sent as `effects`.
 */
export async function settle(
  state: EngineState,
  tool: ToolSpec,
  run: RunRecord,
  executed: ViaOutcome,
  effects: RunEffect[],
  redact: <T>(value: T) => T,
): Promise<RunRecord> {
  const { deps, quarantine, move } = state
  // A secret's value never stays on a run: not in its result, its error or its effects.
  const outcome = withoutSecrets(executed, redact)
  const common = { from: ['working'] as RunStatus[], finished: true, effects }
  const via = outcome.via ? { via: outcome.via } : {}
  // A cancel won the race: the run stays cancelled, unbilled, and keeps every request that went
  // out, including the one whose answer the cancel cut off (interface.md "Run status": cancelled).
  const lostToCancel = (): RunRecord => {
    const current = deps.runs.get(run.runId)!
    if (current.status !== 'cancelled' || current.effects.length >= effects.length) return current
    return move(run.runId, { status: 'cancelled', from: ['cancelled'], effects }) ?? current
  }
  if (outcome.ok) {
    // Stored once: the bytes the site answered when the result is that answer, else one
    // serialization; compressed above a size.
    const resultText = outcome.text ?? JSON.stringify(outcome.result ?? null)
    const stored = await encodeResult(resultText, outcome.bytes)
    // One transaction for the success, its credit and the tool's health, its commit shared
    // with the other runs ending in this turn of the event loop. Charged
    // only once the run is succeeded, so a run a cancel overtook is never billed; a run
    // succeeds once, so it is charged once (interface.md "Run status": only succeeded bills). `billed`
    // on the run is the charge's record, so it is set only when the balance covers it.
    const patch = {
      status: 'succeeded' as const,
      result: outcome.text === undefined ? asStored(outcome.result, resultText) : outcome.result,
      resultText,
      ...(outcome.bytes ? { resultBytes: outcome.bytes } : {}),
      stored,
      ...via,
      ...common,
    }
    const ledger = run.billOnSuccess ? deps.ledger : undefined
    const done =
      deps.runs.succeed && deps.health && tool.status === 'verified'
        ? // A verified tool's success on a store that records it whole in one statement: the
          // run, its credit and the tool's health (PostgreSQL: one round trip, the tool's
          // status read with it). The quarantine only reads the tool's status then.
          succeedAtOnce(state, tool, run, patch, !!ledger)
        : await deps.runs.atomicallySoon(() => {
            // The quarantine's read of the tool rides with the balance's (PostgreSQL).
            deps.readAhead?.runEnd(run.tenant)
            const billed = !!ledger && ledger.usage(run.tenant, deps.clock()).balance >= 1
            const succeeded = deps.runs.transition(run.runId, { ...patch, billed }, deps.clock())
            if (!succeeded) return null
            // The balance was read in this transaction: nothing waits for the charge's answer.
            if (billed) ledger?.chargeRunSoon(run.tenant, deps.clock())
            quarantine.succeeded(tool, run.inputs, run.tenant)
            return succeeded
          })
    if (!done) return lostToCancel()
    state.notify(done)
    return done
  }
  if (outcome.code === 'outcome_unknown')
    return (
      move(run.runId, {
        status: 'outcome_unknown',
        error: { code: 'upstream_error', message: outcome.message },
        ...via,
        ...common,
      }) ?? lostToCancel()
    )
  const signIn =
    'signIn' in outcome && outcome.signIn
      ? {
          url:
            ('signInUrl' in outcome && outcome.signInUrl) ||
            (deps.mintSignInLink
              ? deps.mintSignInLink(run.tenant, tool.siteHost)
              : `${new URL(tool.steps[0]!.request.url).origin}/`),
        }
      : null
  // A browser_capacity failure keeps when to retry and whether it queued (503 vs 429).
  const capacity =
    outcome.code === 'browser_capacity'
      ? pick(outcome as unknown as Record<string, unknown>, ['retryAfterSeconds', 'waited'])
      : {}
  const failed = move(run.runId, {
    status: 'failed',
    error: { code: outcome.code, message: outcome.message, ...capacity },
    signIn,
    ...via,
    ...common,
  })
  if (!failed) return lostToCancel()
  quarantine.failed(tool, outcome.code, run.tenant)
  return failed
}

/**
 * Records a verified tool's success through `RunRepository.succeed` (the run, its credit when
 * `bill` and the balance covers it, the tool's health: together or not at all), then lets the
 * quarantine see the tool's current status (a tool quarantined while the run worked is let out).
 * Null when a cancel overtook the run (nothing charged or recorded).
 */
function succeedAtOnce(
  state: EngineState,
  tool: ToolSpec,
  run: RunRecord,
  patch: RunPatch,
  bill: boolean,
): RunRecord | null {
  const { deps, quarantine } = state
  deps.readAhead?.runEnd(run.tenant)
  const succeeded = deps.runs.succeed!(
    run.runId,
    patch,
    bill ? { tenant: run.tenant } : null,
    { toolId: tool.id, inputs: run.inputs },
    deps.clock(),
  )
  if (succeeded) quarantine.succeeded(tool, run.inputs, run.tenant, true)
  return succeeded
}

/**
 * `outcome` with every secret the run resolved replaced (`redact`). The site's own text and
 * bytes are left out of the walk and dropped once anything was redacted: they would still hold
 * the value, so the result is then serialized anew.
 */
function withoutSecrets<T extends ExecutionOutcome>(outcome: T, redact: <V>(value: V) => V): T {
  if (!outcome.ok || (outcome.text === undefined && outcome.bytes === undefined))
    return redact(outcome)
  const { text: _text, bytes: _bytes, ...judged } = outcome
  const redacted = redact(judged)
  return redacted === judged ? outcome : (redacted as T)
}

function pick(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]))
}
