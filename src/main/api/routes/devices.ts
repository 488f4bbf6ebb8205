import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { DeviceHub } from '../../server/devices'
import { MAX_DEVICE_WAIT_S } from '../../server/devices'
import { workspaceOf } from '../../store/workspaces'
import type { Authenticator } from '../../surface/caller'
import { json } from '../../surface/openapi/docParts'
import { routeSchema, type ParamDoc } from '../../surface/openapi/routeSchema'
import { validBody } from '../routeValidation'
import { ownValue } from '../../../shared/safeKeys'

const REGISTER_SCHEMA = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    sites: Type.Array(Type.String({ minLength: 1, maxLength: 260 }), { maxItems: 500 }),
    asksApprovals: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    'x-message': '`{name, sites: ["host[:port]", ...], asksApprovals?}`',
  },
)

const REPORT_SCHEMA = Type.Object(
  {
    status: Type.Union([
      Type.Literal('succeeded'),
      Type.Literal('failed'),
      Type.Literal('outcome_unknown'),
      Type.Literal('expired'),
    ]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(
      Type.Union([
        Type.Object(
          { code: Type.String({ maxLength: 100 }), message: Type.String({ maxLength: 10_000 }) },
          { additionalProperties: true },
        ),
        Type.Null(),
      ]),
    ),
    via: Type.Optional(Type.Union([Type.Literal('http'), Type.Literal('rendered'), Type.Null()])),
    signIn: Type.Optional(
      Type.Union([
        Type.Object({ url: Type.String({ maxLength: 2_000 }) }, { additionalProperties: false }),
        Type.Null(),
      ]),
    ),
    effects: Type.Optional(
      Type.Array(
        Type.Object(
          {
            method: Type.String({ maxLength: 20 }),
            url: Type.String({ maxLength: 10_000 }),
            status: Type.Union([Type.Integer(), Type.Null()]),
            at: Type.String({ maxLength: 40 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  {
    additionalProperties: false,
    'x-message': '`{status, result?, error?: {code, message}, via?, signIn?: {url}, effects?}`',
  },
)

const WAIT: ParamDoc = {
  name: 'wait',
  in: 'query',
  description: `Seconds to wait for a run, 0 to ${MAX_DEVICE_WAIT_S} (default ${MAX_DEVICE_WAIT_S}).`,
  schema: { type: 'string', pattern: '^[0-9]{1,2}$' },
}

/**
 * The device routes of a team server (docs/team-server.md "Devices"), for a linked
 * desktop's credential like the sync routes (an OAuth token needs `tools:sync`):
 *
 * - `POST /v1/devices {name, sites, asksApprovals?}`: registers the desktop as a device of the
 *   workspace, or refreshes the one of that name: 200 `{id, name, sites, registeredAt,
 *   lastSeenAt, asksApprovals}`. `sites` are host names (`host[:port]`) it holds logins for,
 *   never a value; `asksApprovals` (default false): it asks its person to approve a write the
 *   caller did not confirm, so such writes are handed to it unapproved.
 * - `GET /v1/devices/{id}/next?wait=S` (S ≤ 25): the next run the device is to execute, offered
 *   to it: 200 `{run: {runId, toolId, inputs, mutating, dueBy}, tool}`; 204 when none came
 *   within the wait.
 * - `POST /v1/devices/{id}/runs/{runId}/take`: the device takes the offered run before it runs
 *   anything: 200 `{runId, taken: true}` (again for a second take). A run not taken within 15 s
 *   is offered again (the poll's answer may have gone to a device that hung up); 409 `conflict`
 *   tells the device to run nothing.
 * - `POST /v1/devices/{id}/runs/{runId}` `{status, result?, error?, via?, signIn?, effects?}`:
 *   the outcome of a claimed run (`expired`: nobody approved it on the device in time; `signIn`:
 *   the device's own sign-in link of a run that met a sign-in wall); 200 `{runId, received:
 *   true}`. The node that started the run settles it.
 * - `DELETE /v1/devices/{id}`: unlinks the device: 200 `{id, deleted: true, endedRuns}`; its runs
 *   nobody claimed end `expired`, its claims and reports are refused from then on.
 *
 * Refusals: 404 `not_found` (no such device in the workspace, a run not the device's), 409
 * `conflict` (a run not offered or claimed, past its deadline, or reported already), 400 `invalid_input`, and bad bodies as
 * every route (400 `bad_request`, 422 `unknown_argument`).
 */
export function registerDeviceRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; devices: DeviceHub },
): void {
  const { devices } = deps
  const workspace = (tenant: string) => {
    // An org key's end user has no devices: a device runs its own person's logins.
    if (tenant !== workspaceOf(tenant))
      throw new ServiceError('forbidden', "An end user's requests cannot act as a device.")
    return tenant
  }

  app.post(
    '/v1/devices',
    {
      schema: routeSchema({
        summary:
          'Register (or refresh) this desktop as a device and the sites it holds logins for.',
        tag: 'sync',
        auth: 'key',
        body: { schema: REGISTER_SCHEMA, required: true },
        responses: {
          '200': json('`{id, name, sites, registeredAt, lastSeenAt, asksApprovals}`'),
        },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'forbidden'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const body = validBody(request, REGISTER_SCHEMA)
      return devices.register(
        workspace(caller.tenant),
        body.name,
        body.sites,
        body.asksApprovals ?? false,
      )
    },
  )

  app.get<{ Params: { id: string } }>(
    '/v1/devices/:id/next',
    {
      schema: routeSchema({
        summary: "Long poll: the device's next run to execute, or 204 after the wait.",
        tag: 'sync',
        auth: 'key',
        params: [WAIT],
        responses: {
          '200': json('`{run: {runId, toolId, inputs, mutating, dueBy}, tool}`'),
          '204': { description: 'No run within the wait.' },
        },
        errors: ['invalid_input', 'not_found', 'forbidden'],
      }),
    },
    async (request, reply) => {
      const caller = deps.auth.authenticate(request)
      const raw = ownValue(request.query, 'wait')
      if (raw !== undefined && (typeof raw !== 'string' || !/^[0-9]{1,2}$/.test(raw)))
        throw new ServiceError('invalid_input', `"wait" is 0 to ${MAX_DEVICE_WAIT_S} seconds.`)
      const wait = raw === undefined ? MAX_DEVICE_WAIT_S : Number(raw)
      if (wait > MAX_DEVICE_WAIT_S)
        throw new ServiceError('invalid_input', `"wait" is 0 to ${MAX_DEVICE_WAIT_S} seconds.`)
      // A device that hangs up stops its wait (its next poll claims what came meanwhile).
      const gone = new AbortController()
      reply.raw.once('close', () => gone.abort())
      const work = await devices.next(
        workspace(caller.tenant),
        request.params.id,
        wait * 1000,
        gone.signal,
      )
      if (!work) return reply.status(204).send()
      return reply.header('cache-control', 'no-store').send(work)
    },
  )

  registerTakeRoute(app, deps, workspace)

  app.post<{ Params: { id: string; runId: string } }>(
    '/v1/devices/:id/runs/:runId',
    {
      schema: routeSchema({
        summary: 'Report the outcome of a run this device claimed.',
        tag: 'sync',
        auth: 'key',
        body: { schema: REPORT_SCHEMA, required: true },
        responses: { '200': json('`{runId, received: true}`') },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'not_found',
          'conflict',
          'forbidden',
        ],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const body = validBody(request, REPORT_SCHEMA)
      const { id, runId } = request.params
      return { ...devices.report(workspace(caller.tenant), id, runId, body), received: true }
    },
  )

  registerUnlinkRoute(app, deps, workspace)
}

/** `POST /v1/devices/{id}/runs/{runId}/take` (see `registerDeviceRoutes`). */
function registerTakeRoute(
  app: FastifyInstance,
  deps: { auth: Authenticator; devices: DeviceHub },
  workspace: (tenant: string) => string,
): void {
  app.post<{ Params: { id: string; runId: string } }>(
    '/v1/devices/:id/runs/:runId/take',
    {
      schema: routeSchema({
        summary: 'Take a run a long poll offered, before running it.',
        tag: 'sync',
        auth: 'key',
        responses: { '200': json('`{runId, taken: true}`') },
        errors: ['not_found', 'conflict', 'forbidden'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      const { id, runId } = request.params
      return deps.devices.take(workspace(caller.tenant), id, runId)
    },
  )
}

/** `DELETE /v1/devices/{id}` (see `registerDeviceRoutes`). */
function registerUnlinkRoute(
  app: FastifyInstance,
  deps: { auth: Authenticator; devices: DeviceHub },
  workspace: (tenant: string) => string,
): void {
  app.delete<{ Params: { id: string } }>(
    '/v1/devices/:id',
    {
      schema: routeSchema({
        summary: 'Unlink a device: its waiting runs end expired, its claims and reports end.',
        tag: 'sync',
        auth: 'key',
        responses: { '200': json('`{id, deleted: true, endedRuns}`') },
        errors: ['not_found', 'forbidden'],
      }),
    },
    async (request) => {
      const caller = deps.auth.authenticate(request)
      return deps.devices.remove(workspace(caller.tenant), request.params.id)
    },
  )
}
