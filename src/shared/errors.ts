/**
 * The closed sets of error codes of spec/INTERFACE.md ("Errors"). Codes are API: never renamed,
 * never reused. Every refusal and every failed run carries one of these.
 */
export const REST_ERROR_CODES = [
  'unauthorized',
  'revoked',
  'forbidden',
  'quota_exceeded',
  'insufficient_paid_credits',
  'bad_request',
  'unknown_argument',
  'invalid_input',
  'capability_not_found',
  'idempotency_conflict',
  'not_in_scope',
  'unknown_scope',
  'invalid_scope',
  'too_many_scopes',
  'not_found',
  'internal',
  'tool_quarantined',
  'browser_capacity',
  'too_many_sessions',
  'index_busy',
  'index_limit',
  'slot_unavailable',
  'unavailable',
  'scrape_timeout',
  'run_timeout',
  'upstream_timeout',
  'conflict',
  'stale_revision',
  'stale_requirement',
  'expired_requirement',
  'unknown_requirement',
  'invalid_option',
  'invalid_answer',
  'credential_required',
  'no_login_form',
  'request_closed',
  'session_expired',
  'stale_ref',
  'browser_network_failed',
  'site_unreachable',
  'page_unresponsive',
  'egress_unavailable',
  'blocked',
  // MCP browser calls: a missing, blank or non-string sessionId (spec "C", MCP tools).
  'invalid_argument',
  'upstream_not_found',
  'upstream_conflict',
  'upstream_unavailable',
  'upstream_error',
  // A body over the service's size limit (HTTP 413): the spec shows no body limits or code.
  'payload_too_large',
  // A run whose result the retention sweep dropped (HTTP 410, like `session_expired`): the spec
  // keeps results without naming a limit or a code; issue 12 keeps them 30 days and 1 GB.
  'result_expired',
  // Local-app codes for the desktop/recorder edge (not REST-visible in the spec's tables).
  'chromium_not_found',
  'recording_failed',
  'compile_failed',
] as const

/** Spec "Why a run failed": the `error.code` of a run with status `failed`. */
export const RUN_FAILURE_CODES = [
  'no_capability',
  'session_or_permission',
  'mfa_required',
  'rate_limited',
  'challenge',
  'challenge_budget_exhausted',
  'schema_or_auth_drift',
  'outcome_not_verified',
  'not_found',
  'upstream_error',
  'network_error',
  'browser_capacity',
  'render_failed',
  'destination_denied',
  'policy_denied',
  'declined',
  'worker_lost',
  'resource_locked',
] as const

export type RestErrorCode = (typeof REST_ERROR_CODES)[number]
export type RunFailureCode = (typeof RUN_FAILURE_CODES)[number]
export type ErrorCode = RestErrorCode | RunFailureCode

/** The serialisable form of an error, as it crosses HTTP, IPC and MCP. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  [extra: string]: unknown
}

/**
 * The one error type of the app (DESIGN.md §5). `status` is the HTTP status the REST edge answers
 * with; `details` are extra fields merged into the error body (e.g. `runId`, `poll`).
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }

  /** The error body `{code, message, ...details}` of spec "Error body". */
  toBody(): ErrorBody {
    return { ...this.details, code: this.code, message: this.message }
  }
}

/** Recognises a ServiceError also across realms (IPC, workers), not only by `instanceof`. */
export function isServiceError(value: unknown): value is ServiceError {
  return (
    value instanceof ServiceError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'ServiceError' &&
      typeof (value as { code?: unknown }).code === 'string')
  )
}

/** Throws an `internal` error when a condition that must hold does not: for bugs, not bad input. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ServiceError('internal', 500, `Invariant failed: ${message}`)
}
