/**
 * Running a task by intent (interface.md "C", `POST /api/v1/runs`): the intent routed to the best verified
 * tool scoring at least 0.9 and called like a site tool (billed only when it succeeds); the
 * Idempotency-Key's receipt that lets a repeat join the run it started; the failed
 * `no_capability` run when no tool fits.
 */
import { monotonicFactory } from 'ulid'
import type { TaskRunBody } from '../../shared/accountApiSchemas'
import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { CallOutcome } from '../engine/callTool'
import { hashInputs } from '../engine/inputsHash'
import { isFinal, type StartedRun } from '../engine/runEngine'
import type { RouteResult, ToolMatch } from '../router/router'
import type { RunRecord } from '../store/runRepository'
import type { ServerDeps } from './serverDeps'
import { slotInputs } from './slotInputs'
import { createWorkspaceToolCache } from './toolCache'

/** interface.md "Why a run failed" `no_capability`: the index tool `result.next.tool` names. */
const INDEX_TOOL = 'service_index'

/** One task request, checked: whose it is, what it asks, by when, under which key. */
export interface Task {
  tenant: string
  body: TaskRunBody
  deadlineMs: number
  /** The Idempotency-Key in the receipts' namespace (`task:<key>`), or null. */
  key: string | null
}

/** Which tool a task went to, with what confidence: the `routing` field of its run. */
interface TaskRouting {
  status: RouteResult['status']
  toolId: string | null
  name: string | null
  score: number | null
}

/** A task's answer: the call's outcome, or a run read back; `routing` when routed this time. */
export type TaskAnswer =
  { outcome: CallOutcome; routing?: TaskRouting } | { run: RunRecord; routing?: TaskRouting }

/** What the receipt of a task's Idempotency-Key keeps: the run it started and with what. */
interface TaskReceipt {
  runId: string
  toolId: string | null
  inputs: Record<string, unknown>
}

/** The parts a task runs with, made once per server. */
export interface TaskRunner {
  deps: Pick<ServerDeps, 'store' | 'engine' | 'clock' | 'routers'>
  nextId: () => string
  /** The workspace's tools, parsed once per version. */
  tools: ReturnType<typeof createWorkspaceToolCache>
}

/** A task runner over the server's store, engine, clock and the verified-tools routers. */
export function createTaskRunner(
  deps: Pick<ServerDeps, 'store' | 'engine' | 'clock' | 'routers'>,
): TaskRunner {
  const ulid = monotonicFactory()
  return {
    deps,
    nextId: () => ulid(deps.clock()),
    tools: createWorkspaceToolCache(deps.store.toolsFor),
  }
}

/**
 * Runs a task: a repeat of a key joins the run the key started (409 `idempotency_conflict` when
 * the task differs, 404 `not_found` when that run is gone); else the intent is routed and the
 * best tool called, or a failed `no_capability` run is kept when none fits.
 */
export async function runTask(runner: TaskRunner, task: Task): Promise<TaskAnswer> {
  const { body } = task
  const domain = body.domain?.toLowerCase() ?? null
  const inputHash = hashInputs({
    intent: body.intent,
    inputs: body.inputs ?? {},
    domain,
    allow_mutation: body.allow_mutation === true,
  })
  const joined = task.key ? await rejoin(runner, task, task.key, inputHash) : null
  if (joined) return joined
  const { store } = runner.deps
  const verified = runner.tools(task.tenant).filter((t) => t.status === 'verified')
  const router = runner.deps.routers.running(store.toolsFor(task.tenant))
  const routing = router.route(body.intent, verified, { domain })
  const best = routing.status === 'matched' ? routing.tools[0]! : null
  const tool = best ? store.toolsFor(task.tenant).get(best.id) : null
  // The key's receipt names the run it started, so a repeat joins that run.
  const keep = (result: TaskReceipt) => keepReceipt(runner, task, inputHash, result)
  if (!best || !tool) {
    const run = noCapability(runner, task, routing)
    keep({ runId: run.runId, toolId: null, inputs: {} })
    return { run, routing: routingOf(routing) }
  }
  const inputs = taskInputs(tool, body.inputs ?? {})
  const outcome = await call(runner, task, tool, inputs, (started) =>
    keep({ runId: started.run.runId, toolId: tool.id, inputs }),
  )
  return { outcome, routing: routingOf(routing, best) }
}

/** The run a repeated key started, joined while it runs; null when the key is new. */
async function rejoin(
  runner: TaskRunner,
  task: Task,
  key: string,
  inputHash: string,
): Promise<TaskAnswer | null> {
  const { store } = runner.deps
  const stored = store.receipts.get<TaskReceipt>(task.tenant, key)
  if (!stored) return null
  if (stored.inputHash !== inputHash)
    throw new ServiceError(
      'idempotency_conflict',
      'This Idempotency-Key was used with a different task.',
    )
  const run = store.runs.get(stored.result.runId)
  if (!run) throw new ServiceError('not_found', `No run ${stored.result.runId}.`)
  const tool = stored.result.toolId ? store.toolsFor(task.tenant).get(stored.result.toolId) : null
  // Joining through the call operation hands back the running run's own completion.
  if (tool && !isFinal(run))
    return { outcome: await call(runner, task, tool, stored.result.inputs) }
  return { run }
}

/** The task's run of `tool` through the call operation, like a site tool call. */
function call(
  runner: TaskRunner,
  task: Task,
  tool: ToolSpec,
  inputs: Record<string, unknown>,
  onStarted?: (started: StartedRun) => void,
): Promise<CallOutcome> {
  return runner.deps.engine.call({
    tool: { tool },
    inputs,
    tenant: task.tenant,
    idempotencyKey: task.key,
    deadlineMs: task.deadlineMs,
    mayAsk: true,
    allowMutation: task.body.allow_mutation === true,
    billOnSuccess: true,
    ...(onStarted ? { onStarted } : {}),
  })
}

function keepReceipt(runner: TaskRunner, task: Task, inputHash: string, result: TaskReceipt) {
  if (!task.key) return
  const { store, clock } = runner.deps
  store.receipts.put({
    tenant: task.tenant,
    opKey: task.key,
    operation: 'task',
    inputHash,
    status: 'completed',
    cost: 0,
    result,
    createdAt: clock(),
    updatedAt: clock(),
  })
}

/** Persists the failed run of a task no tool fits (interface.md "Why a run failed": `no_capability`). */
function noCapability(runner: TaskRunner, task: Task, routing: RouteResult): RunRecord {
  const { store, clock } = runner.deps
  const { body, tenant } = task
  const runId = `lrun_${runner.nextId()}`
  return store.transaction(() => {
    const { run, created } = store.runs.create(
      {
        runId,
        tenant,
        toolId: '',
        capabilityId: null,
        via: null,
        inputs: body.inputs ?? {},
        inputHash: hashInputs(body.inputs ?? {}),
        idempotencyKey: task.key,
        deadlineMs: null,
        status: 'failed',
      },
      clock(),
    )
    if (!created) return run
    return store.runs.transition(
      runId,
      {
        status: 'failed',
        finished: true,
        error: {
          code: 'no_capability',
          message: `No verified tool does "${body.intent}" with confidence: index the workflow (${INDEX_TOOL}, or POST /api/v1/index), then run the task again.`,
        },
        result: {
          next: {
            tool: INDEX_TOOL,
            endpoint: '/api/v1/index',
            method: 'POST',
            intent: body.intent,
            routing: { status: routing.status, reason: routing.reason ?? null },
          },
        },
      },
      clock(),
    )!
  })
}

function routingOf(routing: RouteResult, best?: ToolMatch): TaskRouting {
  return {
    status: routing.status,
    toolId: best?.id ?? null,
    name: best?.name ?? null,
    score: best?.score ?? null,
  }
}

/**
 * A task's inputs by semantic name; a body that names only slots the tool has as properties by
 * other names (`p0`, `p1`...) is taken as slot inputs (strings converted by declared type).
 */
function taskInputs(tool: ToolSpec, inputs: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(tool.inputs.properties)
  const keys = Object.keys(inputs)
  const bySlot = keys.length > 0 && keys.every((k) => /^p\d+$/.test(k) && !names.includes(k))
  return bySlot ? slotInputs(tool, inputs) : inputs
}
