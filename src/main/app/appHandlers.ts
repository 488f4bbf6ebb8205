import { randomUUID } from 'node:crypto'
import type { AppApiInput, AppApiMethod, AppApiResult } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { summarizeTool } from '../../shared/toolSpec'
import { timeoutError } from '../engine/callTool'
import { toPublicRun } from '../engine/runEngine'
import { listInbox } from './appInbox'
import { importHarRecording } from './appHarImport'
import { toolNeeds } from '../surface/toolNeeds'
import { traceDetail, traceExchange, traceHar } from './appTraces'
import { DEFAULT_USER } from '../demo/orders'
import { prepareCandidate } from '../surface/prepareCandidate'
import { editTool } from '../surface/toolEdits'
import { replaceTool } from '../surface/toolReplace'
import { mcpStdioCommand } from '../surface/stdioCommand'

import {
  detailOf,
  toolOr404,
  traceOr404,
  type AppContext,
  type AppHandlerDeps,
  type HandlersOf,
} from './appContext'
import { accessHandlers, vaultHandlers } from './appAccessHandlers'

export type { AppHandlerDeps } from './appContext'

export type AppHandlers = {
  [M in AppApiMethod]: (input: AppApiInput<M>) => Promise<AppApiResult<M>>
}

/** Where server.ts mounts the demo shop. */
export const DEMO_ORDERS_PATH = '/demo/orders'

/**
 * The implementation of every method of the UI contract (`src/shared/appApi.ts`). The Electron
 * IPC bridge and the web transport both call these, so each is tested once by calling it.
 * Errors are ServiceErrors; the transports wrap them as `{ok:false,error}`.
 */
export function createAppHandlers(deps: AppHandlerDeps): AppHandlers {
  const { store } = deps
  const ctx: AppContext = {
    deps,
    store,
    router: deps.routers.searching(store.tools),
    uuid: deps.uuid ?? randomUUID,
  }
  return {
    ...settingsHandlers(ctx),
    ...recorderHandlers(ctx),
    ...toolHandlers(ctx),
    ...traceHandlers(ctx),
    ...runHandlers(ctx),
    ...accessHandlers(ctx),
    ...vaultHandlers(ctx),
  }
}

/** The app, its settings and its link to a team server (`app.*`, `settings.*`, `sync.*`). */
function settingsHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'app.info'
  | 'settings.get'
  | 'settings.update'
  | 'sync.status'
  | 'sync.link'
  | 'sync.cancelLink'
  | 'sync.run'
  | 'sync.take'
  | 'sync.unlink'
> {
  const { deps } = ctx
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
  }
}

/** The recording browser and HAR import (`recorder.*`). */
function recorderHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'recorder.start'
  | 'recorder.current'
  | 'recorder.stop'
  | 'recorder.answerAuth'
  | 'recorder.importHar'
> {
  const { deps, store } = ctx
  return {
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
          uuid: ctx.uuid,
          seenLogins: deps.logins.seen,
          tenant: deps.tenant,
        },
        input,
      ),
  }
}

/** Tools and candidates: list, search, review, edit, run, delete (`tools.*`, `compile.prepare`, `usage.get`). */
function toolHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'tools.list'
  | 'tools.search'
  | 'usage.get'
  | 'tools.needs'
  | 'compile.prepare'
  | 'tools.get'
  | 'tools.update'
  | 'tools.replace'
  | 'tools.run'
  | 'tools.delete'
> {
  const { deps, store } = ctx
  return {
    'tools.list': async () => store.tools.list().map(summarizeTool),
    'tools.search': async ({ intent }) => {
      const routed = ctx.router.route(intent, store.tools.list())
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
      const tool = toolOr404(store, id)
      await deps.vault.open()
      return toolNeeds(tool, {
        vaultLocked: deps.vault.status().mode === 'locked',
        hasLogin: (host) => deps.logins.saved.get(deps.tenant, host) != null,
        hasPassword: (host) => deps.logins.saved.get(deps.tenant, host)?.hasPassword === true,
        secretNames: new Set(deps.vault.list(deps.tenant).map((s) => s.name)),
      })
    },
    'compile.prepare': async (input) =>
      prepareCandidate({ store, clock: deps.clock, uuid: ctx.uuid }, input),
    'tools.get': async ({ id }) => detailOf(store, toolOr404(store, id)),
    'tools.update': async ({ id, edit }) =>
      detailOf(
        store,
        editTool({ store, vault: deps.vault, clock: deps.clock }, deps.tenant, id, edit),
      ),
    'tools.replace': async ({ id, replaces }) =>
      detailOf(store, replaceTool(store, id, replaces, deps.clock())),
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
  }
}

/** Recordings and the logins they showed (`traces.*`, `logins.offer`, `logins.*FromTrace`). */
function traceHandlers(
  ctx: AppContext,
): HandlersOf<
  | 'logins.offer'
  | 'logins.saveFromTrace'
  | 'logins.skipFromTrace'
  | 'traces.list'
  | 'traces.get'
  | 'traces.exchange'
  | 'traces.exportHar'
  | 'traces.delete'
> {
  const { deps, store } = ctx
  return {
    'logins.offer': async ({ traceId, host }) => {
      traceOr404(store, traceId)
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
  }
}

/** Runs and the inbox of runs waiting on the person (`runs.*`, `requirements.*`). */
function runHandlers(
  ctx: AppContext,
): HandlersOf<'runs.list' | 'runs.get' | 'requirements.list' | 'requirements.answer'> {
  const { deps, store } = ctx
  return {
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
    'requirements.list': async () => ({
      now: deps.clock(),
      items: listInbox({ store, engine: deps.engine }, deps.tenant),
    }),
    'requirements.answer': async ({ runId, stateRevision, answers }) =>
      toPublicRun(await deps.engine.respond(runId, deps.tenant, { stateRevision, answers }).done),
  }
}
