import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import type { ToolRepository } from '../store/toolRepository'
import type { StartedRun, StartOptions } from './runStart'

/**
 * Which tool a call names: a site and the tool's name or id (surface A's `{site_host}` and
 * `{tool_id}`), a tool id (the account API's execute, the app), a pinned `capabilityId` (MCP
 * `service_run`), or a tool the surface already resolved (the router's pick, an MCP name).
 */
export type ToolRef =
  | { siteHost: string; name: string }
  | { id: string }
  | { capabilityId: string }
  | { tool: ToolSpec }

/** One tool call as every surface asks for it. */
export interface CallRequest extends StartOptions {
  tool: ToolRef
  /** The tool's inputs by semantic name. */
  inputs: Record<string, unknown>
  /**
   * How long to wait for the run, in ms; past it the outcome is `timed_out` while the run goes
   * on. Null: wait until the run is final or waits on a person (the account API's execute).
   */
  deadlineMs: number | null
  /**
   * A candidate may run (its first success verifies it): the account API's execute and the app.
   * Elsewhere a candidate is refused 404 `not_found`, naming how to verify it.
   */
  candidates?: boolean
  /** A pinned tool outside the caller's scope is refused before anything else (MCP scopes). */
  admit?: (tool: ToolSpec) => boolean
  /**
   * Called once the status rules passed, before the run starts; may throw to refuse (a metered
   * request's balance check, a surface's own confirmation rule).
   */
  beforeStart?: (tool: ToolSpec) => void
  /** Told once the run is persisted, before it is waited for (a metered request's charge). */
  onStarted?: (started: StartedRun) => void
}

/** What a call came to; refusals before a run exists are thrown as `ServiceError`s. */
export type CallOutcome =
  /** The run is final, or waits on a person (`input_required`). */
  | { kind: 'settled'; tool: ToolSpec; run: RunRecord; joined: boolean }
  /** The deadline passed; the run goes on and is read at `poll` (interface.md "Run-timeout error body"). */
  | { kind: 'timed_out'; tool: ToolSpec; runId: string; deadlineMs: number; poll: string }
  /**
   * The run needed a browser and none was free (interface.md "Capacity and timing" `browser_capacity`):
   * 503 when it queued for its 30 s first, 429 when it was refused at once.
   */
  | {
      kind: 'refused_capacity'
      tool: ToolSpec
      run: RunRecord
      status: 429 | 503
      retryAfterSeconds: number
      message: string
    }

/** What the call operation needs of the engine and the store. */
export interface CallDeps {
  start(tool: ToolSpec, inputs: Record<string, unknown>, options: StartOptions): StartedRun
  tools: Pick<ToolRepository, 'get' | 'getByName' | 'list'>
}

/** interface.md "Capacity and timing": retry a browser_capacity refusal after about 30 s. */
const CAPACITY_RETRY_S = 30

/**
 * The one call operation (docs/architecture.md "engine: the one call operation"): resolves
 * the tool, applies the status rules, starts the run (validation, idempotency, billing and
 * persistence are the engine's `start`), waits up to the deadline and returns a typed outcome.
 * Every surface (REST A/B/C, MCP over HTTP and stdio, the app) calls this and only parses its
 * input and renders the outcome, so a refusal reads the same everywhere. Throws `ServiceError`:
 * 404 `not_found` (no such tool; a candidate where `candidates` is off), 404
 * `capability_not_found`, 403 `not_in_scope`, 409 `tool_quarantined` (naming what to use
 * meanwhile), and whatever `start` refuses (422, 400, 402, 403, 409).
 */
export async function callTool(deps: CallDeps, request: CallRequest): Promise<CallOutcome> {
  const tool = resolveTool(deps.tools, request.tool)
  if (request.admit && !request.admit(tool))
    throw new ServiceError('not_in_scope', `${tool.name} is outside this connection's scope.`)
  if (tool.status === 'quarantined') throw quarantinedError(tool, deps.tools)
  if (tool.status === 'candidate' && !request.candidates) throw candidateError(tool)
  const {
    tool: _ref,
    inputs,
    deadlineMs,
    candidates: _c,
    admit: _a,
    beforeStart,
    onStarted,
    ...options
  } = request
  beforeStart?.(tool)
  const started = deps.start(tool, inputs, { ...options, deadlineMs })
  await started.persisted
  onStarted?.(started)
  const run =
    deadlineMs === null ? await started.done : await settleWithin(started.done, deadlineMs)
  if (!run) {
    const runId = started.run.runId
    const waited = deadlineMs ?? 0
    return { kind: 'timed_out', tool, runId, deadlineMs: waited, poll: `/api/v1/runs/${runId}` }
  }
  const error = run.error
  if (run.status === 'failed' && error?.code === 'browser_capacity')
    return {
      kind: 'refused_capacity',
      tool,
      run,
      // A run without `waited` (no browser configured at all) counts as having waited.
      status: error.waited === false ? 429 : 503,
      retryAfterSeconds:
        typeof error.retryAfterSeconds === 'number' ? error.retryAfterSeconds : CAPACITY_RETRY_S,
      message: error.message,
    }
  return { kind: 'settled', tool, run, joined: started.joined }
}

/** The tool a reference names, or 404 (`not_found`, `capability_not_found`). */
function resolveTool(tools: CallDeps['tools'], ref: ToolRef): ToolSpec {
  if ('tool' in ref) return ref.tool
  if ('id' in ref) {
    const tool = tools.get(ref.id)
    if (!tool) throw new ServiceError('not_found', `No tool ${ref.id}.`)
    return tool
  }
  if ('capabilityId' in ref) {
    const tool = tools.list().find((t) => t.capabilityId === ref.capabilityId)
    if (!tool) throw new ServiceError('capability_not_found', `No capability ${ref.capabilityId}.`)
    return tool
  }
  const tool = tools.getByName(ref.siteHost, ref.name) ?? tools.get(ref.name)
  if (!tool || tool.siteHost !== ref.siteHost)
    throw new ServiceError(
      'not_found',
      `No tool "${ref.name}" on ${ref.siteHost}: GET /api/v1/sites/${ref.siteHost} lists them.`,
    )
  return tool
}

/**
 * 409 `tool_quarantined` (interface.md "A", 409): names what to use meanwhile: another verified tool of
 * the site when there is one, else recording the flow again. The tool is rechecked by itself.
 */
export function quarantinedError(
  tool: ToolSpec,
  tools: Pick<ToolRepository, 'list'>,
): ServiceError {
  const other = tools
    .list({ siteHost: tool.siteHost })
    .find((t) => t.id !== tool.id && t.status === 'verified')
  const meanwhile = other
    ? `use ${other.name} meanwhile`
    : 'record the flow again in the app meanwhile'
  return new ServiceError(
    'tool_quarantined',
    `${tool.name} failed its checks 3 times in a row and is rechecked automatically; ${meanwhile}.`,
  )
}

/** 404 `not_found` for an unverified candidate where only verified tools are called. */
export function candidateError(tool: ToolSpec): ServiceError {
  return new ServiceError(
    'not_found',
    `${tool.name} is an unverified candidate: execute it once with POST /v1/tools/${tool.id}/execute.`,
  )
}

/**
 * The refusal of a `timed_out` outcome (interface.md "Capacity and timing" `run_timeout`, 504): the run
 * goes on; the body holds `runId`, `deadlineMs` and `poll`.
 */
export function timeoutError(outcome: Extract<CallOutcome, { kind: 'timed_out' }>): ServiceError {
  return new ServiceError(
    'run_timeout',
    `The run passed its ${outcome.deadlineMs} ms deadline and goes on: poll it.`,
    { runId: outcome.runId, deadlineMs: outcome.deadlineMs, poll: outcome.poll },
  )
}

/**
 * The refusal of a `refused_capacity` outcome (429 or 503 `browser_capacity` with the run id and
 * `retryAfterSeconds`; REST adds the `Retry-After` header, MCP `data.details.retryAfter`).
 */
export function capacityError(
  outcome: Extract<CallOutcome, { kind: 'refused_capacity' }>,
): ServiceError {
  return new ServiceError(
    'browser_capacity',
    outcome.message,
    {
      runId: outcome.run.runId,
      retryAfterSeconds: outcome.retryAfterSeconds,
    },
    outcome.status,
  )
}

/** The value of `done` when it settles within `ms` milliseconds, else null (the work goes on). */
export async function settleWithin<T>(done: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))
  try {
    return await Promise.race([done, late])
  } finally {
    clearTimeout(timer)
  }
}
