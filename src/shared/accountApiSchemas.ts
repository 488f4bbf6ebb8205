/**
 * JSON Schemas of account-API request bodies whose field names the spec leaves "not shown"
 * (INTERFACE.md "B"), with a description on every field so the OpenAPI generator documents them.
 */

/** Body of `POST /v1/tools/prepare` (manual compile; issue 3 "Manual compile"). */
export const PREPARE_BODY_SCHEMA = {
  type: 'object',
  description:
    'Compiles exactly one observed request of a recorded trace into a candidate tool. ' +
    'Send the header Idempotency-Key (8 to 128 letters, digits, ".", "_", ":" or "-").',
  additionalProperties: false,
  required: ['trace_id', 'request_id', 'intent'],
  properties: {
    trace_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The trace id (`trc_...`) returned when the trace was recorded or imported.',
    },
    request_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        'The id (`exc_<n>`) of the observed request (exchange) in that trace to compile as the ' +
        "tool's target.",
    },
    intent: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: "What the tool does, in plain words; becomes the candidate's intent.",
    },
    dependency_ids: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 200 },
      description:
        'Optional ids of observed requests of the same trace that the target depends on ' +
        '(for example the page that hands out a CSRF token); they become dependency steps.',
    },
  },
} as const
