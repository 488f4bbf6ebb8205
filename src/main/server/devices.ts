import type { DelegatedOutcome } from '../engine/engineState'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import type { PgStore } from '../store/postgres/pgStore'
import { closeListener, connectListener, endWaits } from './deviceListener'
import {
  CLAIM_GRACE_MS,
  type DeviceHubContext,
  type DeviceRecord,
  type DeviceReport,
  type DeviceWork,
} from './deviceRecords'
import { pickDevice, registerDevice, removeDevice } from './deviceRegistry'
import { awaitDevice, nextWork, reportRun, takeRun } from './deviceRuns'

export { MAX_DEVICE_WAIT_S } from './deviceRecords'
export type { DeviceReport, DeviceWork } from './deviceRecords'

export interface DeviceHub {
  /** Connects the node's listener (LISTEN) and loads the routing cache; rejects if unreachable. */
  start(): Promise<void>
  /**
   * Registers a device of `workspace` or refreshes the one of that name (same id): its name, the
   * host names it holds logins for, and whether it asks approvals itself (a desktop that does
   * not say so is never handed a write to approve). 400 `invalid_input` for a bad name or site.
   */
  register(workspace: string, name: string, sites: string[], asksApprovals?: boolean): DeviceRecord
  /**
   * Offers device `id` its oldest run not taken (FOR UPDATE SKIP LOCKED: two polls never get
   * one run; the device then `take`s it), waiting up to `waitMs` for one to come (woken by NOTIFY, so at once); null after
   * the wait or when `signal` aborts. Marks the device seen. 404 `not_found` for a device
   * `workspace` does not have.
   */
  next(
    workspace: string,
    id: string,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<DeviceWork | null>
  /**
   * Device `id` takes run `runId` its poll was offered, before it runs it; a run offered and not
   * taken within `HANDOVER_MS` is offered again; a second take is the same take. 404
   * `not_found`, 409 `conflict` (not offered, past its deadline, reported: it runs nothing).
   */
  take(workspace: string, id: string, runId: string): { runId: string; taken: true }
  /**
   * Records device `id`'s report of `runId`; the node that started the run settles it (any
   * node may take the report). 404 `not_found` (no such device, or the run is not this
   * device's), 409 `conflict` (not claimed yet, or reported already), 400 `invalid_input`.
   */
  report(workspace: string, id: string, runId: string, report: DeviceReport): { runId: string }
  /**
   * Unlinks device `id` of `workspace` (`DELETE /v1/devices/{id}`): its claims and reports are
   * refused from now on (404), its runs nobody claimed end `expired` ("unlinked from the
   * workspace before it took the run"), and those it claimed and did not report end as a lost
   * claim does (a read `failed` `worker_lost`, a write `outcome_unknown`). 404 `not_found` for a
   * device `workspace` does not have. Returns how many runs it ended.
   */
  remove(workspace: string, id: string): { id: string; deleted: true; endedRuns: number }
  /**
   * The engine's `approveElsewhere` (`RunEngineDeps.approveElsewhere`): true when the write
   * `runId` will be handed to a device (the rule of `delegate`) that asks approvals itself
   * (it said so when it registered), which then asks its person; the
   * run's `delegate` hands it to that device whatever changed meanwhile (a login saved on the
   * server must not skip the approval). Kept in memory: a write is never run again on another
   * node (the run queue ends it `outcome_unknown` or `worker_lost`).
   */
  approveElsewhere(runId: string, tool: ToolSpec, tenant: string): boolean
  /**
   * The engine's `delegate` (`RunEngineDeps.delegate`): a run whose tool's site has no login on
   * the server and is held by a device of the run's workspace (an org key's end user never:
   * the device's logins are its person's) is handed to that device (the one seen last when
   * several hold it); null runs it here. The function returned waits for the device's report,
   * or ends the run `expired` naming the device when nobody claimed it by its deadline.
   */
  delegate(
    run: RunRecord,
    tool: ToolSpec,
  ): ((signal: AbortSignal) => Promise<DelegatedOutcome>) | null
  /** Answers every long poll in flight (null) and refuses new ones' waits (a draining node). */
  stopPolls(): void
  /** Stops the listener; waiters still pending resolve on their next database look. */
  close(): Promise<void>
}

export interface DeviceHubOptions {
  /** The server's PostgreSQL URL (the listener's own connection). */
  url: string
  store: PgStore
  clock?: () => number
  onError?: (error: unknown) => void
}

/**
 * The device registry and device-bound runs of a team server node (docs/team-server.md
 * "Devices"). State is in PostgreSQL (`devices`, `device_runs`, migration 006) so any node
 * answers a device; one LISTEN connection per node wakes long polls and run waiters at once
 * (triggers NOTIFY on each new run and report) and keeps a per-node cache of who holds which
 * site, so a run whose site no device holds costs no round trip. The store's statements are
 * synchronous (short); only the waits are asynchronous.
 */
export function createDeviceHub(options: DeviceHubOptions): DeviceHub {
  const ctx: DeviceHubContext = {
    store: options.store,
    url: options.url,
    clock: options.clock ?? Date.now,
    onError: options.onError,
    listeners: new Map(),
    cache: new Map(),
    polls: new Set(),
    asking: new Map(),
    client: null,
    closed: false,
    stopped: false,
  }
  return {
    start: () => connectListener(ctx),
    register: (workspace, name, sites, asksApprovals = false) =>
      registerDevice(ctx, workspace, name, sites, asksApprovals),
    next: (workspace, id, waitMs, signal) => nextWork(ctx, workspace, id, waitMs, signal),
    take: (workspace, id, runId) => takeRun(ctx, workspace, id, runId),
    report: (workspace, id, runId, report) => reportRun(ctx, workspace, id, runId, report),
    delegate(run, tool) {
      const asked = ctx.asking.get(run.runId)
      if (asked) {
        ctx.asking.delete(run.runId)
        return (signal) => awaitDevice(ctx, run, asked.device, signal, true)
      }
      const device = pickDevice(ctx, run.tenant, tool)
      return device ? (signal) => awaitDevice(ctx, run, device, signal, false) : null
    },
    approveElsewhere(runId, tool, tenant) {
      const now = ctx.clock()
      // A run whose start failed after this (its insert, a raced idempotency key) never comes
      // to `delegate`: forget such entries after the longest deadline and then some.
      for (const [id, entry] of ctx.asking)
        if (now - entry.at > 2 * CLAIM_GRACE_MS) ctx.asking.delete(id)
      const device = pickDevice(ctx, tenant, tool)
      // A device that does not ask approvals itself gets the write once approved here.
      if (!device?.asksApprovals) return false
      ctx.asking.set(runId, { device, at: now })
      return true
    },
    remove: (workspace, id) => removeDevice(ctx, workspace, id),
    stopPolls: () => endWaits(ctx),
    close: () => closeListener(ctx),
  }
}
