import type { SqliteStore } from '../store/store'
import type { Keychain } from '../vault/keychain'
import type { Vault } from '../vault/vault'
import { createSyncServer } from './syncHttp'
import { linkServer, type LinkOptions } from './syncLink'
import { createSyncLocal, type SyncConflict, type SyncLink } from './syncLocal'
import { resolveConflict, runSync, type SyncProgress, type SyncReport } from './syncRun'
import { createBearer, forgetToken } from './syncTokens'

export interface DesktopSyncDeps {
  store: SqliteStore
  vault: Vault
  /** The OS keychain (`createKeychain`), or null when it is off (`SITECALL_KEYCHAIN=off`). */
  keychain: Keychain | null
  /** The desktop workspace to sync (the app's person: `local`). */
  tenant: string
  clock: () => number
  fetch?: typeof fetch
}

/** Tool sync of one desktop workspace with a team server: what the CLI (and later the UI) call. */
export interface DesktopSync {
  /** The link, or null when this workspace is not linked (the app then works as before). */
  link(): SyncLink | null
  /** Links to a server (see `linkServer`); replaces an earlier link. */
  connect(
    serverUrl: string,
    options?: Pick<LinkOptions, 'token' | 'workspace' | 'openUrl' | 'waitMs'>,
  ): Promise<SyncLink>
  /** Forgets the link and its token; the tools stay. False when there was none. */
  disconnect(): Promise<boolean>
  /**
   * Pushes the outbox, then pulls (see `runSync`; `onProgress` is told how far it is). Rejects
   * when not linked.
   */
  sync(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport>
  /** Settles a conflict by tool id or name (see `resolveConflict`), then syncs. */
  take(
    tool: string,
    side: 'mine' | 'theirs',
    onProgress?: (progress: SyncProgress) => void,
  ): Promise<SyncReport>
  conflicts(): SyncConflict[]
}

/** Wires the desktop's sync parts over its store, vault and keychain. */
export function createDesktopSync(deps: DesktopSyncDeps): DesktopSync {
  const local = createSyncLocal(deps.store.db)
  const tools = deps.store.toolsFor(deps.tenant)
  const place = { keychain: deps.keychain, vault: deps.vault }
  const linked = (): SyncLink => {
    const link = local.link(deps.tenant)
    if (!link) throw new Error('This desktop is not linked: run `sitecall link SERVER_URL` first.')
    return link
  }
  const sync = async (onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> => {
    const link = linked()
    const server = createSyncServer({
      serverUrl: link.serverUrl,
      workspace: link.workspace,
      bearer: createBearer(place, local, link, deps.fetch),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    })
    return runSync({
      tenant: deps.tenant,
      tools,
      local,
      server,
      clock: deps.clock,
      // A stored secret's value anywhere in the tool (an open vault checks; a locked one cannot).
      refuseTool: (tool) => deps.vault.refuseSecretValues(JSON.stringify(tool), deps.tenant),
      ...(onProgress ? { onProgress } : {}),
    })
  }
  return {
    link: () => local.link(deps.tenant),
    connect: (serverUrl, options = {}) =>
      linkServer({
        ...place,
        ...options,
        serverUrl,
        tenant: deps.tenant,
        local,
        clock: deps.clock,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      }),
    async disconnect() {
      const link = local.link(deps.tenant)
      if (!link) return false
      await forgetToken(place, link)
      return local.unlink(deps.tenant)
    },
    sync,
    async take(tool, side, onProgress) {
      linked()
      const open = local.conflicts(deps.tenant)
      const hit =
        open.find((c) => c.toolId === tool) ??
        open.find((c) => c.mine?.name === tool || c.theirs?.name === tool)
      if (!hit) throw new Error(`No sync conflict for "${tool}".`)
      resolveConflict({ tenant: deps.tenant, tools, local }, hit.toolId, side)
      return sync(onProgress)
    },
    conflicts: () => local.conflicts(deps.tenant),
  }
}
