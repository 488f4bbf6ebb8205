import type { FastifyInstance } from 'fastify'
import { monotonicFactory } from 'ulid'
import { KEY_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { ServiceError } from '../../../shared/errors'
import type { ApiKeyRecord, KeyRepository } from '../../store/keyRepository'
import type { Authenticator } from '../../surface/caller'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'
import { validBody } from '../routeValidation'

/** A key as listed: never the key itself (only its SHA-256 is stored). */
const summary = (k: ApiKeyRecord) => ({
  id: k.id,
  label: k.label,
  kind: k.kind,
  prefix: k.prefix,
  createdAt: k.createdAt,
  revokedAt: k.revokedAt,
  lastUsedAt: k.lastUsedAt ?? null,
})

/**
 * The workspace's API keys over the account API (interface.md "Authentication" 1-3),
 * owner token, or on a team server an owner or admin of the workspace: `GET /v1/keys` lists them; `POST /v1/keys {label?, kind?}` mints one (201,
 * the key shown once; `kind: "org"` may act for end users with `X-Service-End-User`);
 * `DELETE /v1/keys/{id}` revokes one (200 `{revoked}`, 404 `not_found` for a key of another
 * workspace or none). Bad bodies are refused as the interface's "Request shape" says (`KEY_BODY_SCHEMA`).
 */
export function registerKeyRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; keys: KeyRepository; clock: () => number },
): void {
  const ulid = monotonicFactory()

  app.get(
    '/v1/keys',
    {
      schema: routeSchema({
        summary: "The workspace's API keys (never the keys themselves).",
        tag: 'app',
        auth: 'owner',
        responses: {
          '200': json('`{keys: [{id, label, kind, prefix, createdAt, revokedAt, lastUsedAt}]}`'),
        },
        errors: [],
      }),
    },
    async (request) => {
      const caller = deps.auth.requireManager(request)
      return { keys: deps.keys.list(caller.tenant).map(summary) }
    },
  )

  app.post(
    '/v1/keys',
    {
      schema: routeSchema({
        summary: 'Mint an API key (`kind` personal or org); the key is shown once.',
        tag: 'app',
        auth: 'owner',
        body: { schema: KEY_BODY_SCHEMA },
        responses: { '201': json('`{key, id, label, kind, prefix, createdAt, ...}`') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.requireManager(request)
      const body = validBody(request, KEY_BODY_SCHEMA, {})
      const label = (body.label ?? 'api').trim()
      const kind = body.kind ?? 'personal'
      const { key, record } = deps.keys.create(
        { id: `key_${ulid(deps.clock())}`, tenant: caller.tenant, label, kind },
        deps.clock(),
      )
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({ key, ...summary(record) })
    },
  )

  app.delete<{ Params: { id: string } }>(
    '/v1/keys/:id',
    {
      schema: routeSchema({
        summary: "Revoke one of the workspace's API keys.",
        tag: 'app',
        auth: 'owner',
        responses: { '200': json('`{revoked}`') },
        errors: ['not_found'],
      }),
    },
    async (request) => {
      const caller = deps.auth.requireManager(request)
      const { id } = request.params
      if (!deps.keys.list(caller.tenant).some((k) => k.id === id))
        throw new ServiceError('not_found', `No key ${id} in this workspace.`)
      return { revoked: deps.keys.revoke(id, deps.clock()) }
    },
  )
}
