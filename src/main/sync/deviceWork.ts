import { isServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import type { DeviceReport, DeviceWork } from '../server/devices'
import {
  APPROVAL_POLL_MS,
  DeviceHttpError,
  deviceRequest,
  pause,
  REPORT_TIMEOUT_MS,
  type DeviceAgentContext,
} from './deviceRequests'

/**
 * Follows local run `runId` while it waits on this desktop's person: the run once it ended
 * (approved and run, or declined), or why it was cancelled unanswered (the deadline `dueAt`, ms
 * of this clock, passed; the loop stopped). Reads and cancel are one synchronous turn, so an
 * approval given in this process either came first (the run goes on) or finds it cancelled.
 */
async function awaitApproval(
  ctx: DeviceAgentContext,
  runId: string,
  dueAt: number,
): Promise<RunRecord | string> {
  for (;;) {
    const run = ctx.options.engine.get(runId)
    if (!run) return 'the run is gone from the desktop'
    if (run.status === 'input_required') {
      const why = ctx.stopping.signal.aborted
        ? 'the desktop stopped before anyone approved the run'
        : Date.now() >= dueAt
          ? "nobody approved the run in the desktop's Inbox by its deadline"
          : null
      if (why)
        try {
          ctx.options.engine.cancel(runId, ctx.options.tenant)
          return why
        } catch {
          continue // answered at this very moment: read it again
        }
    } else if (run.status !== 'accepted' && run.status !== 'working') return run
    await pause(
      ctx,
      ctx.stopping.signal.aborted
        ? APPROVAL_POLL_MS
        : Math.min(APPROVAL_POLL_MS, Math.max(1, dueAt - Date.now())),
    )
  }
}

/**
 * Takes run `runId` the poll offered (`POST /v1/devices/{id}/runs/{runId}/take`, docs/team-server.md
 * "Devices") before anything runs: true when the server recorded the take. A refusal (409: offered
 * again, past its deadline, reported; 404: ended) means run nothing. A lost answer is asked
 * again (a second take is the same take) up to three times, so a take the server recorded is not
 * left unrun for want of its answer; false after that (the run then ends lost on the server).
 */
async function take(ctx: DeviceAgentContext, deviceId: string, runId: string): Promise<boolean> {
  const path = `/v1/devices/${encodeURIComponent(deviceId)}/runs/${encodeURIComponent(runId)}/take`
  for (let attempt = 1; ; attempt++) {
    try {
      await deviceRequest(ctx, 'POST', path, undefined, REPORT_TIMEOUT_MS, false)
      return true
    } catch (error) {
      const refused = error instanceof DeviceHttpError && error.status < 500
      if (!refused || error.status !== 409) ctx.options.onError?.(error)
      if (refused || attempt === 3) return false
      await pause(ctx, 1_000)
    }
  }
}

/**
 * Takes `work` handed to device `deviceId`, then runs it on this desktop's engine (a write the caller did not
 * confirm waits for its person's approval) and reports its outcome; never rejects.
 */
export async function executeWork(
  ctx: DeviceAgentContext,
  deviceId: string,
  work: DeviceWork,
): Promise<void> {
  const { run } = work
  // Offered twice (a take slower than the handover) is run once.
  if (ctx.taken.has(run.runId)) return
  ctx.taken.add(run.runId)
  try {
    if (await take(ctx, deviceId, run.runId)) await runAndReport(ctx, deviceId, work)
  } finally {
    ctx.taken.delete(run.runId)
  }
}

/** Runs taken `work` on this desktop's engine and reports its outcome; never rejects. */
async function runAndReport(
  ctx: DeviceAgentContext,
  deviceId: string,
  work: DeviceWork,
): Promise<void> {
  const { run } = work
  const dueInMs = typeof run.dueInMs === 'number' ? run.dueInMs : run.dueBy - Date.now()
  const dueAt = Date.now() + dueInMs
  let report: DeviceReport
  try {
    const started = ctx.options.engine.start(work.tool as ToolSpec, run.inputs, {
      tenant: ctx.options.tenant,
      idempotencyKey: `device:${run.runId}`,
      // A write the caller did not confirm is asked here, in this desktop's Inbox.
      allowMutation: !run.asksApproval,
      mayAsk: !!run.asksApproval,
      deadlineMs: Math.max(5_000, dueInMs),
    })
    const local = await started.done
    if (local.status === 'input_required') {
      const ended = await awaitApproval(ctx, local.runId, dueAt)
      report =
        typeof ended === 'string'
          ? { status: 'expired', error: { code: 'worker_lost', message: ended } }
          : toReport(ended)
    } else report = toReport(local)
  } catch (error) {
    report = {
      status: 'failed',
      error: {
        code: 'worker_lost',
        message: `The desktop could not run it: ${isServiceError(error) ? error.message : String(error)}`,
      },
    }
  }
  try {
    await deviceRequest(
      ctx,
      'POST',
      `/v1/devices/${encodeURIComponent(deviceId)}/runs/${encodeURIComponent(run.runId)}`,
      report,
      REPORT_TIMEOUT_MS,
      false,
    )
    ctx.options.onRun?.(run.runId, report.status)
  } catch (error) {
    ctx.options.onError?.(error)
    ctx.options.onRun?.(run.runId, 'unreported')
  }
}

/** What a run of this desktop's engine came to, as the server's device route takes it. */
function toReport(run: RunRecord): DeviceReport {
  const effects = run.effects.map(({ method, url, status, at }) => ({ method, url, status, at }))
  const via = run.via ? { via: run.via } : {}
  if (run.status === 'succeeded') {
    const result = run.result !== undefined ? run.result : JSON.parse(run.resultText ?? 'null')
    return { status: 'succeeded', result, ...via, effects }
  }
  if (run.status === 'outcome_unknown')
    return {
      status: 'outcome_unknown',
      error: run.error ?? { code: 'upstream_error', message: 'The answer was lost.' },
      ...via,
      effects,
    }
  if (run.status === 'failed' && run.error)
    return {
      status: 'failed',
      error: { code: run.error.code, message: run.error.message },
      // This desktop's one-time sign-in link: the login belongs here (spec run `signIn.url`).
      ...(run.signIn?.url ? { signIn: { url: run.signIn.url } } : {}),
      ...via,
      effects,
    }
  // Its approval waited past the requirement window (15 minutes): nothing was sent.
  if (run.status === 'expired')
    return {
      status: 'expired',
      error: { code: 'worker_lost', message: "the approval expired in the desktop's Inbox" },
      effects,
    }
  return {
    status: 'failed',
    error: { code: 'worker_lost', message: `The desktop's run ended ${run.status}.` },
    ...via,
    effects,
  }
}
