/**
 * The refusals of an answer to an `input_required` run, in the order of docs/interface.md
 * "Errors" ("Answering an input_required run"): what every route that takes answers may refuse.
 */
export const ANSWER_ERROR_CODES = [
  'conflict',
  'stale_revision',
  'stale_requirement',
  'expired_requirement',
  'unknown_requirement',
  'invalid_option',
  'invalid_answer',
] as const

/**
 * The closed sets of error codes of docs/interface.md ("Errors"). Codes are API: never renamed,
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
  ...ANSWER_ERROR_CODES,
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
  // MCP browser calls: a missing, blank or non-string sessionId (interface.md "C", MCP tools).
  'invalid_argument',
  'upstream_not_found',
  'upstream_conflict',
  'upstream_unavailable',
  'upstream_error',
  // A body over the service's size limit (HTTP 413): docs/interface.md shows no body limits or code.
  'payload_too_large',
  // A run whose result the retention sweep dropped (HTTP 410, like `session_expired`): docs/interface.md
  // keeps results without naming a limit or a code; the sweep keeps them 30 days and 1 GB.
  'result_expired',
  // A tool pushed to a team server's sync that carries a credential or recorded traffic (HTTP
  // 400): docs/interface.md has no sync, so no code for it.
  'credential_in_tool',
  // Local-app codes for the desktop/recorder edge (not REST-visible in the interface's tables).
  'chromium_not_found',
  'recording_failed',
  'compile_failed',
] as const

/** interface.md "Why a run failed": the `error.code` of a run with status `failed`. */
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

type RestErrorCode = (typeof REST_ERROR_CODES)[number]
export type RunFailureCode = (typeof RUN_FAILURE_CODES)[number]
export type ErrorCode = RestErrorCode | RunFailureCode

/**
 * The HTTP statuses of each code (docs/interface.md "Errors": auth and billing, request shape,
 * capacity and timing, answering, logins, browse sessions, raw reads). The first status is a
 * code's usual one; a throw site names another only where docs/interface.md gives two (`invalid_input`
 * 400 or 422, `browser_capacity` 429 or 503). `satisfies` makes the compiler refuse a code
 * without a status. Codes docs/interface.md lists only as run failures ("Why a run failed") get the status
 * a refusal of the same meaning answers, for the few places that refuse with them.
 */
export const ERROR_STATUS = {
  unauthorized: [401],
  revoked: [403],
  forbidden: [403],
  quota_exceeded: [402],
  insufficient_paid_credits: [402],
  bad_request: [400],
  unknown_argument: [422],
  invalid_input: [400, 422],
  capability_not_found: [404],
  idempotency_conflict: [409],
  not_in_scope: [403],
  unknown_scope: [404],
  invalid_scope: [400],
  too_many_scopes: [400],
  not_found: [404],
  internal: [500],
  tool_quarantined: [409],
  browser_capacity: [429, 503],
  too_many_sessions: [429],
  index_busy: [429],
  index_limit: [429],
  slot_unavailable: [503],
  unavailable: [503],
  scrape_timeout: [504],
  run_timeout: [504],
  upstream_timeout: [504],
  conflict: [409],
  stale_revision: [409],
  stale_requirement: [409],
  expired_requirement: [409],
  unknown_requirement: [422],
  invalid_option: [422],
  invalid_answer: [422],
  credential_required: [412],
  no_login_form: [422],
  request_closed: [409],
  session_expired: [410],
  stale_ref: [409],
  browser_network_failed: [502],
  site_unreachable: [504],
  page_unresponsive: [504],
  egress_unavailable: [502],
  blocked: [502],
  invalid_argument: [400],
  upstream_not_found: [404],
  upstream_conflict: [409],
  upstream_unavailable: [502],
  // "the other upstream 4xx": 400 stands for them.
  upstream_error: [400],
  payload_too_large: [413],
  result_expired: [410],
  credential_in_tool: [400],
  chromium_not_found: [503],
  recording_failed: [500],
  compile_failed: [500],
  no_capability: [404],
  session_or_permission: [401],
  mfa_required: [401],
  rate_limited: [429],
  challenge: [403],
  challenge_budget_exhausted: [429],
  schema_or_auth_drift: [502],
  outcome_not_verified: [502],
  network_error: [502],
  render_failed: [502],
  // A URL toward a metadata address or a local site the owner did not allow, refused up front.
  destination_denied: [403],
  policy_denied: [403],
  declined: [409],
  worker_lost: [503],
  resource_locked: [409],
} as const satisfies Record<ErrorCode, readonly [number, ...number[]]>

/** The HTTP statuses docs/interface.md allows for `code`, e.g. `429 | 503` for `browser_capacity`. */
export type ErrorStatus<C extends ErrorCode> = (typeof ERROR_STATUS)[C][number]

/** The usual HTTP status of `code`: the first of its `ERROR_STATUS` entry. */
function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code][0]
}

/** The serialisable form of an error, as it crosses HTTP, IPC and MCP. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  [extra: string]: unknown
}

/**
 * The one error type of the app (docs/architecture.md "Rules that cut across"). `status` is the HTTP status the REST edge answers
 * with: the code's usual one from `ERROR_STATUS`, or `status` where docs/interface.md allows another
 * (the type admits only the code's listed statuses). `details` are extra fields merged into the
 * error body (e.g. `runId`, `poll`).
 */
export class ServiceError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'ServiceError'
  readonly status: number
  constructor(
    readonly code: C,
    message: string,
    readonly details: Record<string, unknown> = {},
    status?: ErrorStatus<C>,
  ) {
    super(message)
    this.status = status ?? statusOf(code)
  }

  /** The error body `{code, message, ...details}` of interface.md "Error body". */
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
