import type { FastifyInstance } from 'fastify'
import { ANSWER_ERROR_CODES, ServiceError } from '../../../shared/errors'
import { isFinal, toPublicRun } from '../../engine/runEngine'
import { DEADLINE_DEFAULT_MS, settleWithin } from '../../surface/deadline'
import type { ServerDeps } from '../serverDeps'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { run, runAnswers } from '../../surface/openapi/docParts'
import { RUN_RESPONSES_BODY_SCHEMA } from '../../../shared/accountApiSchemas'

/**
 * Answering and cancelling runs (interface.md "C" and "Answering an input_required run"):
 * `POST /api/v1/runs/{runId}/responses` `{stateRevision, answers:[{requirementId, value |
 * optionId | approve}]}` continues the same run and answers like a call: 200 when it finished,
 * 202 while it waits or still runs; `POST /api/v1/runs/{runId}/cancel` (the cancel path docs/interface.md
 * leaves "not shown") stops it and answers the cancelled run.
 */
export function registerRunRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { engine, auth } = deps

  app.post<{ Params: { runId: string } }>(
    '/api/v1/runs/:runId/responses',
    {
      schema: routeSchema({
        summary: "Answer a run's open requirements (approval, choice, value).",
        tag: 'runs',
        auth: 'key',
        body: { schema: RUN_RESPONSES_BODY_SCHEMA, required: true },
        responses: runAnswers,
        errors: [
          'bad_request',
          'invalid_input',
          'not_found',
          ...ANSWER_ERROR_CODES,
          'idempotency_conflict',
        ],
      }),
    },
    async (request, reply) => {
      const caller = auth.authenticate(request)
      const body = request.body
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ServiceError(
          'bad_request',
          'The body must be a JSON object {stateRevision, answers}.',
        )
      const started = engine.respond(request.params.runId, caller.owner ? null : caller.tenant, {
        stateRevision: (body as Record<string, unknown>).stateRevision,
        answers: (body as Record<string, unknown>).answers,
      })
      const run =
        (await settleWithin(started.done, started.run.deadlineMs ?? DEADLINE_DEFAULT_MS)) ??
        engine.get(started.run.runId)!
      return reply.status(isFinal(run) ? 200 : 202).send(toPublicRun(run))
    },
  )

  app.post<{ Params: { runId: string } }>(
    '/api/v1/runs/:runId/cancel',
    {
      schema: routeSchema({
        summary: 'Cancel a run that has not finished.',
        tag: 'runs',
        auth: 'key',
        responses: { '200': run('The cancelled run.') },
        errors: ['bad_request', 'not_found', 'conflict'],
      }),
    },
    async (request) => {
      const caller = auth.authenticate(request)
      return toPublicRun(engine.cancel(request.params.runId, caller.owner ? null : caller.tenant))
    },
  )
}
