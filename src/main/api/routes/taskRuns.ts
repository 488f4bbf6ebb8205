import type { FastifyInstance } from 'fastify'
import { monotonicFactory } from 'ulid'
import { TASK_RUN_BODY_SCHEMA, type TaskRunBody } from '../../../shared/accountApiSchemas'
import { ServiceError } from '../../../shared/errors'
import type { ToolSpec } from '../../../shared/toolSpec'
import { isFinal, type StartedRun } from '../../engine/runEngine'
import { createToolRouter, type RouteResult, type ToolMatch } from '../../router/router'
import type { RunRecord } from '../../store/runRepository'
import { sendOutcome, sendRun } from '../callReply'
import { parseDeadline } from '../deadline'
import type { ServerDeps } from '../serverDeps'
import { slotInputs } from '../slotInputs'
import { validBody } from '../routeValidation'
import { hashInputs } from '../../engine/inputsHash'
import { createWorkspaceToolCache } from '../toolCache'
import { routeSchema } from '../openapi/routeSchema'
import { IDEMPOTENCY_CALL, DEADLINE, runAnswers, billing } from '../openapi/docParts'
import { schemaRef } from '../openapi/components'

/** Spec "Limits": Idempotency-Key (site tool call and run) max 200 characters. */
const MAX_IDEMPOTENCY_KEY = 200

/** Spec "Why a run failed" `no_capability`: the index tool `result.next.tool` names. */
export const INDEX_TOOL = 'service_index'

type TaskBody = TaskRunBody

/** What the receipt of a task's Idempotency-Key keeps: the run it started and with what. */
interface TaskReceipt {
  runId: string
  toolId: string | null
  inputs: Record<string, unknown>
}

/**
 * `POST /api/v1/runs`, run by task (spec "C"; body `TASK_RUN_BODY_SCHEMA`): the intent is routed
 * to the best verified tool scoring at least 0.9 and run like a site tool call (billed only when
 * it succeeds): 200 when the run finished, 202 while `accepted`, `working` or `input_required`,
 * 504 `run_timeout` (`runId`, `deadlineMs`, `poll`) past the deadline while the run goes on. No
 * tool fits: a run is persisted as `failed` with `no_capability` and `result.next` naming the
 * index tool (`service_index`, REST `POST /api/v1/index`), answered 200 and pollable like any run.
 * The answer carries `routing` (`toolId`, `name`, `score`, the router's status). `Idempotency-Key`
 * (optional, 1 to 200 characters): a repeat with the same body joins the same run; with another
 * body it is 409 `idempotency_conflict`. Refusals: 401/403, 400 `bad_request` / `invalid_input`,
 * 422 `unknown_argument` (body field, or an input the tool does not take), 402 before a run.
 */
export function registerTaskRunRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { store, engine, auth, clock } = deps
  const router = createToolRouter()
  const nextId = monotonicFactory()
  const tools = createWorkspaceToolCache(store.toolsFor)

  app.post(
    '/api/v1/runs',
    {
      schema: routeSchema({
        summary: 'Run a task: the intent is routed to a verified tool and run with the inputs.',
        tag: 'runs',
        auth: 'key',
        body: { schema: TASK_RUN_BODY_SCHEMA, required: true },
        params: [IDEMPOTENCY_CALL, DEADLINE],
        responses: {
          ...runAnswers,
          '504': { description: 'Deadline passed.', schema: schemaRef('RunTimeoutError') },
        },
        errors: [
          'bad_request',
          'invalid_input',
          'unknown_argument',
          'idempotency_conflict',
          'not_found',
          ...billing,
          'run_timeout',
        ],
      }),
    },
    async (request, reply) => {
      const caller = auth.authenticate(request)
      const body = validBody<TaskBody>(request)
      // Spec B rule 4: secret values never appear in intents; name them as {{secret:NAME}}.
      await deps.vault?.refuseSecretValues(body.intent, caller.tenant)
      const deadlineMs = parseDeadline(request.headers['x-service-deadline-ms'], body.deadlineMs)
      const key = taskKey(request.headers['idempotency-key'])
      const domain = body.domain?.toLowerCase() ?? null
      const inputHash = hashInputs({
        intent: body.intent,
        inputs: body.inputs ?? {},
        domain,
        allow_mutation: body.allow_mutation === true,
      })
      /** The task's run of `tool` through the call operation, like a site tool call. */
      const call = (
        tool: ToolSpec,
        inputs: Record<string, unknown>,
        onStarted?: (started: StartedRun) => void,
      ) =>
        engine.call({
          tool: { tool },
          inputs,
          tenant: caller.tenant,
          idempotencyKey: key,
          deadlineMs,
          mayAsk: true,
          allowMutation: body.allow_mutation === true,
          billOnSuccess: true,
          ...(onStarted ? { onStarted } : {}),
        })

      if (key) {
        const stored = store.receipts.get<TaskReceipt>(caller.tenant, key)
        if (stored) {
          if (stored.inputHash !== inputHash)
            throw new ServiceError(
              'idempotency_conflict',
              'This Idempotency-Key was used with a different task.',
            )
          const run = store.runs.get(stored.result.runId)
          if (!run) throw new ServiceError('not_found', `No run ${stored.result.runId}.`)
          const tool = stored.result.toolId
            ? store.toolsFor(caller.tenant).get(stored.result.toolId)
            : null
          // Joining through the call operation hands back the running run's own completion.
          if (tool && !isFinal(run))
            return sendOutcome(reply, await call(tool, stored.result.inputs), body.select)
          return sendRun(reply, run, body.select)
        }
      }

      const verified = tools(caller.tenant).filter((t) => t.status === 'verified')
      const routing = router.route(body.intent, verified, { domain })
      const best = routing.status === 'matched' ? routing.tools[0]! : null
      const tool = best ? store.toolsFor(caller.tenant).get(best.id) : null
      // The key's receipt names the run it started, so a repeat joins that run.
      const keep = (result: TaskReceipt) => {
        if (key)
          store.receipts.put({
            tenant: caller.tenant,
            opKey: key,
            operation: 'task',
            inputHash,
            status: 'completed',
            cost: 0,
            result,
            createdAt: clock(),
            updatedAt: clock(),
          })
      }
      if (!best || !tool) {
        const run = noCapability(body, routing, caller.tenant, key)
        keep({ runId: run.runId, toolId: null, inputs: {} })
        return sendRun(reply, run, body.select, { routing: routingOf(routing) })
      }
      const inputs = taskInputs(tool, body.inputs ?? {})
      const outcome = await call(tool, inputs, (started) =>
        keep({ runId: started.run.runId, toolId: tool.id, inputs }),
      )
      return sendOutcome(reply, outcome, body.select, { routing: routingOf(routing, best) })
    },
  )

  /** Persists the failed run of a task no tool fits (spec "Why a run failed": `no_capability`). */
  function noCapability(
    body: TaskBody,
    routing: RouteResult,
    tenant: string,
    key: string | null,
  ): RunRecord {
    const runId = `lrun_${nextId(clock())}`
    return store.db.transaction(() => {
      const { run, created } = store.runs.create(
        {
          runId,
          tenant,
          toolId: '',
          capabilityId: null,
          via: null,
          inputs: body.inputs ?? {},
          inputHash: hashInputs(body.inputs ?? {}),
          idempotencyKey: key,
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
    })()
  }
}

/** The extra `routing` field of a task's run: which tool it went to, with what confidence. */
function routingOf(routing: RouteResult, best?: ToolMatch) {
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

/** The task's idempotency key in the engine's and the receipts' namespace, or null. */
function taskKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY)
    throw new ServiceError(
      'invalid_input',
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`,
    )
  return `task:${header}`
}
