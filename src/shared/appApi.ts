import type { ErrorBody } from './errors'
import type { RecordingView } from './screencast'
import type { Requirement, Run } from './run'
import { APP_API_INPUT_SCHEMAS, type AppApiMethod } from './appApiSchemas'
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
 * (architecture.md "What recorded traffic asks", 5): what it holds, never a secret value.
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
 * The Settings view's "Link to a server" (docs/team-server.md "Sync"): the link, a
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

/**
 * Method name → what it resolves with. What each method takes, and its documentation, is its
 * schema in `APP_API_INPUT_SCHEMAS` (src/shared/appApiSchemas.ts).
 */
interface AppApiResults {
  'app.info': AppInfo
  'settings.get': AppSettings
  'settings.update': AppSettings
  'recorder.start': RecordingState
  'recorder.current': RecordingState | null
  'recorder.stop': RecordingResult
  'recorder.answerAuth': RecordingState
  'recorder.importHar': RecordingResult
  'tools.list': ToolSummary[]
  'tools.search': { status: string; matches: ToolSearchMatch[]; reason: string | null }
  'usage.get': UsageView
  'tools.needs': ToolNeed[]
  'logins.offer': LoginOffer | null
  'logins.saveFromTrace': LoginOffer
  'logins.skipFromTrace': { skipped: boolean }
  'traces.list': TraceSummary[]
  'traces.get': TraceDetail
  'traces.exchange': Exchange
  'traces.exportHar': { fileName: string; har: unknown }
  'traces.delete': { deleted: boolean }
  'compile.prepare': RecordingResult
  'tools.get': ToolDetail
  'tools.run': Run
  'tools.delete': { deleted: boolean }
  'tools.update': ToolDetail
  'tools.replace': ToolDetail
  'runs.list': Run[]
  'runs.get': RunDetail
  'keys.list': KeySummary[]
  'keys.create': { key: string; summary: KeySummary }
  'scopes.list': ToolScopeSummary[]
  'scopes.create': ToolScopeSummary
  'scopes.delete': { deleted: boolean }
  'keys.revoke': { revoked: boolean }
  'localSites.list': LocalSiteSummary[]
  'localSites.allow': LocalSiteSummary
  'localSites.remove': { removed: boolean }
  'requirements.list': { now: number; items: InboxItem[] }
  'requirements.answer': Run
  'secrets.list': SecretSummary[]
  'secrets.set': SecretSummary
  'secrets.delete': { deleted: boolean }
  'vault.status': VaultState
  'vault.unlock': VaultState
  'logins.list': LoginSummary[]
  'logins.signIn': SignInState
  'logins.signInState': SignInState
  'logins.finishSignIn': SignInState
  'logins.cancelSignIn': SignInState
  'logins.answerAuth': SignInState
  'logins.forget': { forgotten: boolean }
  'sync.status': SyncStatus
  'sync.link': SyncStatus
  'sync.cancelLink': SyncStatus
  'sync.run': SyncStatus
  'sync.take': SyncStatus
  'sync.unlink': SyncStatus
}

export { APP_API_INPUT_SCHEMAS, type AppApiInput, type AppApiMethod } from './appApiSchemas'
export type AppApiResult<M extends AppApiMethod> = AppApiResults[M]

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

/** The contract's methods, in its order. */
export const APP_API_METHODS: AppApiMethod[] =
  Object.keys(APP_API_INPUT_SCHEMAS).filter(isAppApiMethod)
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
