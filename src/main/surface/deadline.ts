import { ServiceError } from '../../shared/errors'

/** interface.md "Limits": site tool call deadline 5000 to 300000 ms, default 60000. */
export const DEADLINE_MIN_MS = 5_000
export const DEADLINE_MAX_MS = 300_000
export const DEADLINE_DEFAULT_MS = 60_000

/**
 * The deadline of a call in milliseconds: the `x-service-deadline-ms` header wins over the body's
 * `deadlineMs` (interface.md "A. Site tool calls"). Out of range or not an integer: 400 `invalid_input`.
 */
export function parseDeadline(header: string | string[] | undefined, body: unknown): number {
  const raw = Array.isArray(header) ? header[0] : header
  const value = raw !== undefined ? (/^\d+$/.test(raw.trim()) ? Number(raw) : NaN) : body
  if (value === undefined) return DEADLINE_DEFAULT_MS
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < DEADLINE_MIN_MS ||
    value > DEADLINE_MAX_MS
  )
    throw new ServiceError(
      'invalid_input',
      `The deadline must be an integer from ${DEADLINE_MIN_MS} to ${DEADLINE_MAX_MS} ms.`,
    )
  return value
}

/** Waiting for a run up to its deadline is the engine's (the one call operation uses it too). */
export { settleWithin } from '../engine/callTool'
