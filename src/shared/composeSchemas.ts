import { Type, type Static } from '@sinclair/typebox'

/**
 * The compose call's contract (interface.md "C" `POST /api/v1/compose/v1/call`, "Raw reads",
 * `upstream_timeout`): docs/interface.md names the route and its errors but not its body, so the body is
 * ours. One call of a tool by app and name, or `steps`: up to 10 calls in
 * order, whose inputs may take values from earlier results. Pure, no Node.
 */

/** At most this many calls in one compose request (docs/api-guide.md "Compose"). */
const MAX_COMPOSE_STEPS = 10

/**
 * The key of an input value that is read from an earlier step instead of given:
 * `{"$from": "steps[0].data.items[0].id"}`. The path is the tool JSON-path grammar
 * (`src/shared/jsonPath.ts`) over `{steps: [{data, runId}, …]}`, the steps answered so far.
 */
export const FROM_KEY = '$from'

const refusal = (message: string) => ({ 'x-message': message })

const app = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '\\S',
  description: 'The site host the tool belongs to (`{site_host}` of surface A), e.g. `shop.test`.',
  ...refusal('"app" is the site host of the tool: a non-empty string.'),
})
const tool = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: "The tool's name (`{tool_id}` of surface A), e.g. `shop__get_orders`.",
  ...refusal('"tool" is the name of a tool of that app: a non-empty string.'),
})
const inputs = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description:
    'The tool\'s inputs by name. In `steps`, a value `{"$from": "steps[0].data.items[0].id"}` ' +
    "takes an earlier step's result at that JSON path.",
  ...refusal('"inputs" must be an object of the tool\'s inputs by name.'),
})
const allowMutation = Type.Boolean({
  description: 'Required true for a tool that changes data on the site.',
  ...refusal('"allow_mutation" must be true or false.'),
})

/** One call of a `steps` list. */
const COMPOSE_STEP_SCHEMA = Type.Object(
  {
    app,
    tool,
    inputs: Type.Optional(inputs),
    allow_mutation: Type.Optional(allowMutation),
  },
  { additionalProperties: false },
)
export type ComposeStep = Static<typeof COMPOSE_STEP_SCHEMA>

/** Body of `POST /api/v1/compose/v1/call`: `app` and `tool`, or `steps`. */
export const COMPOSE_BODY_SCHEMA = Type.Object(
  {
    app: Type.Optional(app),
    tool: Type.Optional(tool),
    inputs: Type.Optional(inputs),
    allow_mutation: Type.Optional(allowMutation),
    steps: Type.Optional(
      Type.Array(COMPOSE_STEP_SCHEMA, {
        minItems: 1,
        maxItems: MAX_COMPOSE_STEPS,
        description:
          'Instead of app and tool: 1 to 10 calls run in order, stopping at the first failure.',
        ...refusal(
          `"steps" takes 1 to ${MAX_COMPOSE_STEPS} objects of {app, tool, inputs?, allow_mutation?}.`,
        ),
      }),
    ),
    timeoutMs: Type.Optional(
      Type.Integer({
        minimum: 5000,
        maximum: 300000,
        description:
          'Deadline of the whole call in ms (default 60000); past it 504 `upstream_timeout` ' +
          'with `outcome: "unknown"`. The header `x-service-deadline-ms` wins over it.',
        ...refusal('"timeoutMs" must be an integer from 5000 to 300000.'),
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Calls a tool by app and name and answers `{ok: true, data, runId}` or ' +
      '`{ok: false, code, error}`; or runs `steps` in order.',
  },
)
export type ComposeBody = Static<typeof COMPOSE_BODY_SCHEMA>
