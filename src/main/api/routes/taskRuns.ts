import type { FastifyInstance } from 'fastify'
import { TASK_RUN_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { sendOutcome, sendRun } from '../callReply'
import { parseDeadline } from '../../surface/deadline'
import { schemaRef } from '../../surface/openapi/components'
import { billing, DEADLINE, IDEMPOTENCY_CALL, runAnswers } from '../../surface/openapi/docParts'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { callKey } from '../operationKey'
import { validBody } from '../routeValidation'
import type { ServerDeps } from '../serverDeps'
import { createTaskRunner, runTask } from '../taskRunner'

const TASK_RUN_ROUTE = routeSchema({
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
})

/**
 * `POST /api/v1/runs`, run by task (interface.md "C"; body `TASK_RUN_BODY_SCHEMA`): the intent is routed
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
  const runner = createTaskRunner(deps)
  app.post('/api/v1/runs', { schema: TASK_RUN_ROUTE }, async (request, reply) => {
    const caller = deps.auth.authenticate(request)
    const body = validBody(request, TASK_RUN_BODY_SCHEMA)
    // Spec B rule 4: secret values never appear in intents; name them as {{secret:NAME}}.
    await deps.vault.refuseSecretValues(body.intent, caller.tenant)
    const deadlineMs = parseDeadline(request.headers['x-service-deadline-ms'], body.deadlineMs)
    const key = callKey(request, 'task')
    const answer = await runTask(runner, { tenant: caller.tenant, body, deadlineMs, key })
    const extra = answer.routing ? { routing: answer.routing } : {}
    return 'run' in answer
      ? sendRun(reply, answer.run, body.select, extra)
      : sendOutcome(reply, answer.outcome, body.select, extra)
  })
}
