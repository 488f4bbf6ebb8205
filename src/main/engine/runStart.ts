import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import type { EngineState } from './engineState'
import { hashInputs } from './inputsHash'
import { planRequirements } from './requirements'
import { launch } from './runExecute'

/** How a run is started (`RunEngine.start`): who asks, and what the caller allows. */
export interface StartOptions {
  tenant: string
  idempotencyKey?: string | null
  deadlineMs?: number | null
  /** The caller can be asked (202 `input_required`) rather than refused; default true. */
  mayAsk?: boolean
  /** The caller confirmed a write (`allow_mutation`): no approval is asked. */
  allowMutation?: boolean
  /** Surface A: check the balance first (402) and bill one credit on success. */
  billOnSuccess?: boolean
  /** Account-API execution: one run at a time per workspace, in arrival order (spec B rule 5). */
  serialize?: boolean
}

export interface StartedRun {
  /** The run as persisted before anything was sent. */
  run: RunRecord
  /**
   * Settles once `run` is committed (its insert shares its commit with the other runs started in
   * the same event-loop turn); rejects when it could not be stored, and then nothing was sent.
   */
  persisted: Promise<void>
  /** Settles when the run is final or waits on a person (it never rejects). */
  done: Promise<RunRecord>
  /** True when an earlier call with the same Idempotency-Key owns this run. */
  joined: boolean
}

/**
 * Starts a run of `tool` with `inputs` by semantic name (`RunEngine.start`): validates first (422
 * `unknown_argument`, 400 `invalid_input`, 402 `quota_exceeded` / `insufficient_paid_credits`,
 * 403 `forbidden` for an unconfirmed write a caller cannot be asked about; nothing is stored
 * then), plans what to ask (missing values, ambiguous choices, an approval), stores the run and
 * launches it once it is on disk. The same idempotency key with the same inputs joins the
 * existing run; with other inputs it is 409 `idempotency_conflict`.
 */
export function startRun(
  state: EngineState,
  tool: ToolSpec,
  inputs: Record<string, unknown>,
  options: StartOptions,
): StartedRun {
  const { deps } = state
  state.validator.check(tool, inputs)
  const inputHash = hashInputs(inputs)
  // A candidate the compiler cautions about (architecture.md "What recorded traffic asks") is asked about even when the caller
  // allowed writes: its first run may act on the record the person recorded on.
  const caution = tool.status === 'candidate' && tool.mutating ? tool.evidence.caution : undefined
  const runId = `lrun_${deps.ulid()}`
  const asked = planRequirements(tool, inputs, {
    runId,
    revision: 1,
    now: deps.clock(),
    needsApproval: (tool.mutating && !options.allowMutation) || !!caution,
    ...(caution ? { caution } : {}),
  })
  const bills = !!options.billOnSuccess && !!deps.ledger
  const newRun = (planned: {
    inputs: Record<string, unknown>
    requirements: typeof asked.requirements
  }) => ({
    runId,
    tenant: options.tenant,
    toolId: tool.id,
    capabilityId: tool.capabilityId,
    via: tool.via,
    inputs: planned.inputs,
    inputHash,
    idempotencyKey: options.idempotencyKey ?? null,
    deadlineMs: options.deadlineMs ?? null,
    // A read that sends at once is stored `working` in the same transaction (one
    // transaction per state change); a write keeps `accepted` until it is about to send,
    // so recovery tells a write never sent (`worker_lost`) from one in flight.
    status: planned.requirements.length
      ? ('input_required' as const)
      : tool.mutating || options.serialize
        ? ('accepted' as const)
        : ('working' as const),
    mutating: tool.mutating,
    billOnSuccess: options.billOnSuccess ?? false,
    requirements: planned.requirements,
  })
  // A run with nothing to ask has nothing to refuse but a taken Idempotency-Key and a balance
  // too low, which a store whose round trips cost (PostgreSQL) checks with the run's INSERT,
  // sent with the start reads below: one round trip for both. Refused, it stored nothing and
  // the run is decided the waited way, which reads the key's run and the balance.
  const ahead = asked.requirements.length === 0 && deps.runs.createAhead ? deps.runs : null
  // The key's run, the balance and the site's login are read below: one round trip on PostgreSQL
  // (the balance only when the INSERT does not check it itself).
  deps.readAhead?.runStart(
    options.tenant,
    tool.siteHost,
    options.idempotencyKey ?? null,
    bills && !ahead,
  )
  if (ahead) {
    const made = ahead.createAhead!(newRun(asked), deps.clock(), bills ? options.tenant : null)
    if (made) return launched(state, tool, made.run, made.persisted, options)
  }
  if (options.idempotencyKey) {
    const existing = deps.runs.findByKey(options.tenant, options.idempotencyKey)
    if (existing) return joinRun(state, existing, tool, inputHash)
  }
  if (caution && options.mayAsk === false)
    throw new ServiceError('forbidden', `${tool.name} is not verified yet. ${caution}`)
  if (tool.mutating && !options.allowMutation && options.mayAsk === false)
    throw new ServiceError(
      'forbidden',
      `${tool.name} changes data on the site: send "allow_mutation": true to confirm.`,
    )
  if (options.billOnSuccess) checkCredits(state, options.tenant)
  // A write whose only question is its approval and that runs where its login is (a team
  // server's device) is approved there, by that device's person: nothing is asked here.
  const planned =
    asked.requirements.length === 1 &&
    asked.requirements[0]!.kind === 'approval' &&
    deps.approveElsewhere?.(runId, tool, options.tenant)
      ? { inputs: asked.inputs, requirements: [] }
      : asked
  // A caller that cannot be asked gets the refusal now, before anything is stored or billed.
  if (options.mayAsk === false && planned.requirements.length)
    throw new ServiceError(
      'invalid_input',
      `Invalid input: ${planned.requirements.map((r) => r.message).join(' ')}`,
    )
  const { run, created, persisted } = deps.runs.createSoon(newRun(planned), deps.clock())
  if (!created) return joinRun(state, run, tool, inputHash)
  return launched(state, tool, run, persisted, options)
}

/** A run just stored: told to the app, and launched unless it waits on a person. */
function launched(
  state: EngineState,
  tool: ToolSpec,
  run: RunRecord,
  persisted: Promise<void>,
  options: StartOptions,
): StartedRun {
  // A caller that never awaits `persisted` (a waiting run) must not leave its failure unhandled.
  persisted.catch(() => undefined)
  state.notify(run)
  if (run.status === 'input_required') return { ...settledRun(run), persisted }
  return {
    run,
    persisted,
    done: launch(state, tool, run, options.serialize ?? false, persisted),
    joined: false,
  }
}

/** A recheck run of a quarantined tool: no caller, no idempotency key, no billing. */
export function startRecheck(
  state: EngineState,
  tool: ToolSpec,
  inputs: Record<string, unknown>,
): Promise<RunRecord> {
  const { deps } = state
  state.validator.check(tool, inputs)
  const runId = `lrun_${deps.ulid()}`
  const { run } = deps.runs.create(
    {
      runId,
      tenant: 'local',
      toolId: tool.id,
      capabilityId: tool.capabilityId,
      via: tool.via,
      inputs,
      inputHash: hashInputs(inputs),
      idempotencyKey: null,
      deadlineMs: null,
      status: 'accepted',
      mutating: tool.mutating,
    },
    deps.clock(),
  )
  return launch(state, tool, run, false)
}

/** A run that needs nothing more now (final, or waiting on a person). */
export function settledRun(run: RunRecord): StartedRun {
  return { run, persisted: Promise.resolve(), done: Promise.resolve(run), joined: false }
}

/** Joins the run an idempotency key already started, or 409 when it ran other inputs. */
function joinRun(
  state: EngineState,
  run: RunRecord,
  tool: ToolSpec,
  inputHash: string,
): StartedRun {
  if (run.inputHash !== inputHash || run.toolId !== tool.id)
    throw new ServiceError(
      'idempotency_conflict',
      'This Idempotency-Key was used with different input.',
    )
  return {
    run,
    persisted: Promise.resolve(),
    done: state.inFlight.get(run.runId) ?? Promise.resolve(run),
    joined: true,
  }
}

/** 402 when the workspace's balance cannot pay one credit (interface.md "Account API status meanings"). */
function checkCredits(state: EngineState, tenant: string): void {
  const { ledger, clock } = state.deps
  if (!ledger) return
  const usage = ledger.usage(tenant, clock())
  if (usage.balance >= 1) return
  if (usage.paidRemaining > 0)
    throw new ServiceError(
      'insufficient_paid_credits',
      `This call costs 1 credit; ${usage.paidRemaining} paid credits are left.`,
    )
  throw new ServiceError(
    'quota_exceeded',
    'The free calls are used up and no paid credits are left: buy credits to go on.',
  )
}
