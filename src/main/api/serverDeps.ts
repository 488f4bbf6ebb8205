import type { FastifyInstance } from 'fastify'
import type { Authenticator } from '../surface/caller'
import type { BrowserWork } from '../browse/browserWork'
import type { EventBus } from '../events'
import type { Indexing } from '../browse/indexJobs'
import type { RecordingSessions } from '../browse/recordingSessions'
import type { OAuthRouteDeps } from './routes/oauth'
import type { RunEngine } from '../engine/runEngine'
import type { SignInRouteDeps } from './routes/signIn'
import type { Store } from '../store/store'
import type { Vault } from '../vault'
import type { DeviceHub } from '../server/devices'
import type { TeamAccounts } from '../serverAccounts'
import type { ToolRouters } from '../surface/toolRouters'

/** Registers another surface's routes on the service (the composition root gives them). */
type RegisterRoutes = (app: FastifyInstance) => void

/**
 * What the local service is built from (docs/architecture.md "Processes"): the core's parts the routes use. Its own
 * module so routes take it without importing the server that registers them (no import circle).
 */
export interface ServerDeps {
  store: Store
  engine: RunEngine
  auth: Authenticator
  /** The tool routers (search, tasks, index receipts), made once by the core. */
  routers: ToolRouters
  /** The UI's HTTP transport under `/app-api` (`app/appRoutes.ts`). */
  appRoutes: RegisterRoutes
  /** The MCP endpoint (`mcp/mcpRoutes.ts`): registered last, after the OAuth routes. */
  mcpRoutes: RegisterRoutes
  events: EventBus
  /** Milliseconds since the Unix epoch (billing, expiry). */
  clock: () => number
  /** Directory of the built web UI (`out/renderer`), or null when it is not built. */
  rendererDir: string | null
  /** Fastify's logger: off by default; `{level, stream}` sends its lines to a stream (tests). */
  logger?: boolean | { level?: string; stream: { write(line: string): void } }
  /** The vault of secrets (the credential routes; intents are checked for secret values). */
  vault: Vault
  /** `POST /v1/index` and the index jobs. */
  indexing: Indexing
  /** `POST /v1/browser/stop` and `DELETE /v1/browser`. */
  browserWork: BrowserWork
  /** OAuth clients, consent, tokens, owner sessions. */
  oauth: Omit<OAuthRouteDeps, 'clock' | 'oauthRepo'>
  /** One-time sign-in links and their flows (`/signin/<token>`). */
  signIn: SignInRouteDeps
  /** The Record view's recordings, for their in-page view. */
  recordings: Pick<RecordingSessions, 'current' | 'recording'>
  /**
   * Host names (lower-case, without port) a request's `Host` may carry besides loopback names: a
   * team server's public name behind its proxy. Default: loopback only.
   */
  allowedHosts?: ReadonlySet<string>
  /** A team server's accounts (`sitecall server`): their routes are registered only then. */
  teamAccounts?: TeamAccounts
  /** A team server's devices: their routes are registered only then. */
  devices?: DeviceHub
}
