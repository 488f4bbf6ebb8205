import type { FastifyRequest } from 'fastify'
import { OPERATION_KEY_PATTERN } from '../../shared/accountApiSchemas'
import { ServiceError } from '../../shared/errors'

const OPERATION_KEY = new RegExp(OPERATION_KEY_PATTERN)

/**
 * The `Idempotency-Key` of a metered account-API request (spec "Resources": operation key, 8 to
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
