import type { ErrorBody } from './errors'
import type { RecordingView } from './screencast'
import type { Requirement, Run } from './run'
import { TOOL_EDIT_SCHEMA, type ToolEdit } from './toolEdit'
import type { HttpAuthScheme, ToolSpec, ToolSummary } from './toolSpec'
import type { Action, ExchangeSummary, Exchange } from './trace'

/**
 * The one typed contract between the UI and the core (docs/architecture.md "House style"). The Electron preload and the
 * web transport (`POST /app-api/<method>`) both carry exactly these methods and events; a channel
 * not listed here is refused.
 */

/** Why the compiler made no candidate: what evidence was missing. */
export interface CompileExplanation {
  reason: string
  missing: string[]
  considered: Array<{ exchangeId: string; method: string; url: string; rejectedBecause: string }>
}

export interface RecordingState {
  sessionId: string
  traceId: string
  url: string
  intent: string
  startedAt: number
  exchanges: ExchangeSummary[]
  actionCount: number
  /**
   * Where the person sees the recording browser: its own window, the Record view's in-page
   * screencast (headless, where no display exists) or their own Chromium (attached over CDP).
   */
  view: RecordingView
  /** The site asks HTTP authentication and waits on the person's answer. */
  authChallenge?: HttpAuthChallenge | null
}

/**
 * A site's HTTP authentication challenge (a 401 with `WWW-Authenticate: Basic` or `Digest`, RFC
 * 9110 §11.6.1) met by the recording or sign-in browser, for the app to ask the credentials.
 */
export interface HttpAuthChallenge {
  /** The page that asked, without userinfo. */
  url: string
  /** host[:port] the login is saved for. */
  host: string
  scheme: HttpAuthScheme
  /** The protection space the site names (`realm="…"`), or null. */
  realm: string | null
  /** Credentials were given for it already and the site refused them. */
  failed: boolean
}

export interface RecordingResult {
  traceId: string
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
  /** The login the browser used on the recorded site, offered for saving; absent or null: none. */
  login?: LoginOffer | null
}

/** A candidate (or tool) with the exchanges its evidence names, for the review view. */
export interface ToolDetail {
  tool: ToolSpec
  target: Exchange | null
  /** A new candidate's earlier tool for the same workflow, offered to be replaced. */
  replaces?: ToolSummary | null
}

export interface AppInfo {
  version: string
  dataDir: string
  apiUrl: string
  chromium: { path: string | null; hint: string | null }
  /** The built-in demo shop to try recording on: its URL and demo user. */
  demo?: { url: string; username: string; password: string }
  /**
   * How an MCP client that starts a command runs `sitecall mcp` on this data dir (absolute Node
   * and script paths, `SITECALL_HOME`); null where the script is not on disk.
   */
  mcpStdio?: McpStdioCommand | null
}

/** A command an MCP client starts (Claude Desktop's `command`, `args`, `env`). */
export interface McpStdioCommand {
  command: string
  args: string[]
  env: Record<string, string>
}

export interface KeySummary {
  id: string
  label: string
  prefix: string
  createdAt: number
  revokedAt: number | null
  /** When a request last came with it (ms since the epoch); null: never; absent: not known. */
  lastUsedAt?: number | null
}

/** A local site the owner allowed URLs from API keys and OAuth clients to reach. */
export interface LocalSiteSummary {
  /** `host:port`, or a host name for every port. */
  host: string
  createdAt: number
}

/** The app's settings: what settings.json holds, and what is in use now. */
export interface AppSettings {
  dataDir: string
  /** The Chromium binary chosen in the settings, or null (the usual places are searched). */
  chromiumPath: string | null
  /** The Chromium in use: where it was found (`SITECALL_CHROMIUM` wins), or why none was. */
  chromium: {
    path: string | null
    source: 'env' | 'setting' | 'default' | null
    hint: string | null
  }
  /** How long run results are kept: whole days and MiB. */
  resultRetention: { days: number; maxMB: number }
}

/**
 * One run opened in the Runs view: the run, the inputs it was called with, the
 * requests it sent in order with their answers' statuses and times (its effects), and the steps
 * of its tool they came from.
 */
export interface RunDetail {
  run: Run
  inputs: Record<string, unknown>
  /** ISO 8601: when the run ended, or null while it is open. */
  finishedAt: string | null
  effects: Array<{
    method: string
    url: string
    /** The answer's HTTP status, or null when none came. */
    status: number | null
    /** ISO 8601: when the answer came (or the request failed). */
    at: string
  }>
  /** The tool's steps now (dependency requests first, the target last); [] once it is deleted. */
  steps: Array<{ id: string; method: string; url: string; target: boolean }>
  toolName: string | null
  toolVersion: string | null
}

/** A tool scope: its slug, the apps (site hosts) and tools it lets through, and when it was made. */
export interface ToolScopeSummary {
  slug: string
  apps: string[]
  tools: string[]
  /** Milliseconds since the Unix epoch. */
  createdAt: number
}

/** A recording in the Traces view's list. */
export interface TraceSummary {
  id: string
  intent: string
  startUrl: string
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  exchangeCount: number
}

/** An exchange in a trace's request list: the live list's fields and when it started. */
export interface TraceExchangeRow extends ExchangeSummary {
  /** Milliseconds since the Unix epoch. */
  startedAt: number
  pageUrl: string
}

/** One recording opened in the Traces view: its requests (without bodies) and actions. */
export interface TraceDetail {
  trace: TraceSummary
  exchanges: TraceExchangeRow[]
  actions: Action[]
  /** Tools compiled from this trace. */
  tools: ToolSummary[]
}

/** A tool the router found for an intent in the app's search, with its score (0..1). */
export interface ToolSearchMatch {
  id: string
  name: string
  siteHost: string
  status: ToolSummary['status']
  description: string
  score: number
}

/** Credits and their movements (interface.md "What the service does" 7: pay as you go, prepaid). */
export interface UsageView {
  balance: number
  freeGrant: number
  freeRemaining: number
  paidRemaining: number
  charged: number
  ledger: Array<{ kind: string; amount: number; ref: string; reason: string; at: number }>
}

/** Something a run of a tool needs first, and what fixes it. */
export interface ToolNeed {
  /** `vault`: unlock it; `login`: sign in to `host`; `secret`: store `secret` (bound to `host`). */
  kind: 'vault' | 'login' | 'secret'
  message: string
  host?: string
  secret?: string
}

/**
 * The login the browser used on the recorded site, offered for saving after Stop and HAR import
 * (issue 24 item E): what it holds, never a secret value.
 */
export interface LoginOffer {
  traceId: string
  host: string
  /** Cookies of the site the recording ended with (or a HAR's requests carried). */
  cookieCount: number
  /** localStorage items of the site's origins (a bearer token counts as one). */
  storageItems: number
  /** The user name of its HTTP authentication, or typed on the sign-in page; null when unknown. */
  username: string | null
  /** The HTTP authentication the browser answered (RFC 7617 Basic, RFC 7616 Digest), or null. */
  httpAuth: HttpAuthScheme | null
  /** Digest: the password never crossed the wire, so saving needs the person to type it. */
  needsPassword: boolean
  /** A bearer token the browser sent (`Authorization: Bearer`). */
  bearer: boolean
  /**
   * This login is kept: saved by the offer, or during the recording (an HTTP authentication the
   * person answered in the app). Then nothing is asked.
   */
  saved: boolean
  /** Another login of the host is saved, which saving this one replaces. */
  replaces: boolean
}

/** A requirement as the inbox shows it: a value's or choice's slot carries its declared type. */
export interface InboxRequirement extends Requirement {
  slotSchema?: { type?: string; format?: string; enum?: unknown[]; description?: string }
}

/** A run waiting on the person, with its tool and site. */
export interface InboxItem {
  runId: string
  stateRevision: number
  toolId: string
  toolName: string
  siteHost: string
  mutating: boolean
  /** ISO 8601 */
  createdAt: string
  requirements: InboxRequirement[]
}

/** One answer (interface.md "Answering an input_required run"). */
export interface RequirementAnswer {
  requirementId: string
  value?: unknown
  optionId?: string
  approve?: boolean
}

/** A secret of the vault: its name and bound hosts, never its value. */
export interface SecretSummary {
  name: string
  hosts: string[]
  /** Milliseconds since the Unix epoch. */
  createdAt: number
  updatedAt: number
}

/** A saved site login: what is kept, never a value. */
export interface LoginSummary {
  /** host[:port] of the site. */
  host: string
  /** Milliseconds since the Unix epoch. */
  savedAt: number
  lastUsedAt: number | null
  /** A username and password are saved (the app can sign in again by itself). */
  hasPassword: boolean
  /** A TOTP seed is saved (a second factor needs no person). */
  hasTotp: boolean
  /** The page the password was typed on. */
  loginUrl: string | null
}

/** Where a sign-in is: `open` waits on the person, `signed_in` saved the login's storage state. */
export type SignInStatus = 'open' | 'signing_in' | 'signed_in' | 'saved' | 'cancelled' | 'failed'

/** One sign-in flow: the browser the person signs in with, and its outcome. */
export interface SignInState {
  signInId: string
  host: string
  url: string
  status: SignInStatus
  message: string
  /** A password was typed: the app may offer to keep the username and password as secrets. */
  canSaveCredentials: boolean
  /** The username typed with it, shown so the person knows which account would be kept. */
  username: string | null
  /** The site asked a one-time code: the app may offer to keep a TOTP seed. */
  sawOneTimeCode: boolean
  /** The site asks HTTP authentication: the app asks the username and password for it. */
  authChallenge?: HttpAuthChallenge | null
  /**
   * Where the person sees the sign-in browser: its own window, or (headless, where no display
   * exists) the Logins view's live picture of it, as a recording's.
   */
  view: 'window' | 'screencast'
  startedAt: number
  updatedAt: number
}

/** The vault's key mode (it always says which, and never falls back to plaintext). */
export interface VaultState {
  mode: 'keychain' | 'passphrase' | 'locked'
  unlockWith: 'passphrase' | 'keychain' | null
  initialized: boolean
  message: string
}

/** How far a running sync is (`runSync`'s progress): `done` of `total` outbox entries, `pulled` tools. */
export interface SyncProgressView {
  phase: 'push' | 'pull'
  done: number
  total: number
  pulled: number
}

/** A tool whose push the server refused as stale, with both versions whole (null: deleted there/here). */
export interface SyncConflictView {
  toolId: string
  mine: ToolSpec | null
  theirs: ToolSpec | null
  theirRevision: number
  createdAt: number
}

/** A refusal of a link or a sync as the app shows it: a stable code and a plain sentence. */
export interface SyncProblem {
  /**
   * `invalid_server_url`, `server_unreachable`, `wrong_server`, `link_refused`,
   * `link_cancelled`, `link_timeout`, `vault_locked`, `not_linked`, `sync_stopped`; else
   * `link_failed` or `sync_failed` (see `describeSyncError` in src/main/sync/appSync.ts).
   */
  code: string
  message: string
}

/**
 * The Settings view's "Link to a server" (issue 27 B, docs/team-server.md "Sync"): the link, a
 * link waiting on the browser, a sync running, the last sync of this app session, the outbox and
 * the open conflicts.
 */
export interface SyncStatus {
  /** False on a core that keeps no desktop sync (a team server node's own app). */
  available: boolean
  link: {
    serverUrl: string
    /** The server workspace (`ws_…`); null: the account's first. */
    workspace: string | null
    auth: 'oauth' | 'token'
    tokenStore: 'keychain' | 'vault'
    linkedAt: number
    pulledRevision: number
  } | null
  /** An OAuth link waiting on the person's approval; `authorizeUrl` once the server gave it. */
  linking: { serverUrl: string; authorizeUrl: string | null; startedAt: number } | null
  running: SyncProgressView | null
  /** The last sync this app ran (ms since the epoch, counts), or null. */
  lastSync: {
    at: number
    pushed: number
    deleted: number
    pulled: number
    removed: number
    revision: number
    refused: Array<{ toolId: string; code: string; message: string }>
  } | null
  /** Changes waiting to be pushed. */
  outbox: number
  conflicts: SyncConflictView[]
  /** Why the last link or sync did not go through; null after one that did. */
  error: SyncProblem | null
}

/** Method name → `[input, result]`. */
interface AppApiMethods {
  'app.info': [Record<string, never>, AppInfo]
  'settings.get': [Record<string, never>, AppSettings]
  /**
   * Saves settings into settings.json and applies them at once: a Chromium path (null clears
   * it) that must be an executable file, a result retention of whole days (1-3650) and MiB
   * (1-1048576). 400 `invalid_input` names the field; nothing is saved then.
   */
  'settings.update': [
    {
      chromiumPath?: string | null
      resultRetention?: { days: number; maxMB: number }
    },
    AppSettings,
  ]
  /** `cdpEndpoint`: record in the person's own Chromium (`--remote-debugging-port`) instead. */
  'recorder.start': [{ url: string; intent: string; cdpEndpoint?: string }, RecordingState]
  'recorder.current': [Record<string, never>, RecordingState | null]
  'recorder.stop': [{ sessionId: string }, RecordingResult]
  /**
   * Answers the recording's HTTP authentication challenge: saves the username and password as
   * the site's login (sealed: 503 `unavailable` while the vault is locked), then loads the page
   * again with them.
   */
  'recorder.answerAuth': [{ sessionId: string; username: string; password: string }, RecordingState]
  /**
   * A HAR 1.2 file imported as a recording and compiled: its text (`har`, the desktop window), or
   * the id `POST /app-api/har-upload` gave the file streamed to it (`uploadId`, web mode). At
   * most {@link HAR_MAX_BYTES} either way.
   */
  'recorder.importHar': [
    ({ har: string } | { uploadId: string }) & { intent: string; fileName?: string },
    RecordingResult,
  ]
  'tools.list': [Record<string, never>, ToolSummary[]]
  /**
   * Tools for an intent through the router, with scores: free in the app, where
   * nothing is metered; `status` and `reason` as the account API's search result.
   */
  'tools.search': [
    { intent: string },
    { status: string; matches: ToolSearchMatch[]; reason: string | null },
  ]
  'usage.get': [Record<string, never>, UsageView]
  /** What a run of the tool needs first (a saved login, an open vault, a secret); [] when ready. */
  'tools.needs': [{ id: string }, ToolNeed[]]
  /** The login a recording or HAR showed the browser used on `host`; null when none. */
  'logins.offer': [{ traceId: string; host: string }, LoginOffer | null]
  /**
   * Saves that login, sealed in the vault as `sitecall login` saves one (503 `unavailable` while
   * the vault is locked: nothing is kept); `password` completes a Digest login (400 without).
   */
  'logins.saveFromTrace': [{ traceId: string; host: string; password?: string }, LoginOffer]
  /** The person declined the offer: the login held in memory for it is forgotten. */
  'logins.skipFromTrace': [{ traceId: string; host: string }, { skipped: boolean }]
  /** Recordings, newest first. */
  'traces.list': [Record<string, never>, TraceSummary[]]
  'traces.get': [{ id: string }, TraceDetail]
  /** One exchange with its headers and bodies. */
  'traces.exchange': [{ traceId: string; exchangeId: string }, Exchange]
  /** The trace as HAR 1.2 (JSON), to save as a file. */
  'traces.exportHar': [{ id: string }, { fileName: string; har: unknown }]
  'traces.delete': [{ id: string }, { deleted: boolean }]
  /** Manual compile: exactly this exchange of a stored trace ("use this request instead"). */
  'compile.prepare': [
    { traceId: string; exchangeId: string; intent?: string; dependencyExchangeIds?: string[] },
    RecordingResult,
  ]
  'tools.get': [{ id: string }, ToolDetail]
  'tools.run': [{ id: string; inputs: Record<string, unknown> }, Run]
  'tools.delete': [{ id: string }, { deleted: boolean }]
  /** Saves an edit as a new version, a candidate again until a run verifies it. */
  'tools.update': [{ id: string; edit: ToolEdit }, ToolDetail]
  /** The candidate `id` takes the place (and name) of the tool `replaces`, which is deleted. */
  'tools.replace': [{ id: string; replaces: string }, ToolDetail]
  'runs.list': [{ toolId?: string }, Run[]]
  /** One run with its inputs, effects, timing and its tool's steps; 404 `not_found`. */
  'runs.get': [{ runId: string }, RunDetail]
  'keys.list': [Record<string, never>, KeySummary[]]
  'keys.create': [{ label: string }, { key: string; summary: KeySummary }]
  /** Tool scopes of the workspace (interface.md "Tool scope"): each restricts a connection to apps and tools. */
  'scopes.list': [Record<string, never>, ToolScopeSummary[]]
  /** Creates or replaces a tool scope, as `POST /api/v1/scopes` does. */
  'scopes.create': [{ slug: string; apps: string[]; tools: string[] }, ToolScopeSummary]
  /** Deletes a tool scope, as `DELETE /api/v1/scopes/{slug}` does. */
  'scopes.delete': [{ slug: string }, { deleted: boolean }]
  /** Revokes a key of the workspace: requests with it answer 403 `revoked` from then on. */
  'keys.revoke': [{ id: string }, { revoked: boolean }]
  /** Local sites API keys and OAuth clients may index and browse. */
  'localSites.list': [Record<string, never>, LocalSiteSummary[]]
  'localSites.allow': [{ host: string }, LocalSiteSummary]
  'localSites.remove': [{ host: string }, { removed: boolean }]
  /** Runs waiting on the person, oldest first; `now` is the core's clock (ms) for the countdown. */
  'requirements.list': [Record<string, never>, { now: number; items: InboxItem[] }]
  /** Answers a waiting run and resolves with it once it is final or waits again. */
  'requirements.answer': [
    { runId: string; stateRevision: number; answers: RequirementAnswer[] },
    Run,
  ]
  'secrets.list': [Record<string, never>, SecretSummary[]]
  /** Stores or replaces a secret bound to `hosts`; the value never comes back. */
  'secrets.set': [{ name: string; value: string; hosts: string[] }, SecretSummary]
  'secrets.delete': [{ name: string }, { deleted: boolean }]
  'vault.status': [Record<string, never>, VaultState]
  /** With a passphrase: unlocks (or sets a new vault's); without: asks the keychain again. */
  'vault.unlock': [{ passphrase?: string }, VaultState]
  'logins.list': [Record<string, never>, LoginSummary[]]
  /** Opens the site in a browser for the person to sign in (by `host` or `url`). */
  'logins.signIn': [{ host?: string; url?: string }, SignInState]
  'logins.signInState': [{ signInId: string }, SignInState]
  /** Saves the login and, as chosen, the typed username and password and a TOTP seed. */
  'logins.finishSignIn': [
    { signInId: string; saveCredentials: boolean; totpSeed?: string },
    SignInState,
  ]
  'logins.cancelSignIn': [{ signInId: string }, SignInState]
  /** Answers a sign-in's HTTP authentication challenge; saved as the site's login once accepted. */
  'logins.answerAuth': [{ signInId: string; username: string; password: string }, SignInState]
  /** Deletes a site's login and its secrets. */
  'logins.forget': [{ host: string }, { forgotten: boolean }]
  'sync.status': [Record<string, never>, SyncStatus]
  /**
   * Links this desktop to a team server: with `token` (an owner token, for self-hosted scripts)
   * at once; without, by OAuth in the system browser (answers while it waits: `linking`; the
   * `sync.changed` event tells the end). A refusal is the status's `error`, not a thrown error.
   */
  'sync.link': [{ serverUrl: string; token?: string; workspace?: string }, SyncStatus]
  /** Gives up a link waiting on the browser (`link_cancelled`). */
  'sync.cancelLink': [Record<string, never>, SyncStatus]
  /** Pushes the outbox and pulls (progress by `sync.changed`); answers when it ends. */
  'sync.run': [Record<string, never>, SyncStatus]
  /** Settles a conflict as `sitecall sync --take mine|theirs TOOL` does, then syncs. */
  'sync.take': [{ toolId: string; side: 'mine' | 'theirs' }, SyncStatus]
  /** Forgets the link and its token; the tools stay. */
  'sync.unlink': [Record<string, never>, SyncStatus]
}

export type AppApiMethod = keyof AppApiMethods
export type AppApiInput<M extends AppApiMethod> = AppApiMethods[M][0]
export type AppApiResult<M extends AppApiMethod> = AppApiMethods[M][1]

/** Push events, main → UI. */
export interface AppEventMap {
  'recorder.exchange': { sessionId: string; exchange: ExchangeSummary }
  'recorder.action': { sessionId: string; actionCount: number }
  'recorder.stopped': { sessionId: string; result: RecordingResult }
  /** The recording browser met an HTTP authentication challenge (null: it was answered). */
  'recorder.authChallenge': { sessionId: string; challenge: HttpAuthChallenge | null }
  'runs.updated': { run: Run }
  /** A tool was verified, quarantined or let out of quarantine. */
  'tools.changed': { tool: ToolSummary }
  /** The sync status moved: a link ended, a sync went a step further or ended. */
  'sync.changed': { status: SyncStatus }
}
export type AppEventName = keyof AppEventMap

/** What crosses IPC or the web transport: Electron keeps only an error's message, so wrap it. */
export type AppResult<T> = { ok: true; value: T } | { ok: false; error: ErrorBody }

/**
 * The largest HAR the app imports, in bytes: the CLI's `MAX_HAR_BYTES` (`src/main/cliHar.ts`,
 * where the memory it takes to compile is measured), 200 MiB. Said in the Record view.
 */
export const HAR_MAX_BYTES = 200 * 1024 * 1024

const emptyObject = { type: 'object', additionalProperties: false, properties: {} } as const
const idOnly = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1 } },
} as const

const traceHost = {
  type: 'object',
  additionalProperties: false,
  required: ['traceId', 'host'],
  properties: {
    traceId: { type: 'string', minLength: 1, maxLength: 200 },
    host: { type: 'string', minLength: 1, maxLength: 260 },
  },
} as const

/** A username and password typed for an HTTP authentication challenge (RFC 7617 §2: no colon in the user-id). */
const httpCredentials = {
  username: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^:]*$' },
  password: { type: 'string', maxLength: 500 },
} as const

const signInIdOnly = {
  type: 'object',
  additionalProperties: false,
  required: ['signInId'],
  properties: { signInId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const

/** JSON Schema of each method's input: the allowlist of channels and what each may carry. */
export const APP_API_INPUT_SCHEMAS: Record<AppApiMethod, object> = {
  'app.info': emptyObject,
  'settings.get': emptyObject,
  'settings.update': {
    type: 'object',
    additionalProperties: false,
    properties: {
      chromiumPath: { type: ['string', 'null'], maxLength: 4096 },
      resultRetention: {
        type: 'object',
        additionalProperties: false,
        required: ['days', 'maxMB'],
        properties: { days: { type: 'number' }, maxMB: { type: 'number' } },
      },
    },
  },
  'recorder.start': {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'intent'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 2000 },
      intent: { type: 'string', minLength: 1, maxLength: 2000 },
      cdpEndpoint: { type: 'string', pattern: '^(https?|wss?)://', maxLength: 2000 },
    },
  },
  'recorder.current': emptyObject,
  'recorder.importHar': {
    type: 'object',
    additionalProperties: false,
    required: ['intent'],
    oneOf: [{ required: ['har'] }, { required: ['uploadId'] }],
    properties: {
      // The JSON transport's body limit (5 MiB) bounds it there: web mode uploads bigger files.
      har: { type: 'string', minLength: 2 },
      uploadId: { type: 'string', minLength: 1, maxLength: 100 },
      intent: { type: 'string', minLength: 1, maxLength: 2000 },
      fileName: { type: 'string', maxLength: 255 },
    },
  },
  'recorder.stop': {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId'],
    properties: { sessionId: { type: 'string', minLength: 1 } },
  },
  'recorder.answerAuth': {
    type: 'object',
    additionalProperties: false,
    required: ['sessionId', 'username', 'password'],
    properties: {
      sessionId: { type: 'string', minLength: 1, maxLength: 100 },
      ...httpCredentials,
    },
  },
  'tools.list': emptyObject,
  'tools.search': {
    type: 'object',
    additionalProperties: false,
    required: ['intent'],
    properties: { intent: { type: 'string', minLength: 1, maxLength: 2000 } },
  },
  'usage.get': emptyObject,
  'tools.needs': idOnly,
  'logins.offer': traceHost,
  'logins.saveFromTrace': {
    ...traceHost,
    properties: { ...traceHost.properties, password: httpCredentials.password },
  },
  'logins.skipFromTrace': traceHost,
  'traces.list': emptyObject,
  'traces.get': idOnly,
  'traces.exchange': {
    type: 'object',
    additionalProperties: false,
    required: ['traceId', 'exchangeId'],
    properties: {
      traceId: { type: 'string', minLength: 1, maxLength: 200 },
      exchangeId: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  'traces.exportHar': idOnly,
  'traces.delete': idOnly,
  'compile.prepare': {
    type: 'object',
    additionalProperties: false,
    required: ['traceId', 'exchangeId'],
    properties: {
      traceId: { type: 'string', minLength: 1, maxLength: 200 },
      exchangeId: { type: 'string', minLength: 1, maxLength: 200 },
      intent: { type: 'string', minLength: 1, maxLength: 2000 },
      dependencyExchangeIds: {
        type: 'array',
        maxItems: 50,
        items: { type: 'string', minLength: 1, maxLength: 200 },
      },
    },
  },
  'tools.get': idOnly,
  'tools.run': {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'inputs'],
    properties: { id: { type: 'string', minLength: 1 }, inputs: { type: 'object' } },
  },
  'tools.delete': idOnly,
  'tools.update': {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'edit'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, edit: TOOL_EDIT_SCHEMA },
  },
  'tools.replace': {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'replaces'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 200 },
      replaces: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  'runs.list': {
    type: 'object',
    additionalProperties: false,
    properties: { toolId: { type: 'string' } },
  },
  'runs.get': {
    type: 'object',
    additionalProperties: false,
    required: ['runId'],
    properties: { runId: { type: 'string', minLength: 1, maxLength: 100 } },
  },
  'keys.list': emptyObject,
  'keys.create': {
    type: 'object',
    additionalProperties: false,
    required: ['label'],
    properties: { label: { type: 'string', minLength: 1, maxLength: 100 } },
  },
  'keys.revoke': idOnly,
  'localSites.list': emptyObject,
  'localSites.allow': {
    type: 'object',
    additionalProperties: false,
    required: ['host'],
    properties: { host: { type: 'string', minLength: 1, maxLength: 260 } },
  },
  'localSites.remove': {
    type: 'object',
    additionalProperties: false,
    required: ['host'],
    properties: { host: { type: 'string', minLength: 1, maxLength: 260 } },
  },
  'scopes.list': emptyObject,
  'scopes.delete': {
    type: 'object',
    additionalProperties: false,
    required: ['slug'],
    properties: { slug: { type: 'string', minLength: 1, maxLength: 40 } },
  },
  'scopes.create': {
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'apps', 'tools'],
    properties: {
      slug: { type: 'string', minLength: 1, maxLength: 40 },
      apps: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 260 } },
      tools: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 300 } },
    },
  },
  'requirements.list': emptyObject,
  'requirements.answer': {
    type: 'object',
    additionalProperties: false,
    required: ['runId', 'stateRevision', 'answers'],
    properties: {
      runId: { type: 'string', minLength: 1, maxLength: 200 },
      stateRevision: { type: 'integer' },
      answers: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['requirementId'],
          properties: {
            requirementId: { type: 'string', minLength: 1, maxLength: 300 },
            value: {},
            optionId: { type: 'string', maxLength: 200 },
            approve: { type: 'boolean' },
          },
        },
      },
    },
  },
  'secrets.list': emptyObject,
  'secrets.set': {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'value', 'hosts'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 64 },
      value: { type: 'string', minLength: 1 },
      hosts: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 260 } },
    },
  },
  'secrets.delete': {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
  },
  'vault.status': emptyObject,
  'vault.unlock': {
    type: 'object',
    additionalProperties: false,
    properties: { passphrase: { type: 'string', minLength: 1, maxLength: 1024 } },
  },
  'logins.list': emptyObject,
  'logins.signIn': {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      host: { type: 'string', minLength: 1, maxLength: 260 },
      url: { type: 'string', minLength: 1, maxLength: 2000 },
    },
  },
  'logins.signInState': signInIdOnly,
  'logins.finishSignIn': {
    type: 'object',
    additionalProperties: false,
    required: ['signInId', 'saveCredentials'],
    properties: {
      signInId: { type: 'string', minLength: 1, maxLength: 100 },
      saveCredentials: { type: 'boolean' },
      totpSeed: { type: 'string', maxLength: 2000 },
    },
  },
  'logins.cancelSignIn': signInIdOnly,
  'logins.answerAuth': {
    type: 'object',
    additionalProperties: false,
    required: ['signInId', 'username', 'password'],
    properties: {
      signInId: { type: 'string', minLength: 1, maxLength: 100 },
      ...httpCredentials,
    },
  },
  'logins.forget': {
    type: 'object',
    additionalProperties: false,
    required: ['host'],
    properties: { host: { type: 'string', minLength: 1, maxLength: 260 } },
  },
  'sync.status': emptyObject,
  'sync.link': {
    type: 'object',
    additionalProperties: false,
    required: ['serverUrl'],
    properties: {
      serverUrl: { type: 'string', minLength: 1, maxLength: 2000 },
      token: { type: 'string', minLength: 1, maxLength: 4000 },
      workspace: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  'sync.cancelLink': emptyObject,
  'sync.run': emptyObject,
  'sync.take': {
    type: 'object',
    additionalProperties: false,
    required: ['toolId', 'side'],
    properties: {
      toolId: { type: 'string', minLength: 1, maxLength: 200 },
      side: { enum: ['mine', 'theirs'] },
    },
  },
  'sync.unlink': emptyObject,
}

export const APP_API_METHODS = Object.keys(APP_API_INPUT_SCHEMAS) as AppApiMethod[]
export const APP_EVENT_NAMES: AppEventName[] = [
  'recorder.exchange',
  'recorder.action',
  'recorder.stopped',
  'recorder.authChallenge',
  'runs.updated',
  'tools.changed',
  'sync.changed',
]

/** True when `name` is a method of the contract (the preload's and web transport's allowlist). */
export function isAppApiMethod(name: string): name is AppApiMethod {
  return Object.prototype.hasOwnProperty.call(APP_API_INPUT_SCHEMAS, name)
}
