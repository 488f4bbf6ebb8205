import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { ServiceError, type ErrorCode } from '../../shared/errors'

const ajv = new Ajv({ allErrors: true, strict: false })
const compiled = new WeakMap<object, ValidateFunction>()

/**
 * Compiles a request schema of `src/shared` (the same schema the OpenAPI is made from), once per
 * schema object: a route and a use case that check the same contract share one validator.
 */
export function compileBody(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * Checks a body (or query) against its schema: not an object is 400 `bad_request`; a property
 * the schema does not name is 422 `unknown_argument` listing the accepted ones (interface.md "Request
 * shape"); any other mismatch is 400 `invalid_input` naming the field, or the code the schema
 * names in `x-refusal` (a scope's `invalid_scope`). A field's `x-message` is the refusal's
 * message when that field is missing or malformed.
 */
export function checkBody<T>(validate: ValidateFunction, input: unknown): T {
  if (input === null || input === undefined || typeof input !== 'object' || Array.isArray(input))
    throw new ServiceError('bad_request', 'The body must be a JSON object.')
  if (validate(input)) return input as T
  const errors = validate.errors ?? []
  const schema = validate.schema as ContractSchema
  const accepted = Object.keys(schema.properties ?? {})
  const unknown = errors
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => String(e.params.additionalProperty))
  if (unknown.length)
    throw new ServiceError(
      'unknown_argument',
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Valid: ${accepted.join(', ')}.`,
      { valid: accepted },
    )
  throw new ServiceError(schema['x-refusal'] ?? 'invalid_input', describe(schema, errors[0]))
}

/** Checks `input` against a contract of `src/shared`, as a route's validation does. */
export function checkContract<T>(schema: object, input: unknown): T {
  return checkBody<T>(compileBody(schema), input)
}

/** The parts of a contract's schema a refusal reads. */
interface ContractSchema {
  properties?: Record<string, { 'x-message'?: string }>
  'x-refusal'?: ErrorCode
}

function describe(schema: ContractSchema, error: ErrorObject | undefined): string {
  if (!error) return 'The input is invalid.'
  const field =
    error.keyword === 'required'
      ? String(error.params.missingProperty)
      : error.instancePath.slice(1).split('/')[0]
  const message = field ? schema.properties?.[field]?.['x-message'] : undefined
  if (message) return message
  if (error.keyword === 'required') return `"${field}" is required.`
  const path = error.instancePath.slice(1).replace(/\//g, '.') || 'The body'
  if (path === 'intent')
    return '"intent" must be a string of 1 to 2000 characters that is not blank.'
  if (path === 'domain') return '"domain" must be a bare host name: no scheme, no path.'
  return `"${path}" ${error.message ?? 'is invalid'}.`
}
