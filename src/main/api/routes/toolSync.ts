import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ServiceError, isServiceError } from '../../../shared/errors'
import { findCredentials } from '../../../shared/toolCredentials'
import type { ToolSpec } from '../../../shared/toolSpec'
import type { Store } from '../../store/store'
import type { SyncOperation } from '../../store/toolSyncRepository'
import type { Authenticator } from '../../surface/caller'
import { json, OPERATION_KEY } from '../../surface/openapi/docParts'
import { routeSchema, type ParamDoc } from '../../surface/openapi/routeSchema'
import { operationKey } from '../operationKey'
import { validBody } from '../routeValidation'
import { ownValue } from '../../../shared/safeKeys'

/** Most changes one pull answers (`limit` may ask fewer); the rest come with `more`. */
const MAX_SYNC_PAGE = 500

const refusal = (message: string) => ({ 'x-message': message })
const REVISION = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
  description: 'The revision of the tool the change was made on; null (or 0) for a new tool.',
  ...refusal('"baseRevision" is the revision the change was made on, or null for a new tool.'),
})
const TOOL = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    siteHost: Type.String({ minLength: 1, maxLength: 300 }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    status: Type.Union([
      Type.Literal('candidate'),
      Type.Literal('verified'),
      Type.Literal('quarantined'),
    ]),
    steps: Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1 }),
    inputs: Type.Object({}, { additionalProperties: true }),
    verify: Type.Object({}, { additionalProperties: true }),
    evidence: Type.Object({}, { additionalProperties: true }),
    createdAt: Type.Integer({ minimum: 0 }),
    updatedAt: Type.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: true,
    description: 'The whole tool spec (docs/architecture.md "The records"), never a credential.',
    ...refusal('"tool" is a whole tool spec: id, siteHost, name, status, steps, verify...'),
  },
)
const PUSH_SCHEMA = Type.Object(
  { baseRevision: REVISION, tool: TOOL },
  { additionalProperties: false },
)

const SINCE: ParamDoc = {
  name: 'since',
  in: 'query',
  description: 'Answer changes after this workspace revision (default 0: every tool).',
  schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
}
const LIMIT: ParamDoc = {
  name: 'limit',
  in: 'query',
  description: `Most changes in this answer, 1 to ${MAX_SYNC_PAGE} (default ${MAX_SYNC_PAGE}).`,
  schema: { type: 'string', pattern: '^[0-9]{1,4}$' },
}
const BASE: ParamDoc = {
  name: 'baseRevision',
  in: 'query',
  required: true,
  description: 'The revision of the tool the delete was decided on.',
  schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
}

export interface ToolSyncDeps {
  auth: Authenticator
  store: Store
  clock: () => number
}

/** A non-negative whole number of a query parameter, or `fallback` when absent; else 400. */
function queryNumber(request: FastifyRequest, name: string, fallback: number | null): number {
  const value = ownValue(request.query, name)
  if (value === undefined && fallback !== null) return fallback
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value))
    throw new ServiceError('invalid_input', `"${name}" is a whole number of 0 or more.`)
  return Number(value)
}

/**
 * Tool sync of a team server (docs/team-server.md "Sync"), for a workspace's
 * members and its keys and OAuth tokens (`tools:read` to pull, `tools:sync` to push):
 *
 * - `GET /v1/sync/tools?since=N&limit=M`: `{revision, tools: [{revision, tool}], deleted:
 *   [{toolId, revision, deletedAt}], more}`, the tools changed and deleted after revision N,
 *   oldest first; the next pull asks `since=revision`.
 * - `PUT /v1/sync/tools/{toolId}` `{baseRevision, tool}` with an `Idempotency-Key`: applied when
 *   `baseRevision` is the tool's revision (or null/0 and the workspace never had it, or deleted
 *   it at that revision): 200 `{toolId, revision, before}` (`before`: the workspace's revision
 *   just before, so a desktop that had pulled up to it knows it missed nothing). A key seen before answers what it answered,
 *   applying nothing. Refusals: 409 `stale_revision` with `current: {revision, tool}` and
 *   `yours`; 400 `credential_in_tool` with `findings` (paths, never values); 409 `conflict` for
 *   a name another tool of the site holds, or an id of another workspace; 400 `invalid_input`.
 * - `DELETE /v1/sync/tools/{toolId}?baseRevision=N` with an `Idempotency-Key`: 200 `{toolId,
 *   revision, deleted: true}` (a tool already gone answers its tombstone's revision); 409
 *   `stale_revision` as above.
 *
 * Each push runs in one transaction with the workspace locked, so pushes racing on two nodes
 * apply one after the other and the second meets the first's revision.
 */
export function registerToolSyncRoutes(app: FastifyInstance, deps: ToolSyncDeps): void {
  registerPullRoute(app, deps)
  registerPushRoute(app, deps)
  registerDeleteRoute(app, deps)
}

/** The workspace of a caller's tenant, as the tool store names it. */
function workspaceOf(deps: ToolSyncDeps, tenant: string): string {
  return deps.store.toolsFor(tenant).workspace
}

/** `GET /v1/sync/tools`: the tools changed and deleted after a revision, a page at a time. */
function registerPullRoute(app: FastifyInstance, deps: ToolSyncDeps): void {
  const { store } = deps
  app.get(
    '/v1/sync/tools',
    {
      schema: routeSchema({
        summary: 'Pull the tools changed and deleted after a workspace revision.',
        tag: 'sync',
        auth: 'key',
        params: [SINCE, LIMIT],
        responses: { '200': json('`{revision, tools: [{revision, tool}], deleted, more}`') },
        errors: ['invalid_input'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const since = queryNumber(request, 'since', 0)
      const limit = Math.min(
        Math.max(queryNumber(request, 'limit', MAX_SYNC_PAGE), 1),
        MAX_SYNC_PAGE,
      )
      return store.toolSync.changes(workspaceOf(deps, caller.tenant), since, limit)
    },
  )
}

/** `PUT /v1/sync/tools/{toolId}`: a tool pushed on its base revision. */
function registerPushRoute(app: FastifyInstance, deps: ToolSyncDeps): void {
  const { store } = deps
  app.put<{ Params: { toolId: string } }>(
    '/v1/sync/tools/:toolId',
    {
      schema: routeSchema({
        summary: 'Push a tool made or changed on a desktop (verified, edited, quarantined).',
        tag: 'sync',
        auth: 'key',
        params: [OPERATION_KEY],
        body: { schema: PUSH_SCHEMA, required: true },
        responses: {
          '200': json(
            '`{toolId, revision, before}`: applied (or applied before, same key); `before` is the workspace revision just before.',
          ),
        },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'stale_revision',
          'credential_in_tool',
          'conflict',
          'idempotency_conflict',
        ],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const key = operationKey(request)
      const body = validBody(request, PUSH_SCHEMA)
      const { toolId } = request.params
      const tool = body.tool as unknown as ToolSpec
      if (tool.id !== toolId)
        throw new ServiceError('invalid_input', `The tool's id is ${tool.id}, not ${toolId}.`)
      const findings = findCredentials(tool)
      if (findings.length > 0)
        throw new ServiceError(
          'credential_in_tool',
          `The tool carries a credential or recorded traffic at ${findings
            .map((f) => f.path)
            .join(', ')}: push it without (a saved login or {{secret:NAME}} instead).`,
          { findings },
        )
      const workspace = workspaceOf(deps, caller.tenant)
      const op = pushTool(deps, workspace, key, toolId, body.baseRevision, tool, () => {
        try {
          store.toolsFor(caller.tenant).save(tool)
        } catch (error) {
          if (isServiceError(error)) throw error
          throw new ServiceError(
            'conflict',
            `Tool ${toolId} cannot be saved here: another tool of ${tool.siteHost} is named ` +
              `${tool.name}, or the id belongs to another workspace.`,
          )
        }
        return { toolId, revision: store.toolSync.state(workspace, toolId)!.revision }
      })
      return reply.status(op.status).send(op.answer)
    },
  )
}

/** `DELETE /v1/sync/tools/{toolId}`: a tool deleted on its base revision (a tombstone kept). */
function registerDeleteRoute(app: FastifyInstance, deps: ToolSyncDeps): void {
  const { store } = deps
  app.delete<{ Params: { toolId: string } }>(
    '/v1/sync/tools/:toolId',
    {
      schema: routeSchema({
        summary: 'Push the delete of a tool; other desktops pull it as a tombstone.',
        tag: 'sync',
        auth: 'key',
        params: [OPERATION_KEY, BASE],
        responses: { '200': json('`{toolId, revision, deleted: true, before}`') },
        errors: ['invalid_input', 'stale_revision', 'idempotency_conflict'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const key = operationKey(request)
      const base = queryNumber(request, 'baseRevision', null)
      const { toolId } = request.params
      const workspace = workspaceOf(deps, caller.tenant)
      const op = pushTool(deps, workspace, key, toolId, base, null, (current) => {
        if (current?.tool) store.toolsFor(caller.tenant).delete(toolId)
        return {
          toolId,
          revision: store.toolSync.state(workspace, toolId)?.revision ?? 0,
          deleted: true,
        }
      })
      return reply.status(op.status).send(op.answer)
    },
  )
}

/**
 * Runs one push: with the workspace locked, answers a seen key's answer, else checks the base
 * revision and applies `apply` (which returns the answer), keeping the answer under the key.
 */
function pushTool(
  deps: ToolSyncDeps,
  workspace: string,
  key: string,
  toolId: string,
  baseRevision: number | null,
  yours: ToolSpec | null,
  apply: (current: { revision: number; tool: ToolSpec | null } | null) => Record<string, unknown>,
): SyncOperation {
  const { store } = deps
  return store.transaction(() => {
    const before = store.toolSync.lock(workspace)
    const seen = store.toolSync.operation(workspace, key)
    if (seen) {
      if (seen.toolId !== toolId)
        throw new ServiceError(
          'idempotency_conflict',
          `Idempotency-Key ${key} was used for another tool's push.`,
        )
      return seen
    }
    const current = store.toolSync.state(workspace, toolId)
    const base = baseRevision ?? 0
    const fresh =
      current === null
        ? base === 0
        : current.revision === base || (current.tool === null && base === 0 && yours !== null)
    if (!fresh)
      throw new ServiceError(
        'stale_revision',
        `Tool ${toolId} is at revision ${current?.revision ?? 0}, not ${base}: pull, choose, push again.`,
        { current: current ?? { revision: 0, tool: null }, yours },
      )
    const op: SyncOperation = { toolId, status: 200, answer: { ...apply(current), before } }
    store.toolSync.recordOperation(workspace, key, op, deps.clock())
    return op
  })
}
