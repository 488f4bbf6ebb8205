import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { ServerDeps } from '../serverDeps'
import { sendOutcome, sendRun } from '../callReply'
import { parseDeadline } from '../../surface/deadline'
import { callKey } from '../operationKey'
import { routeSchema } from '../../surface/openapi/routeSchema'
import {
  IDEMPOTENCY_CALL,
  DEADLINE,
  json,
  runAnswers,
  toolCallErrors,
} from '../../surface/openapi/docParts'
import { schemaRef } from '../../surface/openapi/components'

/**
 * Surface A (interface.md "A. Site tool calls") and runs (interface.md "C"): `POST
 * /api/v1/sites/{site_host}/call/{tool_id}`, `GET /api/v1/sites/{site_host}`, `GET
 * /api/v1/runs/{runId}`.
 */
export function registerSiteCallRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { store, engine, auth } = deps

  app.post<{ Params: { siteHost: string; toolId: string } }>(
    '/api/v1/sites/:siteHost/call/:toolId',
    {
      schema: routeSchema({
        summary:
          'Call a site tool (surface A): the body is the tool inputs plus select, deadlineMs.',
        tag: 'site tools',
        auth: 'key',
        body: { schema: schemaRef('CallBody'), required: true },
        params: [IDEMPOTENCY_CALL, DEADLINE],
        responses: {
          ...runAnswers,
          '504': {
            description: 'Deadline passed; the run goes on: poll `error.poll`.',
            schema: schemaRef('RunTimeoutError'),
          },
        },
        errors: [...toolCallErrors, 'browser_capacity', 'browser_capacity@503', 'run_timeout'],
      }),
    },
    async (request, reply) => {
      const caller = auth.authenticate(request)
      const body = request.body
      if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ServiceError(
          'bad_request',
          "The body must be a JSON object of the tool's inputs.",
        )
      const { siteHost, toolId } = request.params
      const { select, deadlineMs: bodyDeadline, ...inputs } = body as Record<string, unknown>
      if (
        select !== undefined &&
        !(Array.isArray(select) && select.every((s) => typeof s === 'string'))
      )
        throw new ServiceError('invalid_input', '"select" must be an array of path strings.')
      const deadlineMs = parseDeadline(request.headers['x-service-deadline-ms'], bodyDeadline)
      const outcome = await engine.call({
        tool: { siteHost, name: toolId },
        inputs,
        tenant: caller.tenant,
        idempotencyKey: callKey(request, 'call'),
        deadlineMs,
        mayAsk: true,
        billOnSuccess: true,
      })
      return sendOutcome(reply, outcome, select as string[] | undefined)
    },
  )

  app.get<{ Params: { siteHost: string } }>(
    '/api/v1/sites/:siteHost',
    {
      schema: routeSchema({
        summary: "List a site's tools with their input schemas.",
        tag: 'site tools',
        auth: 'key',
        responses: { '200': json('`{site_host, tools: [{id, capabilityId, inputs, ...}]}`') },
        errors: ['not_found'],
      }),
    },
    async (request) => {
      const caller = auth.authenticate(request)
      const { siteHost } = request.params
      const tools = store.toolsFor(caller.tenant).list({ siteHost })
      if (!tools.length) throw new ServiceError('not_found', `No tools on ${siteHost}.`)
      return {
        site_host: siteHost,
        tools: tools.map((t) => ({
          id: t.name,
          capabilityId: t.capabilityId,
          description: t.description,
          inputs: t.inputs,
          mutating: t.mutating,
          status: t.status,
        })),
      }
    },
  )

  app.get<{ Params: { runId: string } }>(
    '/api/v1/runs/:runId',
    {
      schema: routeSchema({
        summary: 'Poll a run: 200 when final, 202 while it runs or waits.',
        tag: 'runs',
        auth: 'key',
        responses: runAnswers,
        errors: ['not_found', 'result_expired'],
      }),
    },
    async (request, reply) => {
      const caller = auth.authenticate(request)
      const run = engine.get(request.params.runId)
      if (!run || (run.tenant !== caller.tenant && !caller.owner))
        throw new ServiceError('not_found', `No run ${request.params.runId}.`)
      if (run.resultExpiredAt && run.status === 'succeeded')
        throw new ServiceError(
          'result_expired',
          `The result of ${run.runId} was dropped on ${run.resultExpiredAt} (results are kept for a while, then removed): run the tool again.`,
          { runId: run.runId, status: run.status, resultExpiredAt: run.resultExpiredAt },
        )
      return sendRun(reply, run, undefined)
    },
  )
}
