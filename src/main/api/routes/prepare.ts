import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { PREPARE_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { ServiceError } from '../../../shared/errors'
import { hashInputs } from '../../engine/inputsHash'
import { admitMetered } from '../billing'
import { operationKey } from '../operationKey'
import { validBody } from '../routeValidation'
import { prepareCandidate } from '../../surface/prepareCandidate'
import type { ServerDeps } from '../serverDeps'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { OPERATION_KEY, json } from '../../surface/openapi/docParts'

/** Idempotent replays kept per server; older keys fall out first. */
const MAX_REMEMBERED_KEYS = 1000

/**
 * `POST /v1/tools/prepare` (interface.md "B"; 1 credit for manual compilation, billed later): body
 * `{trace_id, request_id, intent, dependency_ids?}` (`PREPARE_BODY_SCHEMA`), header
 * `Idempotency-Key` required. Answers `{candidate}` or `{explanation}`. A repeated key with the
 * same body answers the first result again; with another body it is 409 `idempotency_conflict`.
 */
export function registerPrepareRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const remembered = new Map<string, { bodyHash: string; answer: object }>()

  app.post(
    '/v1/tools/prepare',
    {
      schema: routeSchema({
        summary: 'Compile one observed request of a trace into a candidate (manual compile).',
        tag: 'tools',
        auth: 'key',
        body: { schema: PREPARE_BODY_SCHEMA, required: true },
        params: [OPERATION_KEY],
        responses: { '200': json('`{candidate}` or `{explanation}` of the missing evidence.') },
        errors: [
          'bad_request',
          'invalid_input',
          'invalid_input@422',
          'unknown_argument',
          'not_found',
          'idempotency_conflict',
        ],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const key = operationKey(request)
      const body = validBody(request, PREPARE_BODY_SCHEMA)
      // Spec B rule 4: a secret's value in an intent is refused before the intent is stored.
      await deps.vault.refuseSecretValues(body.intent, caller.tenant)
      const bodyHash = hashInputs(body)
      const memoKey = `${caller.tenant}\0${key}`
      const seen = remembered.get(memoKey)
      if (seen) {
        if (seen.bodyHash !== bodyHash)
          throw new ServiceError(
            'idempotency_conflict',
            `Idempotency-Key "${key}" was used with another body: use a new key.`,
          )
        return seen.answer
      }
      // interface.md "What the service does" 7: one credit per admitted compilation; a repeat is free.
      const charge = admitMetered(
        deps.store.ledger,
        caller.tenant,
        `prepare:${key}`,
        'compilation',
        deps.clock(),
      )
      // The caller's workspace's trace, compiled into its tools.
      const workspace = {
        traces: deps.store.tracesFor(caller.tenant),
        tools: deps.store.toolsFor(caller.tenant),
      }
      const result = prepareCandidate(
        { store: workspace, clock: deps.clock, uuid: randomUUID },
        {
          traceId: body.trace_id,
          exchangeId: body.request_id,
          intent: body.intent,
          ...(body.dependency_ids ? { dependencyExchangeIds: body.dependency_ids } : {}),
        },
      )
      const answer = result.candidate
        ? { candidate: result.candidate }
        : { explanation: result.explanation }
      charge()
      if (remembered.size >= MAX_REMEMBERED_KEYS)
        remembered.delete(remembered.keys().next().value as string)
      remembered.set(memoKey, { bodyHash, answer })
      return answer
    },
  )
}
