import { RUN_FAILURE_CODES, ServiceError, type RunFailureCode } from '../../shared/errors'
import type { DelegatedOutcome, ViaOutcome } from '../engine/engineState'
import type { RunRecord } from '../store/runRepository'
import { wake } from './deviceListener'
import {
  CLAIM_GRACE_MS,
  DEFAULT_DEADLINE_MS,
  HANDOVER_MS,
  MAX_DEVICE_WAIT_S,
  RECHECK_MS,
  type DeviceHubContext,
  type DeviceRecord,
  type DeviceReport,
  type DeviceWork,
} from './deviceRecords'
import { findDevice } from './deviceRegistry'

/**
 * One claim: the oldest run of the device whose deadline has not passed that is unclaimed, or
 * was offered and not taken within `HANDOVER_MS` (its poll's answer went nowhere).
 */
function claim(ctx: DeviceHubContext, deviceId: string): DeviceWork | null {
  const { store } = ctx
  const now = ctx.clock()
  const row = store.pg.one<{ run_id: string; due_by: string; asks_approval: boolean }>(
    `UPDATE device_runs SET claimed_at = $2
      WHERE run_id = (SELECT run_id FROM device_runs
                       WHERE device_id = $1 AND due_by > $2 AND outcome IS NULL
                         AND (claimed_at IS NULL
                              OR (taken_at IS NULL AND claimed_at <= $2 - $3::bigint))
                         AND EXISTS (SELECT 1 FROM runs r WHERE r.id = device_runs.run_id
                                       AND r.status IN ('accepted', 'working'))
                       ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING run_id, due_by, asks_approval`,
    [deviceId, now, HANDOVER_MS],
  )
  if (!row) return null
  const run = store.runs.get(row.run_id)
  const tool = run ? store.toolsFor(run.tenant).get(run.toolId) : null
  if (!run || !tool) return null
  return {
    run: {
      runId: run.runId,
      toolId: run.toolId,
      inputs: run.inputs,
      mutating: run.mutating,
      asksApproval: row.asks_approval,
      dueBy: Number(row.due_by),
      dueInMs: Number(row.due_by) - now,
    },
    tool,
  }
}

/** `DeviceHub.next`: device `id`'s long poll for its next run (null after the wait). */
export async function nextWork(
  ctx: DeviceHubContext,
  workspace: string,
  id: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<DeviceWork | null> {
  const seen = ctx.store.pg.query(
    'UPDATE devices SET last_seen_at = $3 WHERE id = $1 AND workspace = $2',
    [id, workspace, ctx.clock()],
  )
  if (!seen.rowCount) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
  const until = ctx.clock() + Math.min(waitMs, MAX_DEVICE_WAIT_S * 1000)
  for (;;) {
    // A poll whose device hung up claims nothing (the offer would only wait out its handover).
    if (ctx.stopped || signal?.aborted) return null
    const work = claim(ctx, id)
    if (work) return work
    const left = until - ctx.clock()
    if (left <= 0) return null
    await wake(ctx, 'sitecall_device_runs', id, Math.min(left, RECHECK_MS), signal)
  }
}

/** Waits for device `device`'s report of `run` (see `DeviceHub.delegate`). */
export async function awaitDevice(
  ctx: DeviceHubContext,
  run: RunRecord,
  device: DeviceRecord,
  signal: AbortSignal,
  asksApproval: boolean,
): Promise<DelegatedOutcome> {
  const { store } = ctx
  const dueBy = Date.parse(run.createdAt) + (run.deadlineMs ?? DEFAULT_DEADLINE_MS)
  // Again after a takeover (a read run once more): the row and any report it has are kept.
  store.pg.query(
    `INSERT INTO device_runs (run_id, device_id, due_by, created_at, asks_approval)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run_id) DO NOTHING`,
    [run.runId, device.id, dueBy, ctx.clock(), asksApproval],
  )
  const offline = `desktop '${device.name}' was offline until the run's deadline`
  for (;;) {
    const row = store.pg.one<{ taken_at: string | null; outcome: string | null }>(
      'SELECT taken_at, outcome FROM device_runs WHERE run_id = $1',
      [run.runId],
    )
    if (row?.outcome) return fromReport(JSON.parse(row.outcome) as DeviceReport, device.name)
    const now = ctx.clock()
    // Offered to a poll and not taken is as good as waiting: the device runs only what it took.
    const taken = !!row && row.taken_at !== null
    if (!taken) {
      if (now >= dueBy) {
        const gone = store.pg.query(
          'DELETE FROM device_runs WHERE run_id = $1 AND taken_at IS NULL AND outcome IS NULL',
          [run.runId],
        )
        if (gone.rowCount || !row) return { expired: offline }
        continue // taken or reported at this very moment
      }
    } else if (now >= dueBy + CLAIM_GRACE_MS) {
      const lost = `desktop '${device.name}' took the run and did not report it`
      return {
        outcome: run.mutating
          ? { ok: false, code: 'outcome_unknown', message: lost }
          : { ok: false, code: 'worker_lost', message: lost },
        effects: [],
      }
    }
    if (signal.aborted) return { expired: `cancelled while waiting for desktop '${device.name}'` }
    const until = taken ? dueBy + CLAIM_GRACE_MS : dueBy
    await wake(ctx, 'sitecall_device_done', run.runId, Math.min(RECHECK_MS, until - now), signal)
  }
}

/**
 * `DeviceHub.take`: device `id` takes run `runId` its long poll was offered (see `HANDOVER_MS`),
 * before it runs anything; taking it again is the same take. 409 `conflict` when it was not
 * offered yet, its deadline passed or it was reported (the device then runs nothing); 404 `not_found`
 * for a run that is not the device's (or already ended unclaimed).
 */
export function takeRun(
  ctx: DeviceHubContext,
  workspace: string,
  id: string,
  runId: string,
): { runId: string; taken: true } {
  const now = ctx.clock()
  const updated = ctx.store.pg.query(
    `UPDATE device_runs r SET taken_at = $4 FROM devices d
      WHERE r.run_id = $1 AND r.device_id = $2 AND d.id = r.device_id AND d.workspace = $3
        AND r.claimed_at IS NOT NULL AND r.taken_at IS NULL AND r.outcome IS NULL
        AND r.due_by > $4`,
    [runId, id, workspace, now],
  )
  if (updated.rowCount) return { runId, taken: true }
  findDevice(ctx, workspace, id)
  const row = ctx.store.pg.one<{
    claimed_at: string | null
    taken_at: string | null
    outcome: string | null
  }>('SELECT claimed_at, taken_at, outcome FROM device_runs WHERE run_id = $1 AND device_id = $2', [
    runId,
    id,
  ])
  if (!row) throw new ServiceError('not_found', `Run ${runId} is not this device's.`)
  if (row.outcome !== null) throw new ServiceError('conflict', `Run ${runId} was reported already.`)
  // Taking twice is one take: a device whose first answer was lost asks again.
  if (row.taken_at !== null) return { runId, taken: true }
  if (row.claimed_at === null)
    throw new ServiceError('conflict', `Run ${runId} was not offered to this device yet.`)
  throw new ServiceError('conflict', `Run ${runId} is past its deadline.`)
}

/** `DeviceHub.report`: records device `id`'s report of `runId` (refusals: see the hub). */
export function reportRun(
  ctx: DeviceHubContext,
  workspace: string,
  id: string,
  runId: string,
  report: DeviceReport,
): { runId: string } {
  checkReport(report)
  // One statement when all is well; the refusals below only read why it changed nothing.
  const updated = ctx.store.pg.query(
    `UPDATE device_runs r SET outcome = $4, reported_at = $5 FROM devices d
      WHERE r.run_id = $1 AND r.device_id = $2 AND d.id = r.device_id AND d.workspace = $3
        AND r.claimed_at IS NOT NULL AND r.outcome IS NULL`,
    [runId, id, workspace, JSON.stringify(report), ctx.clock()],
  )
  if (updated.rowCount) return { runId }
  findDevice(ctx, workspace, id)
  const row = ctx.store.pg.one<{ claimed_at: string | null; outcome: string | null }>(
    'SELECT claimed_at, outcome FROM device_runs WHERE run_id = $1 AND device_id = $2',
    [runId, id],
  )
  if (!row) throw new ServiceError('not_found', `Run ${runId} is not this device's.`)
  if (row.claimed_at === null)
    throw new ServiceError('conflict', `Run ${runId} was not claimed by this device.`)
  throw new ServiceError('conflict', `Run ${runId} was reported already.`)
}

const FAILURE_CODES = new Set<string>(RUN_FAILURE_CODES)

/** 400 `invalid_input` unless `report` is one `DeviceReport`. */
function checkReport(report: DeviceReport): void {
  const url = report.signIn?.url
  if (url !== undefined && !/^https?:\/\/\S{1,2000}$/.test(url))
    throw new ServiceError('invalid_input', '"signIn.url" is an http(s) URL.')
  if (report.status === 'succeeded' || report.status === 'expired') return
  const code = report.error?.code
  if (report.status === 'failed' && (!code || !FAILURE_CODES.has(code)))
    throw new ServiceError(
      'invalid_input',
      `A failed run's "error.code" is one of interface.md "Why a run failed", not ${String(code)}.`,
    )
}

/**
 * The engine's view of device `name`'s report: settled on the server as a run there would be
 * (a failed run keeps the device's sign-in link); `expired` ends the run `expired` naming it.
 */
function fromReport(report: DeviceReport, name: string): DelegatedOutcome {
  const via = report.via ? { via: report.via } : {}
  const message = report.error?.message ?? 'The device gave no reason.'
  if (report.status === 'expired') return { expired: `desktop '${name}': ${message}` }
  const signIn = report.signIn?.url ? { signIn: true, signInUrl: report.signIn.url } : {}
  const outcome: ViaOutcome =
    report.status === 'succeeded'
      ? { ok: true, result: report.result ?? null, ...via }
      : report.status === 'outcome_unknown'
        ? { ok: false, code: 'outcome_unknown', message, ...via }
        : { ok: false, code: report.error!.code as RunFailureCode, message, ...signIn, ...via }
  const effects = (report.effects ?? []).filter(
    (e) => e && typeof e.method === 'string' && typeof e.url === 'string',
  )
  return { outcome, effects }
}
