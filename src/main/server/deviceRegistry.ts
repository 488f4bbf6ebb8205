import { randomUUID } from 'node:crypto'
import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import {
  toDevice,
  type DeviceHubContext,
  type DeviceRecord,
  type DeviceReport,
  type DeviceRow,
} from './deviceRecords'

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,99}$/u
const SITE = /^[a-z0-9.-]{1,253}(:[0-9]{1,5})?$/

/** Device `id` of `workspace`; 404 `not_found` for a device `workspace` does not have. */
export function findDevice(ctx: DeviceHubContext, workspace: string, id: string): DeviceRecord {
  const row = ctx.store.pg.one<DeviceRow>(
    'SELECT * FROM devices WHERE id = $1 AND workspace = $2',
    [id, workspace],
  )
  if (!row) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
  return toDevice(row)
}

/** `DeviceHub.register`: registers a device of `workspace` or refreshes the one of that name. */
export function registerDevice(
  ctx: DeviceHubContext,
  workspace: string,
  name: string,
  sites: string[],
  asksApprovals: boolean,
): DeviceRecord {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new ServiceError(
      'invalid_input',
      '"name" is 1 to 100 letters, digits, spaces or . _ \' -, starting with a letter or digit.',
    )
  const hosts = [...new Set(sites.map((s) => s.toLowerCase()))]
  const bad = hosts.find((s) => !SITE.test(s))
  if (bad !== undefined || hosts.length > 500)
    throw new ServiceError(
      'invalid_input',
      `"sites" are up to 500 host names (host or host:port), not values: ${bad ?? 'too many'}.`,
    )
  const now = ctx.clock()
  const row = ctx.store.pg.one<DeviceRow>(
    `INSERT INTO devices (id, workspace, name, sites, registered_at, last_seen_at,
       asks_approvals)
     VALUES ($1, $2, $3, $4, $5, $5, $6)
     ON CONFLICT (workspace, name) DO UPDATE SET sites = EXCLUDED.sites, last_seen_at = $5,
       asks_approvals = EXCLUDED.asks_approvals
     RETURNING *`,
    [`dev_${randomUUID()}`, workspace, name, hosts, now, asksApprovals],
  )!
  // This node routes by it at once; the others when the NOTIFY arrives.
  const device = toDevice(row)
  ctx.cache.set(workspace, [
    ...(ctx.cache.get(workspace) ?? []).filter((d) => d.id !== device.id),
    device,
  ])
  return device
}

/** `DeviceHub.remove`: unlinks device `id` of `workspace` and ends the runs it held. */
export function removeDevice(
  ctx: DeviceHubContext,
  workspace: string,
  id: string,
): { id: string; deleted: true; endedRuns: number } {
  const lost = (
    code: string,
  ) => `json_build_object('status', '${code === 'worker_lost' ? 'failed' : 'outcome_unknown'}',
        'error', json_build_object('code', '${code}', 'message',
          'desktop ''' || gone.name || ''' was unlinked while it ran the run'))::text`
  const row = ctx.store.pg.one<{ name: string | null; ended: string }>(
    `WITH gone AS (DELETE FROM devices WHERE id = $1 AND workspace = $2 RETURNING id, name),
     ended AS (
       UPDATE device_runs dr SET reported_at = $3, outcome = CASE
           WHEN dr.taken_at IS NULL THEN $4
           WHEN r.mutating <> 0 THEN ${lost('upstream_error')}
           ELSE ${lost('worker_lost')} END
         FROM gone, runs r
        WHERE dr.device_id = gone.id AND r.id = dr.run_id AND dr.outcome IS NULL
       RETURNING dr.run_id)
     SELECT (SELECT name FROM gone) AS name, (SELECT count(*) FROM ended) AS ended`,
    [
      id,
      workspace,
      ctx.clock(),
      JSON.stringify({
        status: 'expired',
        error: {
          code: 'worker_lost',
          message: 'unlinked from the workspace before it took the run',
        },
      } satisfies DeviceReport),
    ],
  )
  if (!row?.name) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
  // This node routes without it at once; the others when the trigger's NOTIFY arrives.
  ctx.cache.set(
    workspace,
    (ctx.cache.get(workspace) ?? []).filter((d) => d.id !== id),
  )
  return { id, deleted: true, endedRuns: Number(row.ended) }
}

/** The device a run of `tool` in `tenant` goes to (see `DeviceHub.delegate`), or null. */
export function pickDevice(
  ctx: DeviceHubContext,
  tenant: string,
  tool: ToolSpec,
): DeviceRecord | null {
  if (tenant.includes('::')) return null
  const holders = (ctx.cache.get(tenant) ?? []).filter((d) => d.sites.includes(tool.siteHost))
  if (!holders.length) return null
  // A login saved on the server itself wins: the run needs no device.
  if (
    ctx.store.pg.one('SELECT 1 FROM logins WHERE tenant = $1 AND site_host = $2', [
      tenant,
      tool.siteHost,
    ])
  )
    return null
  return holders.reduce((a, b) => (b.lastSeenAt > a.lastSeenAt ? b : a))
}
