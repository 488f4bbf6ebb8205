import { createHash } from 'node:crypto'
import { ServiceError } from '../../shared/errors'
import { FINAL_RUN_STATUSES, type Run } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord, RunRepository } from '../store/runRepository'
import type { LoginRepository } from '../store/loginRepository'
import type { ToolRepository } from '../store/toolRepository'
import {
  executeHttp,
  sendWithUndici,
  type ExecutionOutcome,
  type RunContext,
  type SendRequest,
} from './httpExecutor'
import { createInputValidator } from './inputs'

export interface RunEngineDeps {
  runs: RunRepository
  tools: ToolRepository
  /** Saved site logins: a run uses its tool's site's login (cookies, storage values). */
  logins?: LoginRepository
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  /** A new ULID for each run id. */
  ulid: () => string
  send?: SendRequest
  /**
   * Runs a tool in a pooled headless browser (issue 4 "Rendered executor"): used for tools with
   * `via: "rendered"`, and once for a read whose HTTP attempt met a bot check. Absent: such tools
   * fail `browser_capacity`.
   */
  executeRendered?: RenderedExecutor
  /** Told of every transition (the UI's live run list). */
  onRunUpdated?: (run: Run) => void
}

/** The rendered executor's signature: same inputs and outcome as the HTTP executor. */
export type RenderedExecutor = (
  tool: ToolSpec,
  scope: Record<string, unknown>,
  context: RunContext,
  signal: AbortSignal,
) => Promise<ExecutionOutcome>

export interface StartOptions {
  tenant: string
  idempotencyKey?: string | null
  deadlineMs?: number | null
}

export interface StartedRun {
  /** The run as persisted before anything was sent. */
  run: RunRecord
  /** Settles with the run in its final state (it never rejects). */
  done: Promise<RunRecord>
  /** True when an earlier call with the same Idempotency-Key owns this run. */
  joined: boolean
}

export interface RunEngine {
  /**
   * Starts a run of `tool` with `inputs` (by semantic name). Validates first (422
   * `unknown_argument`, 400 `invalid_input`; nothing is persisted then), persists the run, and only
   * then sends. The same idempotency key with the same inputs joins the existing run; with other
   * inputs it is 409 `idempotency_conflict`.
   */
  start(tool: ToolSpec, inputs: Record<string, unknown>, options: StartOptions): StartedRun
  get(runId: string): RunRecord | null
}

/** The run as the API shows it: the spec's fields and a few extras, without engine internals. */
export function toPublicRun(record: RunRecord): Run {
  const run: Run = {
    runId: record.runId,
    status: record.status,
    capabilityId: record.capabilityId,
    error: record.error,
    requirements: record.requirements,
    via: record.via,
    signIn: record.signIn,
    toolId: record.toolId,
    stateRevision: record.stateRevision,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
  if (record.status === 'succeeded') run.result = record.result
  return run
}

/** Creates the run engine (DESIGN.md §1 "engine"): state machine, HTTP executor, verification. */
export function createRunEngine(deps: RunEngineDeps): RunEngine {
  const validator = createInputValidator()
  const send = deps.send ?? sendWithUndici
  const inFlight = new Map<string, Promise<RunRecord>>()
  const notify = (run: RunRecord | null) => {
    if (run) deps.onRunUpdated?.(toPublicRun(run))
    return run
  }

  /**
   * Dispatches to the executor of the tool's `via`; a read whose HTTP answer was a bot check is
   * tried once more in the browser (issue 4 "Rendered executor").
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

  async function execute(
    tool: ToolSpec,
    run: RunRecord,
    scope: Record<string, unknown>,
  ): Promise<RunRecord> {
    const working = notify(deps.runs.transition(run.runId, { status: 'working' }, deps.clock()))!
    const controller = new AbortController()
    let outcome
    try {
      const login = deps.logins?.get(run.tenant, tool.siteHost) ?? null
      if (login) deps.logins!.touch(run.tenant, tool.siteHost, deps.clock())
      const context: RunContext = { login: login?.storageState ?? null }
      outcome = await runVia(tool, scope, context, controller.signal)
    } catch (error) {
      outcome = {
        ok: false as const,
        code: 'upstream_error' as const,
        message: `Executor fault: ${String(error)}`,
      }
    }
    const now = deps.clock()
    if (outcome.ok) {
      if (tool.status === 'candidate') deps.tools.setStatus(tool.id, 'verified', now)
      // Only a verified success bills (spec "What the service does" 7).
      return notify(
        deps.runs.transition(
          working.runId,
          { status: 'succeeded', result: outcome.result, billed: true, finished: true },
          now,
        ),
      )!
    }
    if (outcome.code === 'outcome_unknown') {
      return notify(
        deps.runs.transition(
          working.runId,
          {
            status: 'outcome_unknown',
            error: { code: 'upstream_error', message: outcome.message },
            finished: true,
          },
          now,
        ),
      )!
    }
    const signIn =
      'signIn' in outcome && outcome.signIn
        ? { url: `${new URL(tool.steps[0]!.request.url).origin}/` }
        : null
    return notify(
      deps.runs.transition(
        working.runId,
        {
          status: 'failed',
          error: { code: outcome.code, message: outcome.message },
          signIn,
          finished: true,
        },
        now,
      ),
    )!
  }

  return {
    start(tool, inputs, options) {
      const scope = validator.resolve(tool, inputs)
      const inputHash = createHash('sha256').update(canonicalJson(inputs)).digest('hex')
      const { run, created } = deps.runs.create(
        {
          runId: `lrun_${deps.ulid()}`,
          tenant: options.tenant,
          toolId: tool.id,
          capabilityId: tool.capabilityId,
          via: tool.via,
          inputs,
          inputHash,
          idempotencyKey: options.idempotencyKey ?? null,
          deadlineMs: options.deadlineMs ?? null,
          status: 'accepted',
        },
        deps.clock(),
      )
      if (!created) {
        if (run.inputHash !== inputHash || run.toolId !== tool.id)
          throw new ServiceError(
            'idempotency_conflict',
            409,
            'This Idempotency-Key was used with different input.',
          )
        const pending = inFlight.get(run.runId)
        const done = pending ?? Promise.resolve(run)
        return { run, done, joined: true }
      }
      notify(run)
      const done = execute(tool, run, scope)
        .catch((error: unknown) => {
          const failed = deps.runs.transition(
            run.runId,
            {
              status: 'failed',
              error: { code: 'worker_lost', message: String(error) },
              finished: true,
            },
            deps.clock(),
          )
          return notify(failed) ?? run
        })
        .finally(() => inFlight.delete(run.runId))
      inFlight.set(run.runId, done)
      return { run, done, joined: false }
    },
    get: (runId) => deps.runs.get(runId),
  }
}

/** True when a run will not change again. */
export function isFinal(run: Pick<Run, 'status'>): boolean {
  return FINAL_RUN_STATUSES.includes(run.status)
}

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}
