import { ServiceError } from '../../shared/errors'
import type { RunStatus } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import { callTool, type CallOutcome, type CallRequest } from './callTool'
import { createEngineState, type EngineState, type RunEngineDeps } from './engineState'
import { recoverRuns } from './runRecovery'
import { startRecheck, startRun, type StartedRun, type StartOptions } from './runStart'
import { expireIfDue, expireWaiting, findRun, respondToRun, type RespondBody } from './runWaiting'

export type { RenderedExecutor, RunEngineDeps } from './engineState'
export { isFinal, toPublicRun } from './publicRun'
export type { StartedRun } from './runStart'

export interface RunEngine {
  /**
   * The one call operation every surface uses (`callTool`): resolves the tool, applies
   * the status rules, starts the run and waits up to the deadline; a typed outcome, or a thrown
   * `ServiceError` for a refusal.
   */
  call(request: CallRequest): Promise<CallOutcome>
  /**
   * Starts a run of `tool` with `inputs` (by semantic name). Validates first (422
   * `unknown_argument`, 400 `invalid_input`, 402 `quota_exceeded`; nothing is persisted then),
   * persists the run, and only then sends. Missing values, ambiguous choices and unapproved writes
   * make it wait as `input_required`. The same idempotency key with the same inputs joins the
   * existing run; with other inputs it is 409 `idempotency_conflict`.
   */
  start(tool: ToolSpec, inputs: Record<string, unknown>, options: StartOptions): StartedRun
  /**
   * Answers a waiting run's requirements and continues the same run (interface.md "Answering an
   * input_required run"): 404 `not_found`, 409 `conflict` / `stale_revision` /
   * `stale_requirement` / `expired_requirement`, 422 `unknown_requirement` / `invalid_option` /
   * `invalid_answer`, 400 `invalid_input` for a malformed body.
   */
  respond(runId: string, tenant: string | null, body: RespondBody): StartedRun
  /**
   * Cancels a run that is `accepted`, `working` or `input_required` (409 `conflict` otherwise);
   * what it already sent is not undone and stays on the run as `effects`.
   */
  cancel(runId: string, tenant: string | null): RunRecord
  get(runId: string): RunRecord | null
  /**
   * After a crash or kill: runs left in flight end
   * `outcome_unknown` if they were writes already sent, fail `worker_lost` if they were writes
   * not yet sent, and are resumed if they were reads. Waiting runs past their window expire.
   */
  recover(): { resumed: number; unknown: number; lost: number; expired: number }
  /** Expires waiting runs whose requirements passed their 15 minutes; returns how many. */
  expireWaiting(): number
  /** Re-runs each quarantined read tool with its last good inputs; lifts it when it passes. */
  recheckQuarantined(): Promise<number>
  /** Resolves when every run started so far is final or waiting. */
  idle(): Promise<void>
}

const CANCELLABLE: RunStatus[] = ['accepted', 'working', 'input_required']

/**
 * Creates the run engine (docs/architecture.md "engine"): the state machine of runs over the store. A
 * run is started (`runStart`), executed (`runExecute`) and settled (`runSettle`); waiting runs
 * are answered and expired in `runWaiting`, runs left by a crash recovered in `runRecovery`.
 */
export function createRunEngine(deps: RunEngineDeps): RunEngine {
  const state = createEngineState(deps)
  const engine: RunEngine = {
    call: (request) =>
      callTool(
        { start: (...args) => engine.start(...args), tools: state.toolsOf(request.tenant) },
        request,
      ),
    start: (tool, inputs, options) => startRun(state, tool, inputs, options),
    respond: (runId, tenant, body) => respondToRun(state, runId, tenant, body),
    cancel: (runId, tenant) => cancelRun(state, runId, tenant),
    get(runId) {
      const run = deps.runs.get(runId)
      // Past its window a waiting run reads as expired, whether or not the sweep ran yet.
      return run ? expireIfDue(state, run) : null
    },
    recover: () => recoverRuns(state),
    expireWaiting: () => expireWaiting(state),
    recheckQuarantined: () =>
      state.quarantine.recheck((tool, inputs) => startRecheck(state, tool, inputs)),
    async idle() {
      while (state.inFlight.size) await Promise.allSettled([...state.inFlight.values()])
    },
  }
  return engine
}

/** Cancels a run that has not ended (`RunEngine.cancel`); what it sent stays as `effects`. */
function cancelRun(state: EngineState, runId: string, tenant: string | null): RunRecord {
  const run = findRun(state, runId, tenant)
  if (!CANCELLABLE.includes(run.status))
    throw new ServiceError('conflict', `${runId} is ${run.status}: it cannot be cancelled.`)
  const sent = state.sentBy.get(runId)
  const cancelled = state.move(runId, {
    status: 'cancelled',
    from: CANCELLABLE,
    finished: true,
    ...(sent?.length ? { effects: [...sent] } : {}),
  })
  if (!cancelled) throw new ServiceError('conflict', `${runId} finished meanwhile: GET it.`)
  state.controllers.get(runId)?.abort(new Error('cancelled'))
  return cancelled
}
