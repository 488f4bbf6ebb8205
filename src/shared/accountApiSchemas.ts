import { Type, type Static } from '@sinclair/typebox'

/**
 * JSON Schemas of account-API request bodies whose field names docs/interface.md leaves "not shown"
 * (docs/interface.md "B"), with a description on every field so the OpenAPI generator documents them.
 */

/**
 * A field's refusal message (`x-message`): what a malformed or missing value is answered with,
 * in place of the validator's generic words.
 */
const refusal = (message: string) => ({ 'x-message': message })

/** An object whose keys the caller names (tool inputs): JSON Schema `{type: 'object'}`. */
const openObject = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', description })

/** Body of `POST /v1/tools/prepare` (manual compile). */
export const PREPARE_BODY_SCHEMA = Type.Object(
  {
    trace_id: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'The trace id (`trc_...`) returned when the trace was recorded or imported.',
      ...refusal('"trace_id" is required: a non-empty string of at most 200 characters.'),
    }),
    request_id: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description:
        'The id (`exc_<n>`) of the observed request (exchange) in that trace to compile as the ' +
        "tool's target.",
      ...refusal('"request_id" is required: a non-empty string of at most 200 characters.'),
    }),
    intent: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: "What the tool does, in plain words; becomes the candidate's intent.",
      ...refusal('"intent" is required: a non-empty string of at most 2000 characters.'),
    }),
    dependency_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 50,
        description:
          'Optional ids of observed requests of the same trace that the target depends on ' +
          '(for example the page that hands out a CSRF token); they become dependency steps.',
        ...refusal('"dependency_ids" must be a list of at most 50 request ids of the trace.'),
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Compiles exactly one observed request of a recorded trace into a candidate tool. ' +
      'Send the header Idempotency-Key (8 to 128 letters, digits, ".", "_", ":" or "-").',
  },
)

/**
 * Operation key (interface.md "Resources"): header `Idempotency-Key` of every metered account-API
 * request, 8 to 128 letters, digits, `.`, `_`, `:`, `-`.
 */
export const OPERATION_KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$'

/** A bare host name, optionally with a port: no scheme, no path (interface.md "B" search `domain`). */
const DOMAIN_PATTERN =
  '^(?=.{1,253}(:\\d{1,5})?$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?(:\\d{1,5})?$'

/**
 * Body of `POST /v1/tools/search` and `POST /v1/tool-router`, and the query of `GET /v1/tools`
 * (interface.md "B"): the three forms share one result and one operation-key ledger. The answer is a
 * search receipt `{status, cost, result}`; repeating the key with the same inputs returns the
 * stored receipt unchanged (its `cost` is what the operation cost, charged once; the answer then
 * carries the header `Idempotent-Replayed: true`); other inputs are 409 `idempotency_conflict`.
 */
export const SEARCH_BODY_SCHEMA = Type.Object(
  {
    intent: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: 'What the tool should do, in plain words (1 to 2000 characters).',
    }),
    domain: Type.Optional(
      Type.String({
        maxLength: 260,
        pattern: DOMAIN_PATTERN,
        description:
          'Optional bare host name (no scheme or path): only tools on that host and its ' +
          'subdomains. With a port (`127.0.0.1:4101`), only that port.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Finds the callable tools of this account for an intent. Send the header Idempotency-Key ' +
      '(8 to 128 letters, digits, ".", "_", ":" or "-"). Costs 1 credit per operation key.',
  },
)

/**
 * Body of `POST /api/v1/runs` (run by task; interface.md "C", body "not shown"): an intent routed to the
 * best verified tool scoring 0.9 or more, run like a site tool call. Answers 200 with the run when
 * it finished, 202 while `accepted`, `working` or `input_required`, 504 `run_timeout` past the
 * deadline. With no tool that fits, the run is persisted as `failed` with `no_capability` and
 * `result.next.tool` naming the index tool. Optional header `Idempotency-Key` (up to 200
 * characters): a repeat joins the same run; other inputs are 409 `idempotency_conflict`.
 */
export const TASK_RUN_BODY_SCHEMA = Type.Object(
  {
    intent: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: 'The task in plain words (1 to 2000 characters).',
    }),
    inputs: Type.Optional(
      openObject(
        "The tool's inputs by semantic name (as surface A takes them), or by slot (`p0`, `p1`... " +
          'as strings, as search matches list them). Missing required values make the run wait ' +
          'as `input_required`.',
      ),
    ),
    domain: Type.Optional(
      Type.String({
        maxLength: 260,
        pattern: DOMAIN_PATTERN,
        description: 'Optional bare host name: route only to tools on it and its subdomains.',
      }),
    ),
    select: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Keep only the named parts of the result (as in site tool calls).',
      }),
    ),
    deadlineMs: Type.Optional(
      Type.Integer({
        minimum: 5000,
        maximum: 300000,
        description:
          'Answer deadline in ms (default 60000); the header x-service-deadline-ms wins. Past it ' +
          'the answer is 504 run_timeout and the run goes on.',
      }),
    ),
    allow_mutation: Type.Optional(
      Type.Boolean({
        description:
          'Confirms a tool that changes data on the site; without it such a run waits for approval.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Runs a task: routes the intent to a verified tool and runs it with the inputs.',
  },
)
export type TaskRunBody = Static<typeof TASK_RUN_BODY_SCHEMA>

/**
 * Body of `POST /v1/tools/{id}/execute` (interface.md "B"): runs a candidate or tool once with slot
 * inputs; the first real execution of a candidate verifies it. Header `Idempotency-Key`
 * required (operation key).
 */
export const EXECUTE_BODY_SCHEMA = Type.Object(
  {
    intent: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'Why this execution is made, in plain words (kept with the run).',
      }),
    ),
    inputs: Type.Optional(
      openObject(
        "Slot names (`p0`, `p1`...) to values, as strings converted by the slot's declared type.",
      ),
    ),
    allow_mutation: Type.Optional(
      Type.Boolean({ description: 'Required true for a tool that changes data on the site.' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Executes a tool or candidate once. Costs 1 credit per operation key.',
  },
)

/** Body of `PUT /v1/accounts/{name}` (interface.md "B"): stores or replaces a secret. */
export const ACCOUNT_PUT_BODY_SCHEMA = Type.Object(
  {
    value: Type.String({
      minLength: 1,
      description: 'The secret value (encrypted at rest per tenant).',
      ...refusal('"value" is required: a non-empty string.'),
    }),
    hosts: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 20,
        description:
          'Bare `host[:port]` names the secret may be sent to; omitted keeps an existing ' +
          "secret's hosts.",
        ...refusal('"hosts" must be a list of at most 20 host names.'),
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Stores or replaces the secret {name}; the value is never returned.',
  },
)

/** Body of `POST /v1/vault/unlock` (owner only). */
export const VAULT_UNLOCK_BODY_SCHEMA = Type.Object(
  {
    passphrase: Type.Optional(
      Type.String({
        description: 'The vault passphrase.',
        ...refusal('"passphrase" must be a string.'),
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Unlocks the vault, or sets a new vault's passphrase; empty asks the OS keychain again.",
  },
)

/** A scope's list of site hosts or tool names: names without spaces. */
const scopeNames = (field: 'apps' | 'tools', description: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^\\S+$' }), {
      description,
      ...refusal(`"${field}" takes an array of names (no spaces, at most 253 characters each).`),
    }),
  )

/**
 * Body of `POST /api/v1/scopes` (interface.md "C", "Limits": slug rules, 200 apps and tools). A field
 * that breaks a rule is 400 `invalid_scope` (interface.md "Request shape").
 */
export const SCOPE_BODY_SCHEMA = Type.Object(
  {
    slug: Type.String({
      pattern: '^[a-z0-9-]{1,40}$',
      description: '1 to 40 lowercase letters, digits or dashes.',
      ...refusal('"slug" takes 1 to 40 lowercase letters, digits or dashes.'),
    }),
    apps: scopeNames('apps', 'Site hosts whose tools the scope allows.'),
    tools: scopeNames(
      'tools',
      'Tool names (`<site>__<tool>`) the scope allows; with apps, at most 200.',
    ),
  },
  {
    additionalProperties: false,
    description: 'Creates or replaces a tool scope; at least one app or tool.',
    'x-refusal': 'invalid_scope',
  },
)
export type ScopeBody = Static<typeof SCOPE_BODY_SCHEMA>

/** Body of `POST /v1/keys` (owner only; interface.md "Authentication" 1-2): mints an API key. */
export const KEY_BODY_SCHEMA = Type.Object(
  {
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '\\S',
        description: 'What the key is for (default `api`).',
        ...refusal('"label" takes 1 to 100 characters.'),
      }),
    ),
    kind: Type.Optional(
      Type.Unsafe<'personal' | 'org'>({
        type: 'string',
        enum: ['personal', 'org'],
        description:
          '`personal` (default), or `org`: an org key may act for end users with ' +
          '`X-Service-End-User`.',
        ...refusal('"kind" is "personal" or "org".'),
      }),
    ),
  },
  { additionalProperties: false, description: 'Mints an API key; the key is shown once.' },
)

/** Body of `POST /api/v1/runs/{runId}/responses` (interface.md "Answering an input_required run"). */
export const RUN_RESPONSES_BODY_SCHEMA = {
  type: 'object',
  description: "Answers a run's open requirements; carries the run's current stateRevision.",
  required: ['stateRevision', 'answers'],
  properties: {
    stateRevision: { type: 'integer', description: "The run's `stateRevision` as last read." },
    answers: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['requirementId'],
        properties: {
          requirementId: { type: 'string' },
          value: { description: 'The value of a `value` requirement.' },
          optionId: { type: 'string', description: 'The chosen option of a `choice`.' },
          approve: { type: 'boolean', description: 'The decision on an `approval`.' },
        },
      },
    },
  },
} as const

/** Body of `POST /oauth/clients` (RFC 7591 §2; other client metadata is ignored). */
export const OAUTH_CLIENT_BODY_SCHEMA = Type.Object(
  {
    redirect_uris: Type.Array(Type.String({ maxLength: 2000 }), {
      minItems: 1,
      maxItems: 10,
      description: 'https URIs, or http on 127.0.0.1, [::1] or localhost; no fragment.',
      ...refusal('"redirect_uris" takes 1 to 10 absolute URIs.'),
    }),
    client_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '\\S',
        ...refusal('"client_name" takes 1 to 200 characters.'),
      }),
    ),
  },
  { description: 'Registers a public OAuth client (no secret; S256 PKCE).' },
)
export type OAuthClientBody = Static<typeof OAUTH_CLIENT_BODY_SCHEMA>

/** Body of `POST /v1/index` (interface.md "B"): the URL to observe and the intent to compile for. */
export const INDEX_BODY_SCHEMA = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The http or https page to observe.',
    }),
    intent: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description:
        'What the tool should do (1 to 2000 characters). When it names a value ("search the ' +
        'directory for writing") and the page has one search box, the browser types and submits it.',
    }),
    browser: Type.Optional(
      Type.Unsafe<'remote'>({
        type: 'string',
        enum: ['remote'],
        description:
          "Optional; `remote` is accepted for compatibility: this service's browser is the local " +
          'headless Chromium, with the saved login of the site.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Observes a URL with the local browser and compiles a candidate tool for the intent when ' +
      'the evidence supports one. Send the header Idempotency-Key (8 to 128 letters, digits, ".", ' +
      '"_", ":" or "-"). Costs 1 credit per operation key.',
  },
)

/** Body of `POST /api/v1/index` (interface.md "C"; body "not shown"): a URL and an optional intent. */
export const INDEX_JOB_BODY_SCHEMA = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The page to index.' }),
    intent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        pattern: '\\S',
        description: 'Optional: what the tool should do; default the data the page loads itself.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Starts an index job on a URL. At most 3 run at once per workspace (429 index_busy) and 5 ' +
      'start a day (429 index_limit); a site already being indexed answers its job.',
  },
)
