import { OPERATION_KEY_PATTERN, SEARCH_BODY_SCHEMA } from '../../../shared/accountApiSchemas'
import { schemaRef } from './components'
import type { ParamDoc, ResponseDoc, RouteDoc } from './routeSchema'

/*
 * Pieces several route contracts share (see `routeSchema`): the call headers, the run answers,
 * the billing refusals and the search routes' contract.
 */

export const IDEMPOTENCY_CALL: ParamDoc = {
  name: 'Idempotency-Key',
  in: 'header',
  description: 'A repeat with the same key returns the same run instead of starting another.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
}
export const OPERATION_KEY: ParamDoc = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'Operation key: one per operation, kept across network timeouts.',
  schema: { type: 'string', pattern: OPERATION_KEY_PATTERN },
}
export const DEADLINE: ParamDoc = {
  name: 'x-service-deadline-ms',
  in: 'header',
  description: 'Answer deadline in ms (default 60000); wins over the body field `deadlineMs`.',
  schema: { type: 'integer', minimum: 5000, maximum: 300000 },
}

/** A run answer (interface.md "Run") with its description. */
export const run = (description: string): ResponseDoc => ({ description, schema: schemaRef('Run') })
/** A JSON answer whose shape the description names (an open object). */
export const json = (description: string): ResponseDoc => ({
  description,
  schema: schemaRef('Object'),
})
export const runAnswers = {
  '200': run('The run finished (`succeeded` with `result`, or `failed` with `error`).'),
  '202': run('The run waits (`input_required`) or still runs: poll it.'),
}
export const billing = ['quota_exceeded', 'insufficient_paid_credits']
/** The refusals of a call of one named tool (surface A call, account API execute). */
export const toolCallErrors = [
  'bad_request',
  'invalid_input',
  'unknown_argument',
  'not_found',
  'not_in_scope',
  'tool_quarantined',
  'idempotency_conflict',
  ...billing,
]
/**
 * The contract of the three search forms (interface.md "B" rule 1): the JSON body of POST, or the
 * query of GET (`viaQuery`), with the operation key and the search receipt.
 */
export const searchContract = (summary: string, viaQuery: boolean): RouteDoc => ({
  summary,
  tag: 'search',
  auth: 'key',
  ...(viaQuery
    ? { query: SEARCH_BODY_SCHEMA }
    : { body: { schema: SEARCH_BODY_SCHEMA, required: true } }),
  params: [OPERATION_KEY],
  responses: {
    '200': {
      description: 'The search receipt; a replay carries `Idempotent-Replayed: true`.',
      schema: schemaRef('SearchReceipt'),
    },
  },
  errors: ['bad_request', 'invalid_input', 'unknown_argument', 'idempotency_conflict', ...billing],
})
