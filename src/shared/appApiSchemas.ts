import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { TOOL_EDIT_SCHEMA, type ToolEdit } from './toolEdit'

/**
 * The input of each method of the UI contract (`src/shared/appApi.ts`), written once as a TypeBox
 * schema: the JSON Schema the app dispatch and `POST /app-api/<method>` check untrusted input
 * with, and (by `Static<>`) the type handlers and the renderer's `invoke` see. Pure, no Node.
 */

/** A string of `min` to `max` characters (JSON Schema `minLength`/`maxLength`). */
const text = (minLength: number, maxLength: number) => Type.String({ minLength, maxLength })
/** A string of at least one character with no upper bound. */
const nonEmpty = () => Type.String({ minLength: 1 })
/** An object of exactly these keys (`additionalProperties: false`). */
const closed = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false })

const EmptyInput = closed({})
const IdInput = closed({ id: nonEmpty() })
const traceId = text(1, 200)
const exchangeId = text(1, 200)
const host = text(1, 260)
const intent = text(1, 2000)
const signInId = text(1, 100)
const HostInput = closed({ host })
const TraceHostInput = closed({ traceId, host })
const SignInIdInput = closed({ signInId })

/** A username and password typed for an HTTP authentication challenge (RFC 7617 §2: no colon in the user-id). */
const httpCredentials = {
  username: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^:]*$' }),
  password: Type.String({ maxLength: 500 }),
}

/** A HAR to import: its text or a streamed upload's id, with the intent it answers. */
type HarImportInput = ({ har: string } | { uploadId: string }) & {
  intent: string
  fileName?: string
}

/**
 * JSON Schema of each method's input: the allowlist of channels and what each may carry. The
 * order is the contract's (it is the order of `APP_API_METHODS`).
 */
export const APP_API_INPUT_SCHEMAS = {
  'app.info': EmptyInput,
  'settings.get': EmptyInput,
  /**
   * Saves settings into settings.json and applies them at once: a Chromium path (null clears
   * it) that must be an executable file, a result retention of whole days (1-3650) and MiB
   * (1-1048576). 400 `invalid_input` names the field; nothing is saved then.
   */
  'settings.update': closed({
    chromiumPath: Type.Optional(
      Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 4096 }),
    ),
    resultRetention: Type.Optional(closed({ days: Type.Number(), maxMB: Type.Number() })),
  }),
  /** `cdpEndpoint`: record in the person's own Chromium (`--remote-debugging-port`) instead. */
  'recorder.start': closed({
    url: text(1, 2000),
    intent,
    cdpEndpoint: Type.Optional(Type.String({ pattern: '^(https?|wss?)://', maxLength: 2000 })),
  }),
  'recorder.current': EmptyInput,
  /**
   * A HAR 1.2 file imported as a recording and compiled: its text (`har`, the desktop window), or
   * the id `POST /app-api/har-upload` gave the file streamed to it (`uploadId`, web mode). At
   * most `HAR_MAX_BYTES` either way.
   */
  'recorder.importHar': Type.Unsafe<HarImportInput>(
    Type.Object(
      {
        // The JSON transport's body limit (5 MiB) bounds it there: web mode uploads bigger files.
        har: Type.Optional(Type.String({ minLength: 2 })),
        uploadId: Type.Optional(text(1, 100)),
        intent,
        fileName: Type.Optional(Type.String({ maxLength: 255 })),
      },
      {
        additionalProperties: false,
        oneOf: [{ required: ['har'] }, { required: ['uploadId'] }],
      },
    ),
  ),
  'recorder.stop': closed({ sessionId: nonEmpty() }),
  /**
   * Answers the recording's HTTP authentication challenge: saves the username and password as
   * the site's login (sealed: 503 `unavailable` while the vault is locked), then loads the page
   * again with them.
   */
  'recorder.answerAuth': closed({ sessionId: text(1, 100), ...httpCredentials }),
  'tools.list': EmptyInput,
  /**
   * Tools for an intent through the router, with scores: free in the app, where
   * nothing is metered; `status` and `reason` as the account API's search result.
   */
  'tools.search': closed({ intent }),
  'usage.get': EmptyInput,
  /** What a run of the tool needs first (a saved login, an open vault, a secret); [] when ready. */
  'tools.needs': IdInput,
  /** The login a recording or HAR showed the browser used on `host`; null when none. */
  'logins.offer': TraceHostInput,
  /**
   * Saves that login, sealed in the vault as `sitecall login` saves one (503 `unavailable` while
   * the vault is locked: nothing is kept); `password` completes a Digest login (400 without).
   */
  'logins.saveFromTrace': closed({
    traceId,
    host,
    password: Type.Optional(httpCredentials.password),
  }),
  /** The person declined the offer: the login held in memory for it is forgotten. */
  'logins.skipFromTrace': TraceHostInput,
  /** Recordings, newest first. */
  'traces.list': EmptyInput,
  'traces.get': IdInput,
  /** One exchange with its headers and bodies. */
  'traces.exchange': closed({ traceId, exchangeId }),
  /** The trace as HAR 1.2 (JSON), to save as a file. */
  'traces.exportHar': IdInput,
  'traces.delete': IdInput,
  /** Manual compile: exactly this exchange of a stored trace ("use this request instead"). */
  'compile.prepare': closed({
    traceId,
    exchangeId,
    intent: Type.Optional(intent),
    dependencyExchangeIds: Type.Optional(Type.Array(text(1, 200), { maxItems: 50 })),
  }),
  'tools.get': IdInput,
  'tools.run': closed({
    id: nonEmpty(),
    inputs: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
  }),
  'tools.delete': IdInput,
  /** Saves an edit as a new version, a candidate again until a run verifies it. */
  'tools.update': closed({ id: text(1, 200), edit: Type.Unsafe<ToolEdit>(TOOL_EDIT_SCHEMA) }),
  /** The candidate `id` takes the place (and name) of the tool `replaces`, which is deleted. */
  'tools.replace': closed({ id: text(1, 200), replaces: text(1, 200) }),
  'runs.list': closed({ toolId: Type.Optional(Type.String()) }),
  /** One run with its inputs, effects, timing and its tool's steps; 404 `not_found`. */
  'runs.get': closed({ runId: text(1, 100) }),
  'keys.list': EmptyInput,
  'keys.create': closed({ label: text(1, 100) }),
  /** Revokes a key of the workspace: requests with it answer 403 `revoked` from then on. */
  'keys.revoke': IdInput,
  /** Local sites API keys and OAuth clients may index and browse. */
  'localSites.list': EmptyInput,
  'localSites.allow': HostInput,
  'localSites.remove': HostInput,
  /** Tool scopes of the workspace (interface.md "Tool scope"): each restricts a connection to apps and tools. */
  'scopes.list': EmptyInput,
  /** Deletes a tool scope, as `DELETE /api/v1/scopes/{slug}` does. */
  'scopes.delete': closed({ slug: text(1, 40) }),
  /** Creates or replaces a tool scope, as `POST /api/v1/scopes` does. */
  'scopes.create': closed({
    slug: text(1, 40),
    apps: Type.Array(Type.String({ maxLength: 260 }), { maxItems: 200 }),
    tools: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 200 }),
  }),
  /** Runs waiting on the person, oldest first; `now` is the core's clock (ms) for the countdown. */
  'requirements.list': EmptyInput,
  /** Answers a waiting run and resolves with it once it is final or waits again. */
  'requirements.answer': closed({
    runId: text(1, 200),
    stateRevision: Type.Integer(),
    answers: Type.Array(
      closed({
        requirementId: text(1, 300),
        value: Type.Optional(Type.Unknown()),
        optionId: Type.Optional(Type.String({ maxLength: 200 })),
        approve: Type.Optional(Type.Boolean()),
      }),
      { minItems: 1, maxItems: 50 },
    ),
  }),
  'secrets.list': EmptyInput,
  /** Stores or replaces a secret bound to `hosts`; the value never comes back. */
  'secrets.set': closed({
    name: text(1, 64),
    value: nonEmpty(),
    hosts: Type.Array(Type.String({ maxLength: 260 }), { maxItems: 20 }),
  }),
  'secrets.delete': closed({ name: text(1, 64) }),
  'vault.status': EmptyInput,
  /** With a passphrase: unlocks (or sets a new vault's); without: asks the keychain again. */
  'vault.unlock': closed({ passphrase: Type.Optional(text(1, 1024)) }),
  'logins.list': EmptyInput,
  /** Opens the site in a browser for the person to sign in (by `host` or `url`). */
  'logins.signIn': Type.Object(
    { host: Type.Optional(host), url: Type.Optional(text(1, 2000)) },
    { additionalProperties: false, minProperties: 1 },
  ),
  'logins.signInState': SignInIdInput,
  /** Saves the login and, as chosen, the typed username and password and a TOTP seed. */
  'logins.finishSignIn': closed({
    signInId,
    saveCredentials: Type.Boolean(),
    totpSeed: Type.Optional(Type.String({ maxLength: 2000 })),
  }),
  'logins.cancelSignIn': SignInIdInput,
  /** Answers a sign-in's HTTP authentication challenge; saved as the site's login once accepted. */
  'logins.answerAuth': closed({ signInId, ...httpCredentials }),
  /** Deletes a site's login and its secrets. */
  'logins.forget': HostInput,
  'sync.status': EmptyInput,
  /**
   * Links this desktop to a team server: with `token` (an owner token, for self-hosted scripts)
   * at once; without, by OAuth in the system browser (answers while it waits: `linking`; the
   * `sync.changed` event tells the end). A refusal is the status's `error`, not a thrown error.
   */
  'sync.link': closed({
    serverUrl: text(1, 2000),
    token: Type.Optional(text(1, 4000)),
    workspace: Type.Optional(text(1, 200)),
  }),
  /** Gives up a link waiting on the browser (`link_cancelled`). */
  'sync.cancelLink': EmptyInput,
  /** Pushes the outbox and pulls (progress by `sync.changed`); answers when it ends. */
  'sync.run': EmptyInput,
  /** Settles a conflict as `sitecall sync --take mine|theirs TOOL` does, then syncs. */
  'sync.take': closed({
    toolId: text(1, 200),
    side: Type.Unsafe<'mine' | 'theirs'>({ enum: ['mine', 'theirs'] }),
  }),
  /** Forgets the link and its token; the tools stay. */
  'sync.unlink': EmptyInput,
} satisfies Record<string, TSchema>

/** A method name of the UI contract. */
export type AppApiMethod = keyof typeof APP_API_INPUT_SCHEMAS
/** What method `M` takes, as its schema accepts it. */
export type AppApiInput<M extends AppApiMethod> = Static<(typeof APP_API_INPUT_SCHEMAS)[M]>
