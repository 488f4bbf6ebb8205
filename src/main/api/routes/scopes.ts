import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { ScopeRepository } from '../../store/scopeRepository'
import type { Authenticator } from '../../surface/caller'
import { saveScope } from '../../surface/toolScopes'
import { validBody } from '../routeValidation'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'
import { SCOPE_BODY_SCHEMA } from '../../../shared/accountApiSchemas'

/**
 * Tool scopes (interface.md "C" `POST /api/v1/scopes`): create or replace a workspace's scope (201, or
 * 200 when the slug existed), 400 `too_many_scopes` for a 21st; `GET /api/v1/scopes` lists them;
 * `DELETE /api/v1/scopes/{slug}` deletes one (204, or 404 `unknown_scope`).
 * A scope is used as `/mcp/{slug}`, `/mcp?scope=`, or on REST as `X-Service-Scope` / `?scope=`.
 */
export function registerScopeRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; scopes: ScopeRepository; clock: () => number },
): void {
  app.post(
    '/api/v1/scopes',
    {
      schema: routeSchema({
        summary: 'Create or replace a tool scope (201 new, 200 replaced).',
        tag: 'scopes',
        auth: 'key',
        body: { schema: SCOPE_BODY_SCHEMA, required: true },
        responses: {
          '200': json('The replaced scope.'),
          '201': json('The new scope, with `mcp`.'),
        },
        errors: ['bad_request', 'unknown_argument', 'invalid_scope', 'too_many_scopes'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const body = validBody(request, SCOPE_BODY_SCHEMA)
      const { record, replaced } = saveScope(deps.scopes, caller.tenant, body, deps.clock())
      return reply.status(replaced ? 200 : 201).send({ ...record, mcp: `/mcp/${record.slug}` })
    },
  )

  app.get(
    '/api/v1/scopes',
    {
      schema: routeSchema({
        summary: "List the workspace's tool scopes.",
        tag: 'scopes',
        auth: 'key',
        responses: { '200': json('`{scopes: [...]}`') },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return { scopes: deps.scopes.list(caller.tenant) }
    },
  )

  // 204 when deleted; a connection still naming the slug gets 404 `unknown_scope` from then on.
  app.delete(
    '/api/v1/scopes/:slug',
    {
      schema: routeSchema({
        summary:
          'Delete a tool scope; a connection naming it gets 404 `unknown_scope` from then on.',
        tag: 'scopes',
        auth: 'key',
        responses: { '204': { description: 'Deleted.' } },
        errors: ['unknown_scope'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const { slug } = request.params as { slug: string }
      if (!deps.scopes.remove(caller.tenant, slug))
        throw new ServiceError('unknown_scope', `No tool scope "${slug}" in this workspace.`)
      return reply.status(204).send()
    },
  )
}
