import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { COMPOSE_BODY_SCHEMA } from '../../../shared/composeSchemas'
import { compose } from '../../surface/compose'
import { parseDeadline } from '../../surface/deadline'
import { callKey } from '../operationKey'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { DEADLINE, IDEMPOTENCY_CALL, toolCallErrors } from '../../surface/openapi/docParts'
import { schemaRef } from '../../surface/openapi/components'
import { validBody } from '../routeValidation'
import type { ServerDeps } from '../serverDeps'
import { safeJson } from '../../../shared/safeJson'

/** What the compose route answers besides a tool call's refusals (see `composeCallResult`). */
const COMPOSE_ERRORS = [
  ...toolCallErrors,
  'invalid_input@422',
  'forbidden',
  'upstream_not_found',
  'upstream_conflict',
  'upstream_unavailable',
  'upstream_error',
  'upstream_timeout',
  'blocked',
  'outcome_not_verified',
  'schema_or_auth_drift',
  'network_error',
  'render_failed',
  'destination_denied',
  'policy_denied',
  'worker_lost',
  'resource_locked',
  'conflict',
  'browser_capacity',
  'browser_capacity@503',
]

/**
 * The compose call (interface.md "C" `POST /api/v1/compose/v1/call`): one tool by app
 * and name, or up to 10 `steps`, answered in the compose envelope (`compose`). Every answer of
 * this route is an envelope: a refusal raised before the handler's own (401, a malformed body)
 * gets `ok: false` and `code` beside its usual `error` by the route's `onSend`.
 */
export function registerComposeRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const composeDeps = {
    engine: deps.engine,
    toolsFor: deps.store.toolsFor,
    receipts: deps.store.receipts,
    clock: deps.clock,
  }
  app.post(
    '/api/v1/compose/v1/call',
    {
      schema: routeSchema({
        summary:
          'Call a tool by app (site host) and name, or `steps` in order, synchronously: ' +
          '`{ok: true, data, runId}` or `{ok: false, code, error}` (the site’s 404, 409, 5xx ' +
          'and other 4xx as `upstream_*`; past the deadline 504 `upstream_timeout` with ' +
          '`outcome: "unknown"`, never retried). Bills one credit per call that succeeds.',
        tag: 'compose',
        auth: 'key',
        body: { schema: COMPOSE_BODY_SCHEMA, required: true },
        params: [IDEMPOTENCY_CALL, DEADLINE],
        responses: {
          '200': { description: 'Every call succeeded.', schema: schemaRef('ComposeResult') },
        },
        errors: COMPOSE_ERRORS,
      }),
      onSend: asEnvelope,
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const body = validBody(request, COMPOSE_BODY_SCHEMA)
      const deadlineMs = parseDeadline(request.headers['x-service-deadline-ms'], body.timeoutMs)
      const answer = await compose(composeDeps, {
        tenant: caller.tenant,
        scopes: caller.toolScopes,
        body,
        idempotencyKey: callKey(request, 'compose'),
        deadlineMs,
      })
      if (answer.retryAfterSeconds !== undefined)
        void reply.header('retry-after', String(answer.retryAfterSeconds))
      return reply.status(answer.status).send(answer.body)
    },
  )
}

/**
 * A refusal in the usual error body `{error: {code, message}}` as the compose envelope
 * `{ok: false, code, error}`: `error` stays as it was, so `error.code` reads the same.
 */
async function asEnvelope(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload
  const body = safeJson(payload)
  if (!isRefusal(body)) return payload
  return JSON.stringify({ ok: false, code: body.error.code, error: body.error })
}

function isRefusal(body: unknown): body is { error: { code: string } } {
  if (body === null || typeof body !== 'object' || 'ok' in body) return false
  const error = (body as { error?: unknown }).error
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string'
  )
}
