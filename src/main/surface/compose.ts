import type { ComposeBody } from '../../shared/composeSchemas'
import { isServiceError, ServiceError, type ErrorBody, type ErrorCode } from '../../shared/errors'
import type { RunEngine } from '../engine/runEngine'
import { hashInputs } from '../engine/inputsHash'
import type { ReceiptRepository } from '../store/receiptRepository'
import type { ToolRepository } from '../store/toolRepository'
import type { ToolScope } from './toolsInScope'
import { composeCallResult, refusedCall, type ComposeCallResult } from './composeOutcome'
import { planCompose, resolveInputs, type AnsweredSteps, type PlannedCall } from './composePlan'

/** How one step of a `steps` request ended. */
type ComposeStepStatus = 'succeeded' | 'failed' | 'refused' | 'unknown' | 'not_run'

/** One step as the answer reports it: exactly what ran, and how it ended. */
interface ComposeStepReport {
  step: number
  app: string
  tool: string
  /**
   * `succeeded` with `data`; `failed`: it ran and failed (nothing more may be assumed sent than
   * its run says); `unknown`: it may have changed the site (past the deadline, or a write whose
   * answer was lost; never sent again by itself); `refused`: nothing was sent; `not_run`: after
   * the first step that did not succeed.
   */
  status: ComposeStepStatus
  runId?: string
  data?: unknown
  code?: ErrorCode
  error?: ErrorBody
}

/** The compose envelope (interface.md "Capacity and timing" `upstream_timeout`). */
type ComposeEnvelope =
  | { ok: true; data: unknown; runId: string; steps?: ComposeStepReport[] }
  | {
      ok: false
      code: ErrorCode
      error: ErrorBody
      runId?: string
      /** Present when the site may have been changed: check it before repeating. */
      outcome?: 'unknown'
      signIn?: { url: string }
      steps?: ComposeStepReport[]
    }

/** An answer of the compose call: its HTTP status and envelope. */
export interface ComposeAnswer {
  status: number
  body: ComposeEnvelope
  /** Seconds, for the `Retry-After` header of a `browser_capacity` refusal. */
  retryAfterSeconds?: number
}

export interface ComposeDeps {
  engine: Pick<RunEngine, 'call'>
  /** The tools of a caller's workspace (`Store.toolsFor`: an end user works in its org's). */
  toolsFor: (tenant: string) => Pick<ToolRepository, 'get' | 'getByName' | 'list'>
  /** Where Idempotency-Keys are bound to their body; null where callers send none (MCP). */
  receipts: Pick<ReceiptRepository, 'put'> | null
  clock: () => number
}

export interface ComposeRequest {
  /** The run's workspace (an org key's end user has its own). */
  tenant: string
  /** The connection's tool scopes: every call's tool must be in each. */
  scopes: ToolScope[]
  body: ComposeBody
  /** The caller's Idempotency-Key in its namespace (`compose:<key>`, see `callKey`), or null. */
  idempotencyKey: string | null
  /** The deadline of the whole request, in ms. */
  deadlineMs: number
}

/**
 * The compose call (interface.md "C" `POST /api/v1/compose/v1/call`; its body: docs/api-guide.md "Compose"): one
 * tool called by app and name through the engine's one call operation, as surface A calls it
 * (verified tools only, billed one credit when it succeeds, scopes and end users honoured), but
 * synchronous and never asking: a write needs `allow_mutation`, a missing input is refused.
 * Answers `{ok: true, data, runId}` or `{ok: false, code, error, runId?, outcome?}` with the
 * status of `code` (see `composeCallResult`). With `steps`, the calls run in order, each
 * `{"$from": path}` input read from the earlier results, stopping at the first that does not
 * succeed; the answer lists every step. Refusals before anything is sent are thrown
 * (`planCompose`; 409 `idempotency_conflict` when the key was used with another body). The
 * Idempotency-Key makes a repeat join each step's run instead of sending again.
 */
export async function compose(deps: ComposeDeps, request: ComposeRequest): Promise<ComposeAnswer> {
  const plan = planCompose(request.body, deps.toolsFor(request.tenant), request.scopes)
  const key = request.idempotencyKey
  if (key !== null) claimKey(deps, request.tenant, key, request.body)
  const until = deps.clock() + request.deadlineMs
  const answered: AnsweredSteps = { steps: [] }
  const reports: ComposeStepReport[] = []
  let last: ComposeCallResult | null = null
  for (const call of plan.calls) {
    last = await runCall(deps, request, call, answered, until, plan.stepped)
    reports.push(reportOf(call, last))
    if (!last.ok) break
    answered.steps.push({ data: last.data, runId: last.runId })
  }
  for (const call of plan.calls.slice(reports.length))
    reports.push({ step: call.index, app: call.app, tool: call.tool.name, status: 'not_run' })
  return envelope(last!, plan.stepped ? reports : null)
}

/** Runs one call; a refusal of a single call is thrown, a step's becomes its result. */
async function runCall(
  deps: ComposeDeps,
  request: ComposeRequest,
  call: PlannedCall,
  answered: AnsweredSteps,
  until: number,
  stepped: boolean,
): Promise<ComposeCallResult> {
  try {
    const inputs = resolveInputs(call, answered)
    const outcome = await deps.engine.call({
      tool: { tool: call.tool },
      inputs,
      tenant: request.tenant,
      idempotencyKey:
        request.idempotencyKey === null ? null : `${request.idempotencyKey}#${call.index}`,
      // A step that starts at the deadline still gets a moment: it is then reported unknown.
      deadlineMs: Math.max(1, until - deps.clock()),
      mayAsk: false,
      allowMutation: call.allowMutation,
      billOnSuccess: true,
    })
    return composeCallResult(outcome)
  } catch (error) {
    if (!stepped || !isServiceError(error)) throw error
    return refusedCall(
      new ServiceError(
        error.code,
        `steps[${call.index}]: ${error.message}`,
        { ...error.details, step: call.index },
        error.status as never,
      ),
    )
  }
}

function reportOf(call: PlannedCall, result: ComposeCallResult): ComposeStepReport {
  const base = { step: call.index, app: call.app, tool: call.tool.name }
  if (result.ok) return { ...base, status: 'succeeded', runId: result.runId, data: result.data }
  const status: ComposeStepStatus =
    result.runId === null ? 'refused' : result.unknown ? 'unknown' : 'failed'
  return {
    ...base,
    status,
    ...(result.runId !== null ? { runId: result.runId } : {}),
    code: result.error.code,
    error: result.error.toBody(),
  }
}

/** The envelope of the last call that ran (the whole request's answer), with the step reports. */
function envelope(last: ComposeCallResult, steps: ComposeStepReport[] | null): ComposeAnswer {
  const listed = steps ? { steps } : {}
  if (last.ok)
    return { status: 200, body: { ok: true, data: last.data, runId: last.runId, ...listed } }
  const { error } = last
  const retryAfter = error.details.retryAfterSeconds
  return {
    status: error.status,
    body: {
      ok: false,
      code: error.code,
      error: error.toBody(),
      ...(last.runId !== null ? { runId: last.runId } : {}),
      ...(last.unknown ? { outcome: 'unknown' as const } : {}),
      ...(last.signIn ? { signIn: last.signIn } : {}),
      ...listed,
    },
    ...(typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}),
  }
}

/**
 * Binds an Idempotency-Key (`compose:<key>`, beside the account API's operation keys in the
 * receipts) to this body: the same key with another body is 409 `idempotency_conflict`
 * before anything runs, so a repeat never starts a step the first request did not have. The
 * deadline is not part of what the key binds.
 */
function claimKey(deps: ComposeDeps, tenant: string, key: string, body: ComposeBody): void {
  if (!deps.receipts)
    throw new ServiceError('invalid_input', 'This connection takes no Idempotency-Key.')
  const { timeoutMs: _deadline, ...bound } = body
  const inputHash = hashInputs(bound)
  const now = deps.clock()
  const { receipt } = deps.receipts.put({
    tenant,
    opKey: key,
    operation: 'compose',
    inputHash,
    status: 'completed',
    cost: 0,
    result: {},
    createdAt: now,
    updatedAt: now,
  })
  if (receipt.inputHash !== inputHash)
    throw new ServiceError(
      'idempotency_conflict',
      'This Idempotency-Key was used with a different compose body: use a new key for a new call.',
    )
}
