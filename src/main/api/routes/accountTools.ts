import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import { summarizeTool } from '../../../shared/toolSpec'
import { slotInputs } from '../slotInputs'
import { timeoutError } from '../../engine/callTool'
import { toPublicRun } from '../../engine/runEngine'
import { admitMetered } from '../billing'
import { EXECUTE_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { validBody } from '../routeValidation'
import { operationKey } from '../operationKey'
import type { ServerDeps } from '../serverDeps'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { OPERATION_KEY, json, toolCallErrors } from '../../surface/openapi/docParts'

const EXECUTE_FIELDS = Object.keys(EXECUTE_BODY_SCHEMA.properties)

/**
 * The account API's tool routes (interface.md "B"): `GET /v1/tools/catalog` (free, unranked) and
 * `POST /v1/tools/{id}/execute` (the first execution of a candidate verifies it).
 */
export function registerAccountToolRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { store, engine, auth, clock } = deps
  // The schema the OpenAPI document shows for this body (src/shared/accountApiSchemas.ts).

  app.get(
    '/v1/usage',
    {
      schema: routeSchema({
        summary: 'The balance (free).',
        tag: 'account',
        auth: 'key',
        responses: { '200': json('Balance and usage.') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = auth.authenticate(request)
      return store.ledger.usage(caller.tenant, clock())
    },
  )

  app.get(
    '/v1/tools/catalog',
    {
      schema: routeSchema({
        summary: 'Unranked list of traces and tools with inputs and verification status (free).',
        tag: 'tools',
        auth: 'key',
        responses: { '200': json('`{traces, tools}`') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = auth.authenticate(request)
      return {
        traces: store.tracesFor(caller.tenant).list(),
        tools: store.toolsFor(caller.tenant).list().map(summarizeTool),
      }
    },
  )

  app.post<{ Params: { id: string } }>(
    '/v1/tools/:id/execute',
    {
      schema: routeSchema({
        summary: 'Execute a tool or candidate once; the first execution verifies a candidate.',
        tag: 'tools',
        auth: 'key',
        body: { schema: EXECUTE_BODY_SCHEMA },
        params: [OPERATION_KEY],
        responses: { '200': json('`{run, tool}`') },
        errors: toolCallErrors,
      }),
    },
    async (request) => {
      const caller = auth.authenticate(request)
      const key = operationKey(request)
      // The account API's refusals carry code and message only (interface.md "Account API status
      // meanings"): an unknown field is named in the message, without the `valid` list the
      // schema's refusal adds.
      const raw = request.body ?? {}
      const unknown =
        typeof raw === 'object' && !Array.isArray(raw)
          ? Object.keys(raw).filter((k) => !EXECUTE_FIELDS.includes(k))
          : []
      if (unknown.length)
        throw new ServiceError(
          'unknown_argument',
          `Unknown fields ${unknown.join(', ')}. Valid: ${EXECUTE_FIELDS.join(', ')}.`,
        )
      // Spec B: the body is optional (no inputs, no confirmation).
      const body = validBody(request, EXECUTE_BODY_SCHEMA, {})
      const tools = store.toolsFor(caller.tenant)
      const tool = tools.get(request.params.id)
      if (!tool) throw new ServiceError('not_found', `No tool ${request.params.id}.`)
      const inputs = slotInputs(tool, body.inputs)
      let charge: () => void = () => undefined
      const outcome = await engine.call({
        tool: { tool },
        inputs,
        tenant: caller.tenant,
        idempotencyKey: `execute:${key}`,
        // Spec B: an execution answers its run when it ends; the first success verifies a candidate.
        deadlineMs: null,
        candidates: true,
        mayAsk: false,
        allowMutation: body.allow_mutation === true,
        serialize: true,
        // Metered once the run is accepted, before it is waited for (accepted runs cost a credit).
        beforeStart: () => {
          if (tool.mutating && body.allow_mutation !== true)
            throw new ServiceError(
              'forbidden',
              `${tool.name} changes data on the site: send "allow_mutation": true to confirm.`,
            )
          charge = admitMetered(store.ledger, caller.tenant, `execute:${key}`, 'execution', clock())
        },
        onStarted: () => charge(),
      })
      // No deadline: never timed out. A browser_capacity failure is an ended run here (spec B).
      if (outcome.kind === 'timed_out') throw timeoutError(outcome)
      return { run: toPublicRun(outcome.run), tool: summarizeTool(tools.get(tool.id) ?? tool) }
    },
  )
}
