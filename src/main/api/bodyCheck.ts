import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { ServiceError } from '../../shared/errors'

/** Compiles a request schema of `src/shared` once (the same schema the OpenAPI is made from). */
export function compileBody(schema: object): ValidateFunction {
  return new Ajv({ allErrors: true, strict: false }).compile(schema)
}

/**
 * Checks a body (or query) against its schema: not an object is 400 `bad_request`; a property
 * the schema does not name is 422 `unknown_argument` listing the accepted ones (spec "Request
 * shape"); any other mismatch is 400 `invalid_input` naming the field.
 */
export function checkBody<T>(validate: ValidateFunction, input: unknown): T {
  if (input === null || input === undefined || typeof input !== 'object' || Array.isArray(input))
    throw new ServiceError('bad_request', 'The body must be a JSON object.')
  if (validate(input)) return input as T
  const errors = validate.errors ?? []
  const accepted = Object.keys(
    (validate.schema as { properties?: Record<string, unknown> }).properties ?? {},
  )
  const unknown = errors
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => String(e.params.additionalProperty))
  if (unknown.length)
    throw new ServiceError(
      'unknown_argument',
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Valid: ${accepted.join(', ')}.`,
      { valid: accepted },
    )
  throw new ServiceError('invalid_input', describe(errors[0]))
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'The input is invalid.'
  if (error.keyword === 'required') return `"${String(error.params.missingProperty)}" is required.`
  const field = error.instancePath.slice(1).replace(/\//g, '.') || 'The body'
  if (field === 'intent')
    return '"intent" must be a string of 1 to 2000 characters that is not blank.'
  if (field === 'domain') return '"domain" must be a bare host name: no scheme, no path.'
  return `"${field}" ${error.message ?? 'is invalid'}.`
}
