import { REST_ERROR_CODES, RUN_FAILURE_CODES } from '../../../shared/errors'
import { RUN_STATUSES } from '../../../shared/run'

/** Every error code of `src/shared/errors.ts` (REST refusals and run failures), once each. */
const ALL_ERROR_CODES = [...new Set<string>([...REST_ERROR_CODES, ...RUN_FAILURE_CODES])]

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/**
 * Shared schemas of the document (`components.schemas`): the interface's error bodies ("Error body",
 * "Run-timeout error body"), the Run ("Run"), the search receipt ("Resources") and RFC 6749
 * §5.2's token error. Response shapes are open (`additionalProperties` allowed): docs/interface.md says
 * "extra fields may appear".
 */
export const COMPONENT_SCHEMAS = {
  Error: {
    type: 'object',
    description: 'A refused request (interface.md "Error body"). Branch on `error.code`.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: ALL_ERROR_CODES, description: 'Stable; branch on it.' },
          message: { type: 'string', description: 'Human text; may name a next step.' },
        },
      },
    },
  },
  RunTimeoutError: {
    type: 'object',
    description:
      'HTTP 504: the deadline passed and the run goes on (interface.md "Run-timeout error").',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'runId', 'poll'],
        properties: {
          code: { const: 'run_timeout' },
          message: { type: 'string' },
          runId: { type: 'string' },
          deadlineMs: { type: 'integer' },
          poll: { type: 'string', description: 'Path to GET for the run when it is ready.' },
        },
      },
    },
  },
  Run: {
    type: 'object',
    description: 'A run (interface.md "Run"); extra fields may appear.',
    required: ['runId', 'status'],
    properties: {
      runId: { type: 'string', pattern: '^lrun_' },
      status: { type: 'string', enum: [...RUN_STATUSES] },
      capabilityId: { type: ['string', 'null'] },
      result: { description: "The site's verified result when `succeeded`." },
      error: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'string' }, message: { type: 'string' } },
          },
        ],
      },
      requirements: { type: 'array', items: { type: 'object' } },
      via: { enum: ['http', 'rendered', null] },
      signIn: {
        oneOf: [
          { type: 'null' },
          { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
        ],
      },
      stateRevision: { type: 'integer' },
      selectMissing: { type: 'array', items: { type: 'string' } },
    },
  },
  SearchReceipt: {
    type: 'object',
    description: 'Receipt of a search form (interface.md "B"): one result per operation key.',
    required: ['status', 'cost', 'result'],
    properties: {
      status: { enum: ['completed', 'uncertain'] },
      cost: { type: 'integer' },
      result: {
        type: 'object',
        required: ['status', 'tools', 'index_endpoint'],
        properties: {
          status: { type: 'string' },
          tools: { type: 'array', maxItems: 10, items: { type: 'object' } },
          index_endpoint: { type: 'string' },
          candidate: { type: 'object' },
        },
      },
    },
  },
  OAuthError: {
    type: 'object',
    description:
      'Token endpoint error (RFC 6749 §5.2), not the envelope of docs/interface.md: clients branch on it.',
    required: ['error'],
    properties: {
      error: {
        enum: [
          'invalid_request',
          'invalid_client',
          'invalid_grant',
          'unauthorized_client',
          'unsupported_grant_type',
          'invalid_scope',
        ],
      },
      error_description: { type: 'string' },
    },
  },
  ComposeResult: {
    type: 'object',
    description:
      'The compose envelope of a call that succeeded: the verified result as `data`. With ' +
      "`steps`, `data` and `runId` are the last step's and `steps` lists each one.",
    required: ['ok', 'data', 'runId'],
    properties: {
      ok: { const: true },
      data: { description: "The site's verified result." },
      runId: { type: 'string', pattern: '^lrun_' },
      steps: { type: 'array', items: ref('ComposeStep') },
    },
  },
  ComposeFailure: {
    type: 'object',
    description:
      'The compose envelope of a call that did not succeed; `error` is the usual error body, ' +
      'so `error.code` works as on every route. `outcome: "unknown"`: the site may have been ' +
      'changed (past the deadline, or a write whose answer was lost); nothing is retried by ' +
      'itself: check the site before repeating.',
    required: ['ok', 'code', 'error'],
    properties: {
      ok: { const: false },
      code: { type: 'string', enum: ALL_ERROR_CODES },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: ALL_ERROR_CODES },
          message: { type: 'string' },
          httpStatus: { type: 'integer', description: 'The status the site last answered.' },
          httpOnly: { type: 'boolean', description: 'Seen over plain HTTP, without a browser.' },
          reason: { type: 'string', description: "The run's own failure code." },
          step: { type: 'integer', description: 'The step that failed (`steps`).' },
        },
      },
      runId: { type: 'string' },
      outcome: { const: 'unknown' },
      signIn: { type: 'object', properties: { url: { type: 'string' } } },
      steps: { type: 'array', items: ref('ComposeStep') },
    },
  },
  ComposeStep: {
    type: 'object',
    description: 'One step of a `steps` call: what ran and how it ended.',
    required: ['step', 'app', 'tool', 'status'],
    properties: {
      step: { type: 'integer' },
      app: { type: 'string' },
      tool: { type: 'string' },
      status: { enum: ['succeeded', 'failed', 'refused', 'unknown', 'not_run'] },
      runId: { type: 'string' },
      data: {},
      code: { type: 'string' },
      error: { type: 'object' },
    },
  },
  Object: { type: 'object', description: 'A JSON object.' },
  CallBody: {
    type: 'object',
    description:
      "The tool's inputs by name (GET /api/v1/sites/{site_host} lists each tool's input " +
      'schema; `x-tools` of this document too) plus the common fields. Unknown properties are ' +
      '422 `unknown_argument`.',
    properties: {
      select: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Keep only the named parts of the result: dots walk keys, `[]` maps over a list, a ' +
          'final `{a,b}` keeps several keys; paths that match nothing are in `selectMissing`.',
      },
      deadlineMs: {
        type: 'integer',
        minimum: 5000,
        maximum: 300000,
        description: 'Answer deadline (default 60000); the header x-service-deadline-ms wins.',
      },
    },
    additionalProperties: true,
  },
} as const

/** `$ref` to a component schema by name. */
export const schemaRef = (name: keyof typeof COMPONENT_SCHEMAS) => ref(name)
