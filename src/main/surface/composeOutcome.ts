import { ServiceError, type ErrorCode } from '../../shared/errors'
import { capacityError, type CallOutcome } from '../engine/callTool'
import { toPublicRun } from '../engine/runEngine'
import type { RunRecord } from '../store/runRepository'

/** How one call of a compose request ended, before it is put in the envelope. */
export type ComposeCallResult =
  | { ok: true; data: unknown; runId: string }
  | {
      ok: false
      /** The refusal as the envelope carries it: its code picks the HTTP status. */
      error: ServiceError
      /** Null when no run was started (a refusal). */
      runId: string | null
      /** A write may have landed, or the run goes on past the deadline: never retried by itself. */
      unknown: boolean
      signIn: { url: string } | null
    }

/** Run failures that mean a missing login: reported as the site's refusal, never as our 401. */
const LOGIN_FAILURES = new Set<string>(['session_or_permission', 'mfa_required'])
const CHALLENGES = new Set<string>(['challenge', 'challenge_budget_exhausted'])

/**
 * What a call of the compose route came to (docs/api-guide.md "Compose", interface.md "Raw reads" and
 * `upstream_timeout`). A succeeded run is `{data, runId}`. A failed run is named by the status
 * the site last answered: 404 `upstream_not_found`, 409 `upstream_conflict`, 5xx
 * `upstream_unavailable` (502), another 4xx `upstream_error`; a bot check `blocked`; a missing
 * login `upstream_error` too (our own 401 is for the caller's credential); without an error
 * status, a page that says "not found" is `upstream_not_found`, a rate limit `upstream_error`,
 * and any other failure keeps the run's code (`outcome_not_verified`, `network_error`, …). Details carry
 * `httpStatus` and `httpOnly` (interface.md "Raw reads") and `reason`, the run's own failure code. Past
 * the deadline: 504 `upstream_timeout`, outcome unknown; a write whose answer was lost: 502
 * `upstream_unavailable`, outcome unknown. Neither is ever sent again by the service.
 */
export function composeCallResult(outcome: CallOutcome): ComposeCallResult {
  if (outcome.kind === 'timed_out')
    return {
      ok: false,
      error: new ServiceError(
        'upstream_timeout',
        `${outcome.tool.name} did not answer within ${outcome.deadlineMs} ms; the run goes on and is not retried: read it at ${outcome.poll} before calling again.`,
        { runId: outcome.runId, deadlineMs: outcome.deadlineMs, poll: outcome.poll },
      ),
      runId: outcome.runId,
      unknown: true,
      signIn: null,
    }
  if (outcome.kind === 'refused_capacity')
    return {
      ok: false,
      error: capacityError(outcome),
      runId: outcome.run.runId,
      unknown: false,
      signIn: null,
    }
  const { run } = outcome
  if (run.status === 'succeeded')
    return { ok: true, data: toPublicRun(run).result ?? null, runId: run.runId }
  return { ok: false, ...failureOf(run), runId: run.runId }
}

/** A compose refusal (no run started) as a call result. */
export function refusedCall(error: ServiceError): ComposeCallResult {
  return { ok: false, error, runId: null, unknown: false, signIn: null }
}

function failureOf(run: RunRecord): {
  error: ServiceError
  unknown: boolean
  signIn: { url: string } | null
} {
  const reason = run.error?.code ?? 'upstream_error'
  const message = run.error?.message ?? `The run ended ${run.status}.`
  const httpStatus = run.effects.findLast((e) => e.status !== null)?.status ?? null
  const details: Record<string, unknown> = {
    runId: run.runId,
    reason,
    ...(httpStatus !== null ? { httpStatus } : {}),
    httpOnly: run.via !== 'rendered',
  }
  const signIn = run.signIn ?? null
  if (signIn) details.signIn = signIn
  if (run.status === 'outcome_unknown')
    return {
      error: new ServiceError(
        'upstream_unavailable',
        `${message} Check the site before calling again: it is not retried.`,
        details,
      ),
      unknown: true,
      signIn,
    }
  if (run.status === 'cancelled')
    return {
      error: new ServiceError(
        'conflict',
        'The run was cancelled; what it already sent stays on it.',
        details,
      ),
      unknown: run.effects.length > 0,
      signIn,
    }
  return {
    error: new ServiceError(codeOf(reason, httpStatus), message, details),
    unknown: false,
    signIn,
  }
}

/** The compose code of a failed run (see `composeCallResult`). */
function codeOf(reason: string, httpStatus: number | null): ErrorCode {
  if (CHALLENGES.has(reason)) return 'blocked'
  if (httpStatus !== null && httpStatus >= 400) {
    if (httpStatus === 404) return 'upstream_not_found'
    if (httpStatus === 409) return 'upstream_conflict'
    if (httpStatus >= 500) return 'upstream_unavailable'
    return 'upstream_error'
  }
  // Seen in a rendered page rather than as a status: the site's answer all the same.
  if (reason === 'not_found') return 'upstream_not_found'
  if (LOGIN_FAILURES.has(reason) || reason === 'rate_limited') return 'upstream_error'
  return reason as ErrorCode
}
