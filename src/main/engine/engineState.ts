import type { Run } from '../../shared/run'
import type { ToolSpec } from '../../shared/toolSpec'
import type { StorageState } from '../../shared/trace'
import type { LedgerRepository } from '../store/ledgerRepository'
import type { ReadAhead } from '../store/readAhead'
import type { RunEffect, RunPatch, RunRecord, RunRepository } from '../store/runRepository'
import type { ToolHealthRepository } from '../store/toolHealthRepository'
import type { ToolRepository } from '../store/toolRepository'
import type { RunSecrets } from '../vault'
import type { HostLookup } from './destination'
import type { HttpCredentials } from './httpAuth'
import {
  sendWithUndici,
  type ExecutionOutcome,
  type RunContext,
  type SendRequest,
} from './httpExecutor'
import { createInputValidator, type InputValidator } from './inputs'
import { toPublicRun } from './publicRun'
import { createQuarantine, type Quarantine } from './quarantine'

export interface RunEngineDeps {
  runs: RunRepository
  tools: ToolRepository
  /**
   * The tools of the workspace a tenant works in (the store's `toolsFor`): a
   * call resolves its tool there and a run's tool is read back from there. Absent: `tools`.
   */
  toolsFor?: (tenant: string) => ToolRepository
  /**
   * Saved site logins (sealed in the vault): a run uses its tool's site's login (cookies,
   * storage values); `locked` says what to do when one is saved but cannot be read now.
   */
  logins?: {
    load(
      tenant: string,
      siteHost: string,
    ): Promise<{
      state: StorageState | null
      locked: string | null
      /** The saved username and password, read only when the site asks HTTP auth. */
      httpCredentials?: () => Promise<HttpCredentials | null>
    }>
  }
  /** A one-time sign-in link for a run that met a sign-in wall (spec run field `signIn.url`). */
  mintSignInLink?: (tenant: string, siteHost: string) => string
  /**
   * Signs in again with the saved username, password and TOTP seed when a saved login's session
   * expired; true when it saved a new login (the run is then retried once). May reject with
   * `mfa_required`.
   */
  relogin?: (tenant: string, tool: ToolSpec) => Promise<boolean>
  /**
   * Whether the requests a tool was compiled from carried a login (`Cookie`, `Authorization`):
   * read only when a run without a saved login failed, to tell a missing login from drift.
   */
  recordedWithLogin?: (tool: ToolSpec) => boolean
  /** The billing ledger: surface-A runs bill one credit when they succeed. */
  ledger?: LedgerRepository
  /** Failure streaks and last good inputs per tool (quarantine). */
  health?: ToolHealthRepository
  /** The store's hints of a run's next reads (PostgreSQL sends them together); absent: none. */
  readAhead?: ReadAhead
  /** Milliseconds since the Unix epoch. */
  clock: () => number
  /** A new ULID for each run id. */
  ulid: () => string
  send?: SendRequest
  /** Resolves site names for the private-address check (`destination_denied`); default DNS. */
  lookup?: HostLookup
  /**
   * Runs a tool in a pooled headless browser: used for tools with
   * `via: "rendered"`, and once for a read whose HTTP attempt met a bot check. Absent: such tools
   * fail `browser_capacity`.
   */
  executeRendered?: RenderedExecutor
  /** The vault: each run resolves `{{secret:NAME}}` of its workspace and redacts what it keeps. */
  secrets?: { forRun(tenant: string): RunSecrets }
  /**
   * Hands a run to an executor elsewhere instead of running it here (a team server's device,
   * `server/devices.ts`): called once a run is `working`; null runs it here. The
   * function it returns resolves with what the run came to there (settled here as a run of this
   * engine would be) or with `expired` and its message (the run then ends `expired`).
   */
  delegate?: (
    run: RunRecord,
    tool: ToolSpec,
  ) => ((signal: AbortSignal) => Promise<DelegatedOutcome>) | null
  /**
   * Whether the approval a write would ask here is asked where it runs instead (a team server's
   * device asks its person in the desktop's Inbox, `server/devices.ts`): called at
   * start for a run whose only open requirement is its approval, with the run's id. True: the
   * run is started without that requirement, and `delegate` must hand it to the executor that
   * asks (which reports a denial as a `declined` failure). Absent or false: asked here.
   */
  approveElsewhere?: (runId: string, tool: ToolSpec, tenant: string) => boolean
  /** Told of every transition (the UI's live run list, the requirements inbox). */
  onRunUpdated?: (run: Run) => void
  /** Told when a tool is verified, quarantined or let out (MCP's tools/list_changed). */
  onToolChanged?: (tool: ToolSpec) => void
}

/** What a delegated run came to (`RunEngineDeps.delegate`). */
export type DelegatedOutcome =
  | { outcome: ViaOutcome; effects: RunEffect[] }
  /** Nobody took the run before its deadline: the message says who was away. */
  | { expired: string }

/** The rendered executor's signature: same inputs and outcome as the HTTP executor. */
export type RenderedExecutor = (
  tool: ToolSpec,
  scope: Record<string, unknown>,
  context: RunContext,
  signal: AbortSignal,
) => Promise<ExecutionOutcome>

/** What an executor came to, and which executor answered when the tool may use either. */
export type ViaOutcome = ExecutionOutcome & { via?: 'http' | 'rendered' }

/**
 * What the parts of the engine (start, execute, settle, and the lifecycle in `runEngine`) share:
 * the dependencies, the runs in flight in this process, and the one way a run changes state.
 */
export interface EngineState {
  deps: RunEngineDeps
  validator: InputValidator
  quarantine: Quarantine
  send: SendRequest
  /** Each started run's completion by run id, until it is final or waits on a person. */
  inFlight: Map<string, Promise<RunRecord>>
  /** Aborts a working run's requests (a cancel). */
  controllers: Map<string, AbortController>
  /** The requests each working run has sent so far (a cancel keeps them as effects). */
  sentBy: Map<string, RunEffect[]>
  /** The last queued run per workspace of the serialized runs (account-API executions). */
  chains: Map<string, Promise<unknown>>
  /** Tells `onRunUpdated` of `run` (when there is one) and returns it. */
  notify(run: RunRecord | null): RunRecord | null
  /** One guarded transition (`RunRepository.transition`), told to `onRunUpdated`. */
  move(runId: string, patch: RunPatch): RunRecord | null
  /** The tools of a tenant's workspace. */
  toolsOf(tenant: string): ToolRepository
}

/** The engine's shared state over `deps`, with nothing in flight. */
export function createEngineState(deps: RunEngineDeps): EngineState {
  const notify = (run: RunRecord | null) => {
    if (run) deps.onRunUpdated?.(toPublicRun(run))
    return run
  }
  return {
    deps,
    validator: createInputValidator(),
    quarantine: createQuarantine(deps),
    send: deps.send ?? sendWithUndici,
    inFlight: new Map(),
    controllers: new Map(),
    sentBy: new Map(),
    chains: new Map(),
    notify,
    move: (runId, patch) => notify(deps.runs.transition(runId, patch, deps.clock())),
    toolsOf: (tenant) => deps.toolsFor?.(tenant) ?? deps.tools,
  }
}
