import type { FastifyRequest } from 'fastify'
import { OPERATION_KEY_PATTERN } from '../../shared/accountApiSchemas'
import { ServiceError } from '../../shared/errors'

const OPERATION_KEY = new RegExp(OPERATION_KEY_PATTERN)

/**
 * The `Idempotency-Key` of a metered account-API request (interface.md "Resources": operation key, 8 to
 * 128 of letters, digits, `.`, `_`, `:`, `-`). Missing or malformed: 400 `invalid_input`.
 */
export function operationKey(request: FastifyRequest): string {
  const key = request.headers['idempotency-key']
  if (typeof key !== 'string' || !OPERATION_KEY.test(key))
    throw new ServiceError(
      'invalid_input',
      'Idempotency-Key is required: 8 to 128 letters, digits, ".", "_", ":" or "-".',
    )
  return key
}

/** interface.md "Limits": the Idempotency-Key of a site tool call or a task run, at most 200 characters. */
const MAX_CALL_KEY = 200

/**
 * The `Idempotency-Key` of a site tool call, a task run or a compose call (interface.md "A. Site tool
 * calls", "C"), in its own namespace (`call:<key>`, `task:<key>`, `compose:<key>`: the receipts
 * table is shared with account-API operation keys), or null when there is none. Empty or over
 * 200 characters: 400 `invalid_input`.
 */
export function callKey(
  request: FastifyRequest,
  namespace: 'call' | 'task' | 'compose',
): string | null {
  const key = request.headers['idempotency-key']
  if (key === undefined) return null
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_CALL_KEY)
    throw new ServiceError(
      'invalid_input',
      `Idempotency-Key must be 1 to ${MAX_CALL_KEY} characters.`,
    )
  return `${namespace}:${key}`
}
