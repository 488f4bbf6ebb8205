import type { SyncProblem, SyncProgressView, SyncStatus } from '../../shared/appApi'
import { isServiceError } from '../../shared/errors'
import type { Store } from '../store/store'
import type { Keychain } from '../vault/keychain'
import type { Vault } from '../vault/vault'
import { createDesktopSync, type DesktopSync } from './desktopSync'
import { SyncHttpError } from './syncHttp'
import { normaliseServerUrl } from './syncLink'
import { createSyncLocal, type SyncLocal } from './syncLocal'
import type { SyncReport } from './syncRun'

/** The shortest gap between two progress events of one sync, ms (a 1,000-tool push sends ~10 a second). */
const PROGRESS_EVERY_MS = 100

export interface AppSyncDeps {
  /** The core's store: a desktop's SQLite file syncs; any other store answers `available: false`. */
  store: Store
  vault: Vault
  /** The OS keychain, or null when it is off. */
  keychain: Keychain | null
  /** The desktop workspace the app works in (`local`). */
  tenant: string
  clock: () => number
  /** Told each time the status moves (the `sync.changed` event). */
  emit: (status: SyncStatus) => void
  fetch?: typeof fetch
}

/** The app's methods of tool sync (`sync.*` of the UI contract). */
export interface AppSync {
  status(): SyncStatus
  /** See the contract's `sync.link`: a refusal is the answer's `error`, never a rejection. */
  link(input: { serverUrl: string; token?: string; workspace?: string }): Promise<SyncStatus>
  cancelLink(): Promise<SyncStatus>
  run(): Promise<SyncStatus>
  take(input: { toolId: string; side: 'mine' | 'theirs' }): Promise<SyncStatus>
  unlink(): Promise<SyncStatus>
}

interface Linking {
  serverUrl: string
  authorizeUrl: string | null
  startedAt: number
  cancelled: boolean
  /** Settles when the attempt ended (linked or not) and its outcome is recorded. */
  done: Promise<void>
}

/**
 * What the app's sync works with: its parts (the desktop's sync and its local tables, null on a
 * store that does not sync) and the state the Settings view is shown (the link in progress, the
 * sync running, the last sync's counts, the last refusal).
 */
interface AppSyncContext {
  deps: AppSyncDeps
  local: SyncLocal | null
  sync: DesktopSync | null
  linking: Linking | null
  running: SyncProgressView | null
  runningWork: Promise<SyncStatus> | null
  lastSync: SyncStatus['lastSync']
  error: SyncProblem | null
  /** When the last `sync.changed` event went out, ms of `deps.clock`. */
  lastEmit: number
}

/** The sync's status as the Settings view shows it (`sync.status`). */
function syncStatus(ctx: AppSyncContext): SyncStatus {
  const link = ctx.sync?.link() ?? null
  return {
    available: ctx.sync !== null,
    link: link && {
      serverUrl: link.serverUrl,
      workspace: link.workspace,
      auth: link.auth,
      tokenStore: link.tokenStore,
      linkedAt: link.linkedAt,
      pulledRevision: link.pulledRevision,
    },
    linking: ctx.linking && {
      serverUrl: ctx.linking.serverUrl,
      authorizeUrl: ctx.linking.authorizeUrl,
      startedAt: ctx.linking.startedAt,
    },
    running: ctx.running,
    lastSync: ctx.lastSync,
    outbox: ctx.local && link ? ctx.local.outbox(ctx.deps.tenant).length : 0,
    conflicts: link ? (ctx.sync?.conflicts() ?? []) : [],
    error: ctx.error,
  }
}

/** Tells the window the status moved (`sync.changed`). */
function changed(ctx: AppSyncContext): void {
  ctx.lastEmit = ctx.deps.clock()
  ctx.deps.emit(syncStatus(ctx))
}

/** The desktop's sync; throws on a core that keeps none. */
function need(ctx: AppSyncContext): DesktopSync {
  if (!ctx.sync) throw new Error('This core keeps no desktop sync.')
  return ctx.sync
}

/** Runs one sync (or a take and its sync) with progress events; never rejects. */
function syncing(
  ctx: AppSyncContext,
  work: (onProgress: (p: SyncProgressView) => void) => Promise<SyncReport>,
): Promise<SyncStatus> {
  if (ctx.runningWork) return ctx.runningWork
  const serverUrl = ctx.sync?.link()?.serverUrl ?? ''
  ctx.running = { phase: 'push', done: 0, total: 0, pulled: 0 }
  changed(ctx)
  ctx.runningWork = work((progress) => {
    ctx.running = progress
    if (ctx.deps.clock() - ctx.lastEmit >= PROGRESS_EVERY_MS) changed(ctx)
  })
    .then((report) => {
      ctx.lastSync = {
        at: ctx.deps.clock(),
        pushed: report.pushed.length,
        deleted: report.deleted.length,
        pulled: report.pulled.length,
        removed: report.removed.length,
        revision: report.revision,
        refused: report.refused,
      }
      ctx.error = report.stopped ? describeSyncError(report.stopped, serverUrl, 'sync') : null
    })
    .catch((e: unknown) => {
      ctx.error = describeSyncError(e, serverUrl, 'sync')
    })
    .then(() => {
      ctx.running = null
      ctx.runningWork = null
      changed(ctx)
      return syncStatus(ctx)
    })
  return ctx.runningWork
}

/** Ends a link waiting on the browser (its loopback listener answers as a refusal would). */
async function cancelWaiting(ctx: AppSyncContext): Promise<void> {
  const waiting = ctx.linking
  if (!waiting) return
  waiting.cancelled = true
  // The loopback listener of `linkServer` ends its wait as an authorization server's refusal
  // does (RFC 6749 §4.1.2.1): the same redirect, with `error` and the flow's own state.
  const query = waiting.authorizeUrl ? new URL(waiting.authorizeUrl).searchParams : null
  const redirect = query?.get('redirect_uri')
  if (redirect) {
    const back = new URL(redirect)
    back.searchParams.set('error', 'access_denied')
    back.searchParams.set('state', query!.get('state') ?? '')
    await fetch(back, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined)
    await waiting.done
  }
}

/** `sync.link`: links with a token at once, or starts a browser sign-in and answers its URL. */
async function startLink(
  ctx: AppSyncContext,
  input: { serverUrl: string; token?: string; workspace?: string },
): Promise<SyncStatus> {
  const desktop = need(ctx)
  if (ctx.runningWork) await ctx.runningWork
  await cancelWaiting(ctx)
  let serverUrl: string
  try {
    serverUrl = normaliseServerUrl(input.serverUrl.trim())
  } catch (e) {
    ctx.error = describeSyncError(e, input.serverUrl, 'link')
    changed(ctx)
    return syncStatus(ctx)
  }
  const options = input.workspace ? { workspace: input.workspace } : {}
  if (input.token) {
    try {
      await desktop.connect(serverUrl, { ...options, token: input.token })
      ctx.error = null
      ctx.lastSync = null
    } catch (e) {
      ctx.error = describeSyncError(e, serverUrl, 'link')
    }
    changed(ctx)
    return syncStatus(ctx)
  }
  const mine: Linking = {
    serverUrl,
    authorizeUrl: null,
    startedAt: ctx.deps.clock(),
    cancelled: false,
    done: Promise.resolve(),
  }
  ctx.linking = mine
  ctx.error = null
  let shown!: () => void
  const urlShown = new Promise<void>((resolve) => (shown = resolve))
  mine.done = desktop
    .connect(serverUrl, {
      ...options,
      openUrl: (url) => {
        mine.authorizeUrl = url
        shown()
      },
    })
    .then(
      () => {
        ctx.error = null
        ctx.lastSync = null
      },
      (e: unknown) => {
        ctx.error = mine.cancelled
          ? {
              code: 'link_cancelled',
              message: 'The sign-in was cancelled: nothing was linked.',
            }
          : describeSyncError(e, serverUrl, 'link')
      },
    )
    .then(() => {
      if (ctx.linking === mine) ctx.linking = null
      changed(ctx)
    })
  await Promise.race([urlShown, mine.done])
  return syncStatus(ctx)
}

/**
 * The Settings view's side of sync over the CLI's parts (`createDesktopSync`: `linkServer`,
 * `runSync`, `resolveConflict`), adding only what a window needs: a link that waits on the
 * browser without holding the call (its URL comes back at once, its end as an event), a cancel,
 * progress events (at most one per {@link PROGRESS_EVERY_MS} and one at the end), the last
 * sync's counts for this app session, and refusals as stable codes with a sentence
 * ({@link describeSyncError}). One sync at a time: a second `run` answers the running one's status.
 */
export function createAppSync(deps: AppSyncDeps): AppSync {
  const sqlite = deps.store.kind === 'sqlite' && 'db' in deps.store
  const local: SyncLocal | null = sqlite
    ? createSyncLocal((deps.store as unknown as { db: Parameters<typeof createSyncLocal>[0] }).db)
    : null
  const sync: DesktopSync | null = sqlite
    ? createDesktopSync({
        store: deps.store as Parameters<typeof createDesktopSync>[0]['store'],
        vault: deps.vault,
        keychain: deps.keychain,
        tenant: deps.tenant,
        clock: deps.clock,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      })
    : null
  const ctx: AppSyncContext = {
    deps,
    local,
    sync,
    linking: null,
    running: null,
    runningWork: null,
    lastSync: null,
    error: null,
    lastEmit: 0,
  }
  return {
    status: () => syncStatus(ctx),
    link: (input) => startLink(ctx, input),
    async cancelLink() {
      const waiting = ctx.linking
      await cancelWaiting(ctx)
      if (waiting) {
        ctx.linking = null
        ctx.error = {
          code: 'link_cancelled',
          message: 'The sign-in was cancelled: nothing was linked.',
        }
        changed(ctx)
      }
      return syncStatus(ctx)
    },
    async run() {
      const desktop = need(ctx)
      if (!desktop.link()) {
        ctx.error = { code: 'not_linked', message: 'This desktop is not linked to a server.' }
        return syncStatus(ctx)
      }
      return syncing(ctx, (onProgress) => desktop.sync(onProgress))
    },
    async take({ toolId, side }) {
      const desktop = need(ctx)
      if (ctx.runningWork) await ctx.runningWork
      return syncing(ctx, (onProgress) => desktop.take(toolId, side, onProgress))
    },
    async unlink() {
      const desktop = need(ctx)
      if (ctx.runningWork) await ctx.runningWork
      await desktop.disconnect()
      ctx.error = null
      ctx.lastSync = null
      changed(ctx)
      return syncStatus(ctx)
    },
  }
}

/**
 * Names a refusal of a link or a sync with a stable code and a sentence the Settings view shows
 * (the codes of `SyncProblem`): a URL that is none or not https (`invalid_server_url`), a
 * server out of reach (`server_unreachable`: the fetch failed or timed out), an address that
 * answers but not as a Sitecall team server (`wrong_server`: 404 or not JSON), a refused token
 * or workspace (`link_refused`: 401/403), a browser approval denied (`link_cancelled`) or not
 * given in time (`link_timeout`), a locked vault that has to seal the token (`vault_locked`).
 * `error` is what `linkServer`/`runSync` threw, or a sync's `stopped` text.
 */
function describeSyncError(
  error: unknown,
  serverUrl: string,
  during: 'link' | 'sync',
): SyncProblem {
  const message = error instanceof Error ? error.message : String(error)
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code
  const name = (error as { name?: string } | null)?.name
  const what = during === 'link' ? 'Not linked' : 'The sync stopped (the outbox keeps the rest)'
  if (error instanceof SyncHttpError) {
    if (error.status === 401 || error.status === 403)
      return { code: 'link_refused', message: `${what}: ${serverUrl} refused: ${error.message}` }
    if (error.status === 404 || error.code === 'bad_answer')
      return {
        code: 'wrong_server',
        message: `${what}: ${serverUrl} answers, but not as a Sitecall team server (${error.status}). Check the address.`,
      }
    return {
      code: during === 'link' ? 'link_refused' : 'sync_stopped',
      message: `${what}: ${error.message}`,
    }
  }
  if (isServiceError(error) && error.code === 'unavailable')
    return {
      code: 'vault_locked',
      message: `${what}: the link's token is sealed by the vault where no keychain answers, and the vault is locked. Unlock it (Secrets) and try again.`,
    }
  if (/is not a URL|reached over https/.test(message))
    return { code: 'invalid_server_url', message: `${what}: ${message}` }
  if (
    /fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(message) ||
    name === 'TimeoutError' ||
    cause
  )
    return {
      code: 'server_unreachable',
      message: `${what}: ${serverUrl} is out of reach${cause ? ` (${cause})` : ''}. Check the address and that the server runs.`,
    }
  if (/refused to register this desktop \((404|405)\)/.test(message))
    return {
      code: 'wrong_server',
      message: `${what}: ${serverUrl} answers, but not as a Sitecall team server. Check the address.`,
    }
  if (/did not grant the link: access_denied/.test(message))
    return {
      code: 'link_cancelled',
      message: `${what}: the sign-in was cancelled or not approved in the browser.`,
    }
  if (/No approval within/.test(message))
    return { code: 'link_timeout', message: `${what}: ${message}` }
  if (/refused the (code|link's refresh token)|did not grant/.test(message))
    return { code: 'link_refused', message: `${what}: ${message}` }
  return { code: during === 'link' ? 'link_failed' : 'sync_failed', message: `${what}: ${message}` }
}
