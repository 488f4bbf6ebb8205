import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import { normalizeSecretHosts } from '../../vault'
import type { ServerDeps } from '../serverDeps'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { json } from '../../surface/openapi/docParts'
import {
  ACCOUNT_PUT_BODY_SCHEMA,
  VAULT_UNLOCK_BODY_SCHEMA,
} from '../../../shared/accountApiSchemas'
import { validBody } from '../routeValidation'

/**
 * The account API's credentials (spec B `PUT/GET/DELETE /v1/accounts`, "Authentication" 8) and
 * the vault's lock:
 * - `PUT /v1/accounts/{name}` `{value, hosts?}`: stores or replaces a secret; `hosts` (bare
 *   `host[:port]` names) are where it may be sent, and leaving it out keeps an existing secret's
 *   hosts. Answers `{name, hosts, createdAt, updatedAt, created}`, never the value.
 * - `GET /v1/accounts`: `{accounts: [{name, hosts, createdAt, updatedAt}]}`.
 * - `DELETE /v1/accounts/{name}`: `{name, deleted: true}`, or 404 `not_found`.
 * - `GET /v1/vault`: `{vault: {mode, unlockWith, initialized, message}}`.
 * - `POST /v1/vault/unlock` `{passphrase?}` (owner only): unlocks, or sets a new vault's
 *   passphrase; without one it asks the keychain again.
 * A locked vault answers PUT with 503 `unavailable` saying how to unlock it.
 */
export function registerAccountRoutes(app: FastifyInstance, deps: ServerDeps): void {
  app.put<{ Params: { name: string } }>(
    '/v1/accounts/:name',
    {
      schema: routeSchema({
        summary: 'Store or update a secret.',
        tag: 'account',
        auth: 'key',
        body: { schema: ACCOUNT_PUT_BODY_SCHEMA, required: true },
        responses: { '200': json('`{name, hosts, createdAt, updatedAt, created}`') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'unavailable'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const body = validBody(request, ACCOUNT_PUT_BODY_SCHEMA)
      const hosts = body.hosts === undefined ? null : normalizeSecretHosts(body.hosts)
      const { created, secret } = await deps.vault.put(
        caller.tenant,
        request.params.name,
        body.value,
        hosts,
      )
      return { ...secret, created }
    },
  )

  app.get(
    '/v1/accounts',
    {
      schema: routeSchema({
        summary: 'List secret names (never values).',
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{accounts: [{name, hosts, createdAt, updatedAt}]}`') },
        errors: ['unavailable'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return { accounts: deps.vault.list(caller.tenant) }
    },
  )

  app.delete<{ Params: { name: string } }>(
    '/v1/accounts/:name',
    {
      schema: routeSchema({
        summary: 'Delete a secret.',
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{name, deleted: true}`') },
        errors: ['bad_request', 'not_found', 'unavailable'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const { name } = request.params
      if (!deps.vault.remove(caller.tenant, name))
        throw new ServiceError('not_found', `No secret "${name}".`)
      return { name, deleted: true }
    },
  )

  app.get(
    '/v1/vault',
    {
      schema: routeSchema({
        summary: "The vault's state: mode, how to unlock, initialized.",
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{vault}`') },
        errors: ['unavailable'],
      }),
    },
    async (request) => {
      deps.auth.authenticate(request)
      return { vault: await deps.vault.open() }
    },
  )

  app.post(
    '/v1/vault/unlock',
    {
      schema: routeSchema({
        summary: "Unlock the vault, or set a new vault's passphrase (owner only).",
        tag: 'account',
        auth: 'owner',
        body: { schema: VAULT_UNLOCK_BODY_SCHEMA },
        responses: { '200': json('`{vault}`') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'unavailable'],
      }),
    },
    async (request) => {
      deps.auth.requireOwner(request)
      const body = validBody(request, VAULT_UNLOCK_BODY_SCHEMA, {})
      return { vault: await deps.vault.unlock(body.passphrase) }
    },
  )
}
