import {
  ACCOUNT_PUT_BODY_SCHEMA,
  EXECUTE_BODY_SCHEMA,
  OAUTH_CLIENT_BODY_SCHEMA,
  OPERATION_KEY_PATTERN,
  PREPARE_BODY_SCHEMA,
  RUN_RESPONSES_BODY_SCHEMA,
  SCOPE_BODY_SCHEMA,
  SEARCH_BODY_SCHEMA,
  TASK_RUN_BODY_SCHEMA,
  VAULT_UNLOCK_BODY_SCHEMA,
} from "../../../shared/accountApiSchemas";
import { APP_API_INPUT_SCHEMAS, APP_API_METHODS } from "../../../shared/appApi";
import { TOOL_EDIT_SCHEMA } from "../../../shared/toolEdit";
import {
  INDEX_BODY_SCHEMA,
  INDEX_JOB_BODY_SCHEMA,
} from "../../../shared/accountApiSchemas";
import { schemaRef } from "./components";

import type { ParamDoc, ResponseDoc, RouteDoc } from "./routeSchema";

const IDEMPOTENCY_CALL: ParamDoc = {
  name: "Idempotency-Key",
  in: "header",
  description:
    "A repeat with the same key returns the same run instead of starting another.",
  schema: { type: "string", minLength: 1, maxLength: 200 },
};
const OPERATION_KEY: ParamDoc = {
  name: "Idempotency-Key",
  in: "header",
  required: true,
  description:
    "Operation key: one per operation, kept across network timeouts.",
  schema: { type: "string", pattern: OPERATION_KEY_PATTERN },
};
const DEADLINE: ParamDoc = {
  name: "x-service-deadline-ms",
  in: "header",
  description:
    "Answer deadline in ms (default 60000); wins over the body field `deadlineMs`.",
  schema: { type: "integer", minimum: 5000, maximum: 300000 },
};

const run = (description: string): ResponseDoc => ({
  description,
  schema: schemaRef("Run"),
});
const json = (description: string): ResponseDoc => ({
  description,
  schema: schemaRef("Object"),
});
const runAnswers = {
  "200": run(
    "The run finished (`succeeded` with `result`, or `failed` with `error`).",
  ),
  "202": run("The run waits (`input_required`) or still runs: poll it."),
};
const billing = ["quota_exceeded", "insufficient_paid_credits"];
const SEARCH_QUERY: ParamDoc[] = [
  {
    name: "intent",
    in: "query",
    required: true,
    description: SEARCH_BODY_SCHEMA.properties.intent.description,
    schema: SEARCH_BODY_SCHEMA.properties.intent,
  },
  {
    name: "domain",
    in: "query",
    description: SEARCH_BODY_SCHEMA.properties.domain.description,
    schema: SEARCH_BODY_SCHEMA.properties.domain,
  },
];
const search = (summary: string, viaQuery: boolean): RouteDoc => ({
  summary,
  tag: "search",
  auth: "key",
  ...(viaQuery ? {} : { body: { schema: SEARCH_BODY_SCHEMA, required: true } }),
  params: [...(viaQuery ? SEARCH_QUERY : []), OPERATION_KEY],
  responses: {
    "200": {
      description:
        "The search receipt; a replay carries `Idempotent-Replayed: true`.",
      schema: schemaRef("SearchReceipt"),
    },
  },
  errors: [
    "bad_request",
    "invalid_input",
    "unknown_argument",
    "idempotency_conflict",
    ...billing,
  ],
});

/**
 * The documentation of each route, keyed `METHOD path` with every path parameter written `:`
 * (so the names the route file chose do not matter). Bodies are the very schema constants the
 * routes validate with (`src/shared/accountApiSchemas.ts`, `src/shared/appApi.ts`).
 */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  "POST /api/v1/sites/:/call/:": {
    summary:
      "Call a site tool (surface A): the body is the tool inputs plus select, deadlineMs.",
    tag: "site tools",
    auth: "key",
    body: { schema: schemaRef("CallBody"), required: true },
    params: [IDEMPOTENCY_CALL, DEADLINE],
    responses: {
      ...runAnswers,
      "504": {
        description: "Deadline passed; the run goes on: poll `error.poll`.",
        schema: schemaRef("RunTimeoutError"),
      },
    },
    errors: [
      "bad_request",
      "invalid_input",
      "unknown_argument",
      "not_found",
      "not_in_scope",
      "tool_quarantined",
      "idempotency_conflict",
      ...billing,
      "browser_capacity",
      "browser_capacity@503",
      "run_timeout",
    ],
  },
  "GET /api/v1/sites/:": {
    summary: "List a site's tools with their input schemas.",
    tag: "site tools",
    auth: "key",
    responses: {
      "200": json("`{site_host, tools: [{id, capabilityId, inputs, ...}]}`"),
    },
    errors: ["not_found"],
  },
  "POST /api/v1/runs": {
    summary:
      "Run a task: the intent is routed to a verified tool and run with the inputs.",
    tag: "runs",
    auth: "key",
    body: { schema: TASK_RUN_BODY_SCHEMA, required: true },
    params: [IDEMPOTENCY_CALL, DEADLINE],
    responses: {
      ...runAnswers,
      "504": {
        description: "Deadline passed.",
        schema: schemaRef("RunTimeoutError"),
      },
    },
    errors: [
      "bad_request",
      "invalid_input",
      "unknown_argument",
      "idempotency_conflict",
      "not_found",
      ...billing,
      "run_timeout",
    ],
  },
  "GET /api/v1/runs/:": {
    summary: "Poll a run: 200 when final, 202 while it runs or waits.",
    tag: "runs",
    auth: "key",
    responses: runAnswers,
    errors: ["not_found", "result_expired"],
  },
  "POST /api/v1/runs/:/responses": {
    summary: "Answer a run's open requirements (approval, choice, value).",
    tag: "runs",
    auth: "key",
    body: { schema: RUN_RESPONSES_BODY_SCHEMA, required: true },
    responses: runAnswers,
    errors: [
      "bad_request",
      "invalid_input",
      "not_found",
      "conflict",
      "stale_revision",
      "stale_requirement",
      "expired_requirement",
      "unknown_requirement",
      "invalid_option",
      "invalid_answer",
      "idempotency_conflict",
    ],
  },
  "POST /api/v1/runs/:/cancel": {
    summary: "Cancel a run that has not finished.",
    tag: "runs",
    auth: "key",
    responses: { "200": run("The cancelled run.") },
    errors: ["bad_request", "not_found", "conflict"],
  },
  "POST /api/v1/scopes": {
    summary: "Create or replace a tool scope (201 new, 200 replaced).",
    tag: "scopes",
    auth: "key",
    body: { schema: SCOPE_BODY_SCHEMA, required: true },
    responses: {
      "200": json("The replaced scope."),
      "201": json("The new scope, with `mcp`."),
    },
    errors: [
      "bad_request",
      "unknown_argument",
      "invalid_scope",
      "too_many_scopes",
    ],
  },
  "GET /api/v1/scopes": {
    summary: "List the workspace's tool scopes.",
    tag: "scopes",
    auth: "key",
    responses: { "200": json("`{scopes: [...]}`") },
    errors: [],
  },
  "POST /v1/tools/search": search(
    "Search tools by intent (1 credit per operation key).",
    false,
  ),
  "POST /v1/tool-router": search(
    "The tool router: the same result as search.",
    false,
  ),
  "GET /v1/tools": search(
    "Search tools by intent in the query (same ledger as POST).",
    true,
  ),
  "GET /v1/tools/catalog": {
    summary:
      "Unranked list of traces and tools with inputs and verification status (free).",
    tag: "tools",
    auth: "key",
    responses: { "200": json("`{traces, tools}`") },
    errors: [],
  },
  "PATCH /v1/tools/:": {
    summary:
      "Edit a tool: name, description, inputs, headers and body fields of its target request " +
      "(values may be `{{input.pN}}` or `{{secret:NAME}}`), the verify rule (free). The saved " +
      "version is a candidate again until its next authorized execution verifies it.",
    tag: "tools",
    auth: "key",
    body: { schema: TOOL_EDIT_SCHEMA, required: true },
    responses: {
      "200": json("`{tool}`: the new version of the tool (its ToolSpec)."),
    },
    errors: ["bad_request", "unknown_argument", "invalid_input", "not_found"],
  },
  "POST /v1/tools/prepare": {
    summary:
      "Compile one observed request of a trace into a candidate (manual compile).",
    tag: "tools",
    auth: "key",
    body: { schema: PREPARE_BODY_SCHEMA, required: true },
    params: [OPERATION_KEY],
    responses: {
      "200": json("`{candidate}` or `{explanation}` of the missing evidence."),
    },
    errors: [
      "bad_request",
      "invalid_input",
      "invalid_input@422",
      "unknown_argument",
      "not_found",
      "idempotency_conflict",
    ],
  },
  "POST /v1/tools/:/execute": {
    summary:
      "Execute a tool or candidate once; the first execution verifies a candidate.",
    tag: "tools",
    auth: "key",
    body: { schema: EXECUTE_BODY_SCHEMA },
    params: [OPERATION_KEY],
    responses: { "200": json("`{run, tool}`") },
    errors: [
      "bad_request",
      "invalid_input",
      "unknown_argument",
      "not_found",
      "not_in_scope",
      "tool_quarantined",
      "idempotency_conflict",
      ...billing,
    ],
  },
  "GET /v1/usage": {
    summary: "The balance (free).",
    tag: "account",
    auth: "key",
    responses: { "200": json("Balance and usage.") },
    errors: [],
  },
  "GET /v1/accounts": {
    summary: "List secret names (never values).",
    tag: "account",
    auth: "key",
    responses: {
      "200": json("`{accounts: [{name, hosts, createdAt, updatedAt}]}`"),
    },
    errors: ["unavailable"],
  },
  "PUT /v1/accounts/:": {
    summary: "Store or update a secret.",
    tag: "account",
    auth: "key",
    body: { schema: ACCOUNT_PUT_BODY_SCHEMA, required: true },
    responses: {
      "200": json("`{name, hosts, createdAt, updatedAt, created}`"),
    },
    errors: ["bad_request", "unknown_argument", "invalid_input", "unavailable"],
  },
  "DELETE /v1/accounts/:": {
    summary: "Delete a secret.",
    tag: "account",
    auth: "key",
    responses: { "200": json("`{name, deleted: true}`") },
    errors: ["bad_request", "not_found", "unavailable"],
  },
  "GET /v1/vault": {
    summary: "The vault's state: mode, how to unlock, initialized.",
    tag: "account",
    auth: "key",
    responses: { "200": json("`{vault}`") },
    errors: ["unavailable"],
  },
  "POST /v1/vault/unlock": {
    summary: "Unlock the vault, or set a new vault's passphrase (owner only).",
    tag: "account",
    auth: "owner",
    body: { schema: VAULT_UNLOCK_BODY_SCHEMA },
    responses: { "200": json("`{vault}`") },
    errors: ["bad_request", "unknown_argument", "invalid_input", "unavailable"],
  },
  "GET /.well-known/oauth-authorization-server": {
    summary: "OAuth authorization server metadata (RFC 8414).",
    tag: "oauth",
    auth: "public",
    responses: { "200": json("The metadata.") },
    errors: [],
  },
  "GET /.well-known/oauth-protected-resource": {
    summary: "Protected resource metadata of the MCP endpoint (RFC 9728).",
    tag: "oauth",
    auth: "public",
    responses: { "200": json("The metadata.") },
    errors: [],
  },
  "GET /.well-known/oauth-protected-resource/mcp": {
    summary:
      "Protected resource metadata under the resource path (RFC 9728 §3.1).",
    tag: "oauth",
    auth: "public",
    responses: { "200": json("The metadata.") },
    errors: [],
  },
  "POST /oauth/clients": {
    summary: "Register a public OAuth client (RFC 7591).",
    tag: "oauth",
    auth: "public",
    body: { schema: OAUTH_CLIENT_BODY_SCHEMA, required: true },
    responses: {
      "201": json("The client information (`client_id`, no secret)."),
    },
    errors: ["bad_request", "invalid_input", "rate_limited"],
  },
  "GET /oauth/authorize": {
    summary:
      "The consent page (authorization code with S256 PKCE); needs the owner's session.",
    tag: "oauth",
    auth: "session",
    params: [
      "response_type",
      "client_id",
      "redirect_uri",
      "code_challenge",
      "code_challenge_method",
      "scope",
      "state",
    ].map((name) => ({
      name,
      in: "query" as const,
      description: `OAuth 2.1 \`${name}\`.`,
      schema: { type: "string" },
    })),
    responses: {
      "200": {
        description: "The consent page.",
        contentType: "text/html",
        schema: {},
      },
      "302": { description: "Back to the client with an OAuth error." },
    },
    errors: ["unauthorized", "invalid_input"],
  },
  "POST /oauth/authorize": {
    summary:
      "The consent page's Approve/Deny form; redirects (303) back with `code` or `error`.",
    tag: "oauth",
    auth: "session",
    body: {
      contentType: "application/x-www-form-urlencoded",
      required: true,
      schema: {
        type: "object",
        required: ["consent", "decision"],
        properties: {
          consent: { type: "string" },
          decision: { enum: ["approve", "deny"] },
        },
      },
    },
    responses: { "303": { description: "Back to the client." } },
    errors: ["bad_request", "unauthorized", "invalid_input"],
  },
  "POST /oauth/token": {
    summary:
      "Exchange a code (with its PKCE verifier) or rotate a refresh token.",
    tag: "oauth",
    auth: "public",
    body: {
      contentType: "application/x-www-form-urlencoded",
      required: true,
      schema: {
        type: "object",
        required: ["grant_type"],
        properties: {
          grant_type: { enum: ["authorization_code", "refresh_token"] },
          code: { type: "string" },
          code_verifier: { type: "string" },
          redirect_uri: { type: "string" },
          client_id: { type: "string" },
          refresh_token: { type: "string" },
          scope: { type: "string" },
        },
      },
    },
    responses: {
      "200": json(
        "`{access_token, token_type, expires_in, refresh_token, scope}`",
      ),
    },
    errors: [],
    oauthErrors: true,
  },
  "POST /app-api/session/refresh": {
    summary: "Trade the UI's valid owner token for a fresh one (one hour).",
    tag: "app",
    auth: "owner",
    responses: { "200": json("`{token, expiresAt, expiresInSeconds}`") },
    errors: ["bad_request"],
  },
  "POST /app-api/:": {
    summary:
      "The UI's contract over HTTP: answers `{ok, value}` or `{ok: false, error}`.",
    tag: "app",
    auth: "owner",
    body: {
      schema: { anyOf: APP_API_METHODS.map((m) => APP_API_INPUT_SCHEMAS[m]) },
    },
    responses: {
      "200": json("An AppResult: refusals of a method travel as `ok: false`."),
    },
    errors: ["bad_request"],
  },
  "GET /app-api/events": {
    summary:
      "The UI's push events as server-sent events (owner token, also as `?token=`).",
    tag: "app",
    auth: "owner",
    params: [
      {
        name: "token",
        in: "query",
        description: "The owner token.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "Event stream.",
        contentType: "text/event-stream",
        schema: {},
      },
    },
    errors: [],
  },
  "GET /app-api/screencast/:": {
    summary:
      "The Record view's live view of a recording browser (issue 14 item 1): a WebSocket carrying frames and the tab's state out, input and navigation in (`src/shared/screencast.ts`).",
    tag: "app",
    auth: "owner",
    params: [
      {
        name: "token",
        in: "query",
        description: "The owner token.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "101": { description: "Switching to the WebSocket protocol.", schema: {} },
    },
    errors: ["bad_request"],
  },
  "POST /v1/index": {
    summary:
      "Observe a URL with the local browser and compile a candidate (1 credit).",
    tag: "indexing",
    auth: "key",
    body: { schema: INDEX_BODY_SCHEMA, required: true },
    params: [OPERATION_KEY],
    responses: {
      "200": json("Index receipt `{status, cost, result: {..., routing}}`."),
    },
    errors: [
      "bad_request",
      "invalid_input",
      "invalid_input@422",
      "unknown_argument",
      "idempotency_conflict",
      "unavailable",
      "destination_denied",
      ...billing,
    ],
  },
  "POST /api/v1/index": {
    summary:
      "Start an index job (202), or answer the job already indexing that site (200).",
    tag: "indexing",
    auth: "key",
    body: { schema: INDEX_JOB_BODY_SCHEMA, required: true },
    responses: { "200": json("The running job."), "202": json("The new job.") },
    errors: [
      "bad_request",
      "invalid_input",
      "invalid_input@422",
      "unknown_argument",
      "unavailable",
      "index_busy",
      "index_limit",
      "destination_denied",
      ...billing,
    ],
  },
  "GET /api/v1/index/:": {
    summary: "Read an index job (done: status `done` and `indexed` above 0).",
    tag: "indexing",
    auth: "key",
    responses: { "200": json("The job.") },
    errors: ["not_found", "unavailable"],
  },
  "POST /v1/browser/stop": {
    summary: "Stop the workspace's browser work; the profile and logins stay.",
    tag: "indexing",
    auth: "key",
    responses: {
      "200": json(
        "`{stopped, browseSessions, indexing, recording, profileKept}`",
      ),
    },
    errors: ["unavailable"],
  },
  "GET /v1/keys": {
    summary: "The workspace's API keys (never the keys themselves).",
    tag: "app",
    auth: "owner",
    responses: {
      "200": json(
        "`{keys: [{id, label, kind, prefix, createdAt, revokedAt, lastUsedAt}]}`",
      ),
    },
    errors: [],
  },
  "POST /v1/keys": {
    summary: "Mint an API key (`kind` personal or org); the key is shown once.",
    tag: "app",
    auth: "owner",
    responses: {
      "201": json("`{key, id, label, kind, prefix, createdAt, ...}`"),
    },
    errors: [],
  },
  "DELETE /v1/keys/:": {
    summary: "Revoke one of the workspace's API keys.",
    tag: "app",
    auth: "owner",
    responses: { "200": json("`{revoked}`") },
    errors: ["not_found"],
  },
  "GET /v1/local-sites": {
    summary:
      "The local sites the owner allowed API URLs to reach (loopback, private network).",
    tag: "app",
    auth: "owner",
    responses: { "200": json("`{sites: [{host, createdAt}]}`") },
    errors: [],
  },
  "PUT /v1/local-sites/:": {
    summary:
      "Allow a local site (`host:port` or a host name) for indexing and browsing.",
    tag: "app",
    auth: "owner",
    responses: {
      "200": json("Already allowed."),
      "201": json("`{host, createdAt}`"),
    },
    errors: [],
  },
  "DELETE /v1/local-sites/:": {
    summary: "Take a local site off the allow-list.",
    tag: "app",
    auth: "owner",
    responses: { "204": { description: "Removed." } },
    errors: ["not_found"],
  },
  "DELETE /v1/browser": {
    summary: "Close the workspace's browse sessions.",
    tag: "indexing",
    auth: "key",
    responses: { "200": json("`{cleared, browseSessions, profileKept}`") },
    errors: ["unavailable"],
  },
  "GET /openapi.json": {
    summary: "This description: OpenAPI 3.1.0, version 2026.09.28 (public).",
    tag: "meta",
    auth: "public",
    responses: { "200": json("The OpenAPI document.") },
    errors: [],
  },
  "GET /": {
    summary: "Sends the browser to the web UI.",
    tag: "app",
    auth: "public",
    responses: { "302": { description: "To `/app/`." } },
    errors: [],
  },
  "GET /app/": {
    summary: "The web UI.",
    tag: "app",
    auth: "public",
    responses: {
      "200": { description: "The page.", contentType: "text/html", schema: {} },
    },
    errors: [],
  },
};

const MCP_QUERY: ParamDoc[] = [
  {
    name: "scope",
    in: "query",
    description: "A tool scope slug: only its apps and tools.",
    schema: { type: "string", pattern: "^[a-z0-9-]{1,40}$" },
  },
  {
    name: "apps",
    in: "query",
    description: "Comma-separated site hosts (1 to 200): only their tools.",
    schema: { type: "string" },
  },
];
const MCP_SUMMARY: Record<string, string> = {
  GET: "MCP Streamable HTTP: the server-sent notification stream of a session.",
  POST: "MCP Streamable HTTP: JSON-RPC messages (initialize opens a session, Mcp-Session-Id).",
  DELETE: "MCP Streamable HTTP: ends a session.",
};
for (const path of ["/mcp", "/mcp/:"])
  for (const method of ["GET", "POST", "DELETE"])
    ROUTE_DOCS[`${method} ${path}`] = {
      summary: MCP_SUMMARY[method]!,
      tag: "mcp",
      auth: "key",
      ...(method === "POST"
        ? {
            body: {
              required: true,
              schema: {
                description: "A JSON-RPC 2.0 message or batch (MCP).",
                type: ["object", "array"],
              },
            },
          }
        : {}),
      params: [
        ...MCP_QUERY,
        {
          name: "Mcp-Session-Id",
          in: "header",
          description: "The session of an initialized client.",
          schema: { type: "string" },
        },
      ],
      responses: {
        "200": {
          description: "JSON-RPC answer (or an event stream for GET).",
          schema: schemaRef("Object"),
        },
      },
      errors: ["bad_request", "not_found", "unknown_scope", "invalid_scope"],
    };

/** The catalogue key of a route: its method and its path with every parameter written `:`. */
export function routeKey(method: string, url: string): string {
  return `${method} ${url.replace(/:[^/]+/g, ":")}`;
}
