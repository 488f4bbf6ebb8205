/**
 * The HTTP statuses of each refusal code, as the spec's error tables give them (INTERFACE.md
 * "Errors": auth and billing, request shape, capacity and timing, answering, logins, browse
 * sessions, raw reads; "A": 429 for a rate limit). The first status is a code's usual one.
 * `upstream_error` answers "the other upstream 4xx"; 400 stands for them.
 */
export const ERROR_STATUS: Record<string, number[]> = {
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
  upstream_error: [400],
  rate_limited: [429],
  // Ours: a body over the size limit (issue 13 item 8); the spec shows no body limits.
  payload_too_large: [413],
  // A URL from the API toward a metadata address or a local site the owner did not allow
  // (issue 13 item 3): the run failure code of spec "Why a run failed", refused up front.
  destination_denied: [403],
  // Ours: a run's result past its retention (issue 12); the spec names no retention.
  result_expired: [410],
}

/**
 * Parses a route's error entry (`code` or `code@status`) into its code and status; the status
 * defaults to the code's first in `ERROR_STATUS`. Throws for a code the spec's tables lack, so a
 * route document cannot name an invented code.
 */
export function parseErrorEntry(entry: string): { code: string; status: number } {
  const [code, status] = entry.split('@') as [string, string | undefined]
  const statuses = ERROR_STATUS[code]
  if (!statuses) throw new Error(`"${code}" is not a code of the spec's error tables.`)
  const chosen = status === undefined ? statuses[0]! : Number(status)
  if (!statuses.includes(chosen))
    throw new Error(`The spec does not answer ${code} with ${chosen}.`)
  return { code, status: chosen }
}
