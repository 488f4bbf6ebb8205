import type { FastifyInstance } from 'fastify'
import { monotonicFactory } from 'ulid'
import { ServiceError } from '../../../shared/errors'
import type { ApiKeyRecord, KeyRepository } from '../../store/keyRepository'
import type { Authenticator } from '../auth'
import { routeSchema } from '../openapi/routeSchema'
import { json } from '../openapi/docParts'

const MAX_LABEL = 100
const FIELDS = new Set(['label', 'kind'])

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
 * The workspace's API keys over the account API (spec "Authentication" 1-3),
 * owner token only: `GET /v1/keys` lists them; `POST /v1/keys {label?, kind?}` mints one (201,
 * the key shown once; `kind: "org"` may act for end users with `X-Service-End-User`);
 * `DELETE /v1/keys/{id}` revokes one (200 `{revoked}`, 404 `not_found` for a key of another
 * workspace or none). Bad bodies are 400 `invalid_input`.
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
      const caller = deps.auth.requireOwner(request)
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
        responses: { '201': json('`{key, id, label, kind, prefix, createdAt, ...}`') },
        errors: [],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.requireOwner(request)
      const { label, kind } = parseKeyBody(request.body)
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
      const caller = deps.auth.requireOwner(request)
      const { id } = request.params
      if (!deps.keys.list(caller.tenant).some((k) => k.id === id))
        throw new ServiceError('not_found', `No key ${id} in this workspace.`)
      return { revoked: deps.keys.revoke(id, deps.clock()) }
    },
  )
}

function parseKeyBody(body: unknown): { label: string; kind: 'personal' | 'org' } {
  const input = body ?? {}
  if (typeof input !== 'object' || Array.isArray(input))
    throw new ServiceError('invalid_input', 'The body is a JSON object {label?, kind?}.')
  const record = input as Record<string, unknown>
  const extra = Object.keys(record).filter((k) => !FIELDS.has(k))
  if (extra.length)
    throw new ServiceError('invalid_input', `Unknown fields ${extra.join(', ')}: send label, kind.`)
  const label = record.label ?? 'api'
  if (typeof label !== 'string' || !label.trim() || label.length > MAX_LABEL)
    throw new ServiceError('invalid_input', `"label" takes 1 to ${MAX_LABEL} characters.`)
  const kind = record.kind ?? 'personal'
  if (kind !== 'personal' && kind !== 'org')
    throw new ServiceError('invalid_input', '"kind" is "personal" or "org".')
  return { label: label.trim(), kind }
}
