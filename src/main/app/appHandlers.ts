import { randomUUID } from 'node:crypto'
import type {
  AppApiInput,
  AppApiMethod,
  AppApiResult,
  AppInfo,
  ToolDetail,
} from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { summarizeTool, type ToolSpec } from '../../shared/toolSpec'
import type { RecordingSessions } from '../browse/recordingSessions'
import { timeoutError } from '../engine/callTool'
import { toPublicRun, type RunEngine } from '../engine/runEngine'
import type { Store } from '../store/store'
import { normalizeSecretHosts, type Vault } from '../vault'
import type { SiteLogins } from '../logins/siteLogins'
import type { AppSettingsService } from './appSettings'
import type { SignInFlows } from '../logins/signInFlows'
import type { ToolRouters } from '../surface/toolRouters'
import type { SeenLogins } from '../logins/seenLogins'
import { listInbox } from './appInbox'
import { importHarRecording } from './appHarImport'
import { parseLocalSiteHost } from '../surface/localSites'
import { toolNeeds } from '../surface/toolNeeds'
import { traceDetail, traceExchange, traceHar } from './appTraces'
import { DEFAULT_USER } from '../demo/orders'
import { prepareCandidate } from '../surface/prepareCandidate'
import { saveScope } from '../surface/toolScopes'
import { checkContract } from '../surface/bodyCheck'
import { SCOPE_BODY_SCHEMA, type ScopeBody } from '../../shared/accountApiSchemas'
import { editTool } from '../surface/toolEdits'
import { replaceableTool, replaceTool } from '../surface/toolReplace'
import { mcpStdioCommand } from '../surface/stdioCommand'
import type { AppSync } from '../sync/appSync'

export type AppHandlers = {
  [M in AppApiMethod]: (input: AppApiInput<M>) => Promise<AppApiResult<M>>
}

/** Where server.ts mounts the demo shop. */
export const DEMO_ORDERS_PATH = '/demo/orders'

export interface AppHandlerDeps {
  store: Store
  /** The service's tool routers (`tools.search` uses the owner workspace's search router). */
  routers: ToolRouters
  engine: RunEngine
  recordings: RecordingSessions
  clock: () => number
  ulid: () => string
  /** UUIDs of new candidates; default `crypto.randomUUID`. */
  uuid?: () => string
  info: () => AppInfo
  /** The local workspace every UI action runs in. */
  tenant: string
  /** Secrets and the master key. */
  vault: Vault
  /** Saved site logins, sign-in flows, and the logins recordings and HARs showed. */
  logins: { saved: SiteLogins; flows: SignInFlows; seen: SeenLogins }
  /** The editable settings. */
  settings: AppSettingsService
  /** Settings → "Link to a server": tool sync with a team server (`sync.*`). */
  sync: AppSync
}

/**
 * The implementation of every method of the UI contract (`src/shared/appApi.ts`). The Electron
 * IPC bridge and the web transport both call these, so each is tested once by calling it.
 * Errors are ServiceErrors; the transports wrap them as `{ok:false,error}`.
 */
export function createAppHandlers(deps: AppHandlerDeps): AppHandlers {
  const { store } = deps
  const toolOr404 = (id: string) => {
    const tool = store.tools.get(id)
    if (!tool) throw new ServiceError('not_found', `No tool ${id}.`)
    return tool
  }
  const traceOr404 = (traceId: string) => {
    if (!store.traces.list().some((t) => t.id === traceId))
      throw new ServiceError('not_found', `No trace ${traceId}.`)
  }
  // The owner workspace's search router, shared with REST search: it keeps what it learned of
  // each tool between searches.
  const router = deps.routers.searching(store.tools)
  const detailOf = (tool: ToolSpec): ToolDetail => {
    const target = store.traces.getExchange(tool.evidence.traceId, tool.evidence.targetExchangeId)
    const replaces = replaceableTool(tool, store.tools)
    return { tool, target, replaces: replaces ? summarizeTool(replaces) : null }
  }
  return {
    'app.info': async () => {
      const info = deps.info()
      // The demo shop is mounted on every local service (server.ts); its one user is public.
      const { username, password } = DEFAULT_USER
      return {
        ...info,
        demo: { url: `${info.apiUrl}${DEMO_ORDERS_PATH}/`, username, password },
        mcpStdio: mcpStdioCommand(info.dataDir),
      }
    },
    'settings.get': async () => deps.settings.get(),
    'settings.update': async (input) => deps.settings.update(input),
    'sync.status': async () => deps.sync.status(),
    'sync.link': async (input) => deps.sync.link(input),
    'sync.cancelLink': async () => deps.sync.cancelLink(),
    'sync.run': async () => deps.sync.run(),
    'sync.take': async (input) => deps.sync.take(input),
    'sync.unlink': async () => deps.sync.unlink(),
    'recorder.start': async (input) => {
      // The site's saved login (a cookie session) is where the recording starts: signed in, as
      // its tools run. A locked vault or no login starts signed out, as before.
      const host = URL.canParse(input.url) ? new URL(input.url).host : null
      const saved =
        host && !input.cdpEndpoint && deps.logins.saved.get(deps.tenant, host)
          ? await deps.logins.saved.load(deps.tenant, host).catch(() => null)
          : null
      return deps.recordings.start(saved?.state ? { ...input, storageState: saved.state } : input)
    },
    'recorder.current': async () => deps.recordings.current(),
    'recorder.stop': async ({ sessionId }) => deps.recordings.stop(sessionId),
    'recorder.answerAuth': async ({ sessionId, ...login }) =>
      deps.recordings.answerAuth(sessionId, login),
    'recorder.importHar': async (input) =>
      importHarRecording(
        {
          store,
          clock: deps.clock,
          ulid: deps.ulid,
          uuid: deps.uuid ?? randomUUID,
          seenLogins: deps.logins.seen,
          tenant: deps.tenant,
        },
        input,
      ),
    'tools.list': async () => store.tools.list().map(summarizeTool),
    'tools.search': async ({ intent }) => {
      const routed = router.route(intent, store.tools.list())
      const found = routed.candidate ? [...routed.tools, routed.candidate] : routed.tools
      return {
        status: routed.status,
        reason: routed.reason ?? null,
        matches: found.map(({ id, name, siteHost, status, description, score }) => ({
          id,
          name,
          siteHost,
          status,
          description,
          score,
        })),
      }
    },
    'usage.get': async () => {
      const { balance, freeGrant, freeRemaining, paidRemaining, charged } = store.ledger.usage(
        deps.tenant,
        deps.clock(),
      )
      const ledger = store.ledger.entries(deps.tenant, 100)
      return { balance, freeGrant, freeRemaining, paidRemaining, charged, ledger }
    },
    'tools.needs': async ({ id }) => {
      const tool = toolOr404(id)
      await deps.vault.open()
      return toolNeeds(tool, {
        vaultLocked: deps.vault.status().mode === 'locked',
        hasLogin: (host) => deps.logins.saved.get(deps.tenant, host) != null,
        hasPassword: (host) => deps.logins.saved.get(deps.tenant, host)?.hasPassword === true,
        secretNames: new Set(deps.vault.list(deps.tenant).map((s) => s.name)),
      })
    },
    'logins.offer': async ({ traceId, host }) => {
      traceOr404(traceId)
      return deps.logins.seen.offer(deps.tenant, traceId, host)
    },
    // Sealed in the vault: 503 `unavailable` while it is locked, and nothing is kept then.
    'logins.saveFromTrace': async ({ traceId, host, password }) =>
      deps.logins.seen.save(deps.tenant, traceId, host, password !== undefined ? { password } : {}),
    'logins.skipFromTrace': async ({ traceId }) => {
      deps.logins.seen.skip(traceId)
      return { skipped: true }
    },
    'traces.list': async () => store.traces.list(),
    'traces.get': async ({ id }) => traceDetail(store, id),
    'traces.exchange': async ({ traceId, exchangeId }) => traceExchange(store, traceId, exchangeId),
    'traces.exportHar': async ({ id }) => traceHar(store, id),
    'traces.delete': async ({ id }) => {
      // A recording in progress writes its trace at Stop: deleting it now would be undone.
      if (deps.recordings.current()?.traceId === id)
        throw new ServiceError('conflict', 'This trace is being recorded: stop it first.')
      return { deleted: store.traces.delete(id) }
    },
    'compile.prepare': async (input) =>
      prepareCandidate({ store, clock: deps.clock, uuid: deps.uuid ?? randomUUID }, input),
    'tools.get': async ({ id }) => detailOf(toolOr404(id)),
    'tools.update': async ({ id, edit }) =>
      detailOf(editTool({ store, vault: deps.vault, clock: deps.clock }, deps.tenant, id, edit)),
    'tools.replace': async ({ id, replaces }) =>
      detailOf(replaceTool(store, id, replaces, deps.clock())),
    'tools.run': async ({ id, inputs }) => {
      // The person runs a tool from the app: a candidate runs (its success verifies it); the
      // app waits for the run to end or to ask for something (no deadline).
      const outcome = await deps.engine.call({
        tool: { id },
        inputs,
        tenant: deps.tenant,
        deadlineMs: null,
        candidates: true,
      })
      if (outcome.kind === 'timed_out') throw timeoutError(outcome)
      return toPublicRun(outcome.run)
    },
    'tools.delete': async ({ id }) => ({ deleted: store.tools.delete(id) }),
    'runs.list': async ({ toolId }) =>
      store.runs.list(toolId ? { toolId, limit: 20 } : { limit: 200 }).map(toPublicRun),
    'runs.get': async ({ runId }) => {
      const record = store.runs.get(runId)
      // Another workspace's run is as unknown as a wrong id.
      if (!record || record.tenant !== deps.tenant)
        throw new ServiceError('not_found', `No run ${runId}.`)
      const tool = store.tools.get(record.toolId)
      const last = tool?.steps.at(-1)
      return {
        run: toPublicRun(record),
        inputs: record.inputs,
        finishedAt: record.finishedAt,
        effects: record.effects,
        steps: (tool?.steps ?? []).map((s) => ({
          id: s.id,
          method: s.request.method,
          url: s.request.url,
          target: s === last,
        })),
        toolName: tool?.name ?? null,
        toolVersion: tool?.version ?? null,
      }
    },
    'keys.list': async () =>
      store.keys
        .list(deps.tenant)
        .map(({ id, label, prefix, createdAt, revokedAt, lastUsedAt }) => ({
          id,
          label,
          prefix,
          createdAt,
          revokedAt,
          lastUsedAt: lastUsedAt ?? null,
        })),
    'scopes.list': async () => store.scopes.list(deps.tenant),
    'scopes.delete': async ({ slug }) => ({ deleted: store.scopes.remove(deps.tenant, slug) }),
    'scopes.create': async (input) => {
      // The contract and rules of POST /api/v1/scopes: slug grammar, 200 entries, 20 scopes.
      const body = checkContract<ScopeBody>(SCOPE_BODY_SCHEMA, input)
      return saveScope(store.scopes, deps.tenant, body, deps.clock()).record
    },
    'keys.revoke': async ({ id }) => {
      // Only this workspace's keys: an id from another workspace is as unknown as a wrong one.
      if (!store.keys.list(deps.tenant).some((k) => k.id === id))
        throw new ServiceError('not_found', `No key ${id}.`)
      return { revoked: store.keys.revoke(id, deps.clock()) }
    },
    'localSites.list': async () => store.localSites.list(deps.tenant),
    'localSites.allow': async ({ host }) => {
      const name = parseLocalSiteHost(host)
      store.localSites.add(deps.tenant, name, deps.clock())
      return store.localSites.list(deps.tenant).find((s) => s.host === name)!
    },
    'localSites.remove': async ({ host }) => ({
      removed: store.localSites.remove(deps.tenant, parseLocalSiteHost(host)),
    }),
    'keys.create': async ({ label }) => {
      const { key, record } = store.keys.create(
        { id: `key_${deps.ulid()}`, tenant: deps.tenant, label },
        deps.clock(),
      )
      const { id, prefix, createdAt, revokedAt } = record
      return { key, summary: { id, label, prefix, createdAt, revokedAt, lastUsedAt: null } }
    },
    'requirements.list': async () => ({
      now: deps.clock(),
      items: listInbox({ store, engine: deps.engine }, deps.tenant),
    }),
    'requirements.answer': async ({ runId, stateRevision, answers }) =>
      toPublicRun(await deps.engine.respond(runId, deps.tenant, { stateRevision, answers }).done),
    'secrets.list': async () => deps.vault.list(deps.tenant),
    'secrets.set': async ({ name, value, hosts }) =>
      (await deps.vault.put(deps.tenant, name, value, normalizeSecretHosts(hosts))).secret,
    'secrets.delete': async ({ name }) => ({ deleted: deps.vault.remove(deps.tenant, name) }),
    'vault.status': async () => {
      // open() answers what the first opening found; status() is the vault as it is now.
      await deps.vault.open()
      return deps.vault.status()
    },
    'vault.unlock': async ({ passphrase }) => deps.vault.unlock(passphrase),
    'logins.list': async () => deps.logins.saved.list(deps.tenant),
    'logins.signIn': async (target) => deps.logins.flows.start(deps.tenant, target),
    'logins.signInState': async ({ signInId }) => deps.logins.flows.get(deps.tenant, signInId),
    'logins.finishSignIn': async ({ signInId, ...choice }) =>
      deps.logins.flows.finish(deps.tenant, signInId, choice),
    'logins.cancelSignIn': async ({ signInId }) => deps.logins.flows.cancel(deps.tenant, signInId),
    'logins.answerAuth': async ({ signInId, ...login }) =>
      deps.logins.flows.answerAuth(deps.tenant, signInId, login),
    'logins.forget': async ({ host }) => ({
      forgotten: deps.logins.saved.forget(deps.tenant, host.trim().toLowerCase()),
    }),
  }
}
