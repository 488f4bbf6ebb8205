import { hashInputs } from './inputsHash'
import { isServiceError, ServiceError } from '../../shared/errors'
import { FINAL_RUN_STATUSES, type Run, type RunStatus } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import type { LedgerRepository } from '../store/ledgerRepository'
import type { StorageState } from '../../shared/trace'
import { encodeResult } from '../store/resultCodec'
import {
  asStored,
  type RunEffect,
  type RunRecord,
  type RunRepository,
} from '../store/runRepository'
import type { ToolHealthRepository } from '../store/toolHealthRepository'
import type { ToolRepository } from '../store/toolRepository'
import type { RunSecrets } from '../vault'
import {
  executeHttp,
  sendWithUndici,
  type ExecutionOutcome,
  type RunContext,
  type SendRequest,
} from './httpExecutor'
import type { HostLookup } from './destination'
import type { HttpCredentials } from './httpAuth'
import { callTool, type CallOutcome, type CallRequest } from './callTool'
import type { StartedRun, StartOptions } from './runStart'
import { createInputValidator } from './inputs'
import { createQuarantine } from './quarantine'
import { applyAnswers, planRequirements, type Answer, type OpenRequirement } from './requirements'

export interface RunEngineDeps {
  runs: RunRepository
  tools: ToolRepository
  /**
   * The tools of the workspace a tenant works in (the store's `toolsFor`): a
   * call resolves its tool there and a run's tool is read back from there. Absent: `tools`.
   */
  toolsFor?: (tenant: string) => ToolRepository
  /**
   * Saved site logins (sealed in the vault): a run uses its tool's site's login (cookies,
   * storage values); `locked` says what to do when one is saved but cannot be read now.
   */
  logins?: {
    load(
      tenant: string,
      siteHost: string,
    ): Promise<{
      state: StorageState | null
      locked: string | null
      /** The saved username and password, read only when the site asks HTTP auth. */
      httpCredentials?: () => Promise<HttpCredentials | null>
    }>
  }
  /** A one-time sign-in link for a run that met a sign-in wall (spec run field `signIn.url`). */
  mintSignInLink?: (tenant: string, siteHost: string) => string
  /**
   * Signs in again with the saved username, password and TOTP seed when a saved login's session
   * expired; true when it saved a new login (the run is then retried once). May reject with
   * `mfa_required`.
   */
  relogin?: (tenant: string, tool: ToolSpec) => Promise<boolean>
  /** The billing ledger: surface-A runs bill one credit when they succeed. */
  ledger?: LedgerRepository
  /** Failure streaks and last good inputs per tool (quarantine). */
  health?: ToolHealthRepository
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  /** A new ULID for each run id. */
  ulid: () => string
  send?: SendRequest
  /** Resolves site names for the private-address check (`destination_denied`); default DNS. */
  lookup?: HostLookup
  /**
   * Runs a tool in a pooled headless browser: used for tools with
   * `via: "rendered"`, and once for a read whose HTTP attempt met a bot check. Absent: such tools
   * fail `browser_capacity`.
   */
  executeRendered?: RenderedExecutor
  /** The vault: each run resolves `{{secret:NAME}}` of its workspace and redacts what it keeps. */
  secrets?: { forRun(tenant: string): RunSecrets }
  /** Told of every transition (the UI's live run list, the requirements inbox). */
  onRunUpdated?: (run: Run) => void
  /** Told when a tool is verified, quarantined or let out (MCP's tools/list_changed). */
  onToolChanged?: (tool: ToolSpec) => void
}

/** The rendered executor's signature: same inputs and outcome as the HTTP executor. */
export type RenderedExecutor = (
  tool: ToolSpec,
  scope: Record<string, unknown>,
  context: RunContext,
  signal: AbortSignal,
) => Promise<ExecutionOutcome>

export type { StartedRun, StartOptions } from './runStart'

export interface RespondBody {
  stateRevision: unknown
  answers: unknown
}

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
   * Answers a waiting run's requirements and continues the same run (spec "Answering an
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

const RUNNING: RunStatus[] = ['accepted', 'working']
const CANCELLABLE: RunStatus[] = ['accepted', 'working', 'input_required']

/** The run as the API shows it: the spec's fields and a few extras, without engine internals. */
export function toPublicRun(record: RunRecord): Run {
  const run: Run & { effects?: RunEffect[] } = {
    runId: record.runId,
    status: record.status,
    capabilityId: record.capabilityId,
    error: record.error,
    requirements: record.status === 'input_required' ? record.requirements : [],
    via: record.via,
    signIn: record.signIn,
    toolId: record.toolId,
    stateRevision: record.stateRevision,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
  if (record.status === 'succeeded') run.result = record.result
  // Spec "Why a run failed": a `no_capability` run carries `result.next.tool` (the index tool).
  else if (record.error?.code === 'no_capability' && record.result !== undefined)
    run.result = record.result
  // What a cancel could not undo, or a lost write may have done.
  if (record.status === 'cancelled' || record.status === 'outcome_unknown')
    run.effects = record.effects
  return run
}

/** Creates the run engine (DESIGN.md §1 "engine"): state machine, executors, verification. */
export function createRunEngine(deps: RunEngineDeps): RunEngine {
  const validator = createInputValidator()
  const send = deps.send ?? sendWithUndici
  const inFlight = new Map<string, Promise<RunRecord>>()
  const controllers = new Map<string, AbortController>()
  /** The requests each working run has sent so far (a cancel keeps them as effects). */
  const sentBy = new Map<string, RunEffect[]>()
  const chains = new Map<string, Promise<unknown>>()
  const quarantine = createQuarantine(deps)
  const notify = (run: RunRecord | null) => {
    if (run) deps.onRunUpdated?.(toPublicRun(run))
    return run
  }
  const move = (runId: string, patch: Parameters<RunRepository['transition']>[1]) =>
    notify(deps.runs.transition(runId, patch, deps.clock()))

  /**
   * Dispatches to the executor of the tool's `via`; a read whose HTTP answer was a bot check is
   * tried once more in the browser.
   */
  async function runVia(
    tool: ToolSpec,
    scope: Record<string, unknown>,
    context: RunContext,
    signal: AbortSignal,
  ): Promise<ExecutionOutcome & { via?: 'http' | 'rendered' }> {
    const rendered = deps.executeRendered
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
    const outcome = await executeHttp(tool, scope, send, signal, context)
    if (!outcome.ok && outcome.code === 'challenge' && !tool.mutating && rendered)
      return { ...(await rendered(tool, scope, context, signal)), via: 'rendered' }
    return outcome
  }

  /** Runs an `accepted` run to its end; every transition is guarded so a cancel wins. */
  async function execute(tool: ToolSpec, run: RunRecord): Promise<RunRecord> {
    // A read starts out `working` (see `start`); a write or a resumed run moves there now.
    if (run.status !== 'working') {
      const working = move(run.runId, { status: 'working', from: ['accepted'] })
      if (!working) return deps.runs.get(run.runId)!
    }
    const controller = new AbortController()
    controllers.set(run.runId, controller)
    const effects: RunEffect[] = []
    sentBy.set(run.runId, effects)
    let outcome: ExecutionOutcome & { via?: 'http' | 'rendered' }
    const secrets = deps.secrets?.forRun(run.tenant)
    const redact = <T>(value: T): T => (secrets ? secrets.redact(value) : value)
    let hadLogin = false
    try {
      const attempt = async (): Promise<ExecutionOutcome & { via?: 'http' | 'rendered' }> => {
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
        return runVia(tool, validator.toScope(tool, run.inputs), context, controller.signal)
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
    } catch (error) {
      outcome = { ok: false, code: 'upstream_error', message: `Executor fault: ${String(error)}` }
    } finally {
      controllers.delete(run.runId)
      sentBy.delete(run.runId)
    }
    // A secret's value never stays on a run: not in its result, its error or its effects. A
    // redacted result is serialized anew: the site's own bytes would still hold the value.
    outcome = withoutSecrets(outcome, redact)
    const common = { from: ['working'] as RunStatus[], finished: true, effects }
    const via = outcome.via ? { via: outcome.via } : {}
    // A cancel won the race: the run stays cancelled, unbilled, and keeps every request that went
    // out, including the one whose answer the cancel cut off (spec "Run status": cancelled).
    const lostToCancel = (): RunRecord => {
      const current = deps.runs.get(run.runId)!
      if (current.status !== 'cancelled' || current.effects.length >= effects.length) return current
      return move(run.runId, { status: 'cancelled', from: ['cancelled'], effects }) ?? current
    }
    if (outcome.ok) {
      // Stored once: the bytes the site answered when the result is that answer, else one
      // serialization; compressed above a size off the event loop.
      const resultText = outcome.text ?? JSON.stringify(outcome.result ?? null)
      const stored = await encodeResult(resultText, outcome.bytes)
      // One transaction for the success, its credit and the tool's health, its commit shared
      // with the other runs ending in this turn of the event loop. Charged
      // only once the run is succeeded, so a run a cancel overtook is never billed; a run
      // succeeds once, so it is charged once (spec "Run status": only succeeded bills). `billed`
      // on the run is the charge's record, so it is set only when the balance covers it.
      const done = await deps.runs.atomicallySoon(() => {
        const ledger = run.billOnSuccess ? deps.ledger : undefined
        const billed = !!ledger && ledger.usage(run.tenant, deps.clock()).balance >= 1
        const succeeded = deps.runs.transition(
          run.runId,
          {
            status: 'succeeded',
            result:
              outcome.text === undefined ? asStored(outcome.result, resultText) : outcome.result,
            resultText,
            ...(outcome.bytes ? { resultBytes: outcome.bytes } : {}),
            stored,
            billed,
            ...via,
            ...common,
          },
          deps.clock(),
        )
        if (!succeeded) return null
        if (billed) ledger?.chargeRun(run.tenant, deps.clock())
        quarantine.succeeded(tool, run.inputs, run.tenant)
        return succeeded
      })
      if (!done) return lostToCancel()
      notify(done)
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
            url: deps.mintSignInLink
              ? deps.mintSignInLink(run.tenant, tool.siteHost)
              : `${new URL(tool.steps[0]!.request.url).origin}/`,
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
   * Starts `execute` in the background once the run is `persisted` (queued per workspace when
   * serialized).
   */
  function launch(
    tool: ToolSpec,
    run: RunRecord,
    serialize: boolean,
    persisted: Promise<void> = Promise.resolve(),
  ): Promise<RunRecord> {
    const go = () => persisted.then(() => execute(tool, run))
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
          const failed = move(run.runId, {
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

  function checkCredits(tenant: string): void {
    if (!deps.ledger) return
    const usage = deps.ledger.usage(tenant, deps.clock())
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

  const toolsOf = (tenant: string): ToolRepository => deps.toolsFor?.(tenant) ?? deps.tools

  function findRun(runId: string, tenant: string | null): RunRecord {
    const run = deps.runs.get(runId)
    if (!run || (tenant !== null && run.tenant !== tenant))
      throw new ServiceError('not_found', `No run ${runId}.`)
    return run
  }

  const expireIfDue = (run: RunRecord): RunRecord => {
    if (run.status !== 'input_required') return run
    const now = deps.clock()
    if (!run.requirements.some((r) => Date.parse(r.expiresAt) <= now)) return run
    return (
      move(run.runId, { status: 'expired', from: ['input_required'], finished: true }) ??
      deps.runs.get(run.runId)!
    )
  }

  const expireWaiting = (): number => {
    let n = 0
    for (const run of deps.runs.withStatus(['input_required']))
      if (expireIfDue(run).status === 'expired') n++
    return n
  }

  const settledNow = (run: RunRecord): StartedRun => ({
    run,
    persisted: Promise.resolve(),
    done: Promise.resolve(run),
    joined: false,
  })

  const engine: RunEngine = {
    call: (request) =>
      callTool(
        { start: (...args) => engine.start(...args), tools: toolsOf(request.tenant) },
        request,
      ),

    start(tool, inputs, options) {
      validator.check(tool, inputs)
      const inputHash = hashInputs(inputs)
      if (options.idempotencyKey) {
        const existing = deps.runs.findByKey(options.tenant, options.idempotencyKey)
        if (existing) return join(existing, tool, inputHash)
      }
      if (tool.mutating && !options.allowMutation && options.mayAsk === false)
        throw new ServiceError(
          'forbidden',
          `${tool.name} changes data on the site: send "allow_mutation": true to confirm.`,
        )
      if (options.billOnSuccess) checkCredits(options.tenant)
      const runId = `lrun_${deps.ulid()}`
      const planned = planRequirements(tool, inputs, {
        runId,
        revision: 1,
        now: deps.clock(),
        needsApproval: tool.mutating && !options.allowMutation,
      })
      // A caller that cannot be asked gets the refusal now, before anything is stored or billed.
      if (options.mayAsk === false && planned.requirements.length)
        throw new ServiceError(
          'invalid_input',
          `Invalid input: ${planned.requirements.map((r) => r.message).join(' ')}`,
        )
      const { run, created, persisted } = deps.runs.createSoon(
        {
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
            ? 'input_required'
            : tool.mutating || options.serialize
              ? 'accepted'
              : 'working',
          mutating: tool.mutating,
          billOnSuccess: options.billOnSuccess ?? false,
          requirements: planned.requirements,
        },
        deps.clock(),
      )
      if (!created) return join(run, tool, inputHash)
      notify(run)
      if (run.status === 'input_required') return { ...settledNow(run), persisted }
      return {
        run,
        persisted,
        done: launch(tool, run, options.serialize ?? false, persisted),
        joined: false,
      }
    },

    respond(runId, tenant, body) {
      const run = expireIfDue(findRun(runId, tenant))
      const answers = parseAnswers(body.answers)
      if (!Number.isInteger(body.stateRevision))
        throw new ServiceError('invalid_input', '"stateRevision" must be the run\'s integer.')
      const ownIds = (run.requirements as OpenRequirement[]).map((r) => r.id)
      if (run.status === 'expired' && answers.some((a) => ownIds.includes(a.requirementId)))
        throw new ServiceError(
          'expired_requirement',
          `The requirements of ${runId} expired after 15 minutes: start a new run.`,
        )
      if (run.status !== 'input_required')
        throw new ServiceError('conflict', `${runId} is ${run.status}, not waiting for input.`)
      if (body.stateRevision !== run.stateRevision)
        throw new ServiceError(
          'stale_revision',
          `${runId} is at stateRevision ${run.stateRevision}: GET it and answer again.`,
        )
      const tool = toolsOf(run.tenant).get(run.toolId)
      if (!tool) throw new ServiceError('not_found', `The tool of ${runId} was deleted.`)
      const applied = applyAnswers(
        tool,
        runId,
        run.requirements as OpenRequirement[],
        run.inputs,
        answers,
        deps.clock(),
      )
      validator.check(tool, applied.inputs)
      const guard = { from: ['input_required'] as RunStatus[], revision: run.stateRevision }
      const raced = () =>
        new ServiceError('stale_revision', `${runId} changed meanwhile: GET it again.`)
      if (applied.declined) {
        const failed = move(runId, {
          status: 'failed',
          error: { code: 'declined', message: 'The approval was declined: nothing was sent.' },
          finished: true,
          ...guard,
        })
        if (!failed) throw raced()
        return settledNow(failed)
      }
      if (applied.open.length) {
        const waiting = move(runId, {
          status: 'input_required',
          inputs: applied.inputs,
          requirements: applied.open,
          ...guard,
        })
        if (!waiting) throw raced()
        return settledNow(waiting)
      }
      const accepted = move(runId, {
        status: 'accepted',
        inputs: applied.inputs,
        requirements: [],
        ...guard,
      })
      if (!accepted) throw raced()
      return {
        run: accepted,
        persisted: Promise.resolve(),
        done: launch(tool, accepted, false),
        joined: false,
      }
    },

    cancel(runId, tenant) {
      const run = findRun(runId, tenant)
      if (!CANCELLABLE.includes(run.status))
        throw new ServiceError('conflict', `${runId} is ${run.status}: it cannot be cancelled.`)
      const sent = sentBy.get(runId)
      const cancelled = move(runId, {
        status: 'cancelled',
        from: CANCELLABLE,
        finished: true,
        ...(sent?.length ? { effects: [...sent] } : {}),
      })
      if (!cancelled) throw new ServiceError('conflict', `${runId} finished meanwhile: GET it.`)
      controllers.get(runId)?.abort(new Error('cancelled'))
      return cancelled
    },

    get(runId) {
      const run = deps.runs.get(runId)
      // Past its window a waiting run reads as expired, whether or not the sweep ran yet.
      return run ? expireIfDue(run) : null
    },

    recover() {
      const counts = { resumed: 0, unknown: 0, lost: 0, expired: expireWaiting() }
      for (const run of deps.runs.withStatus(RUNNING)) {
        const tool = toolsOf(run.tenant).get(run.toolId)
        if (run.mutating && run.status === 'working') {
          move(run.runId, {
            status: 'outcome_unknown',
            error: {
              code: 'worker_lost',
              message:
                'Sitecall stopped while this write was in flight: check the site before repeating it.',
            },
            from: ['working'],
            finished: true,
          })
          counts.unknown++
        } else if (run.mutating || !tool) {
          move(run.runId, {
            status: 'failed',
            error: { code: 'worker_lost', message: 'Sitecall stopped before this run was sent.' },
            from: RUNNING,
            finished: true,
          })
          counts.lost++
        } else {
          // A read is safe to send again: put it back to accepted and run it.
          const again = move(run.runId, { status: 'accepted', from: RUNNING })
          if (again) {
            void launch(tool, again, false)
            counts.resumed++
          }
        }
      }
      return counts
    },

    expireWaiting,

    recheckQuarantined: () => quarantine.recheck((tool, inputs) => startRecheck(tool, inputs)),

    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight.values()])
    },
  }
  return engine

  /** A recheck run of a quarantined tool: no caller, no idempotency key, no billing. */
  function startRecheck(tool: ToolSpec, inputs: Record<string, unknown>): Promise<RunRecord> {
    validator.check(tool, inputs)
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
    return launch(tool, run, false)
  }

  function join(run: RunRecord, tool: ToolSpec, inputHash: string): StartedRun {
    if (run.inputHash !== inputHash || run.toolId !== tool.id)
      throw new ServiceError(
        'idempotency_conflict',
        'This Idempotency-Key was used with different input.',
      )
    return {
      run,
      persisted: Promise.resolve(),
      done: inFlight.get(run.runId) ?? Promise.resolve(run),
      joined: true,
    }
  }
}

/** Checks the shape of `answers` (spec "Answering an input_required run"). */
function parseAnswers(raw: unknown): Answer[] {
  if (!Array.isArray(raw) || !raw.length)
    throw new ServiceError('invalid_input', '"answers" must be a non-empty array.')
  return raw.map((a) => {
    if (a === null || typeof a !== 'object' || typeof (a as Answer).requirementId !== 'string')
      throw new ServiceError(
        'invalid_input',
        'Each answer is {requirementId, value | optionId | approve}.',
      )
    return a as Answer
  })
}

/** True when a run will not change again. */
export function isFinal(run: Pick<Run, 'status'>): boolean {
  return FINAL_RUN_STATUSES.includes(run.status)
}

/** True when the tool takes cookies or values from its site's saved login. */
function needsLogin(tool: ToolSpec): boolean {
  const login = tool.login
  return !!login && (login.cookies.length > 0 || login.values.length > 0 || !!login.httpAuth)
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
