import { hostname } from 'node:os'
import type { RunEngine } from '../engine/runEngine'
import type { DeviceReport, DeviceWork } from '../server/devices'
import type { SqliteStore } from '../store/store'
import type { Keychain } from '../vault/keychain'
import type { Vault } from '../vault/vault'
import {
  BACKOFF_MS,
  deviceRequest,
  DeviceHttpError,
  REPORT_TIMEOUT_MS,
  WAIT_S,
  type DeviceAgent,
  type DeviceAgentContext,
  type DeviceAgentOptions,
} from './deviceRequests'
import { executeWork } from './deviceWork'
import { createSyncLocal } from './syncLocal'
import { createBearer } from './syncTokens'

export type { DeviceAgent } from './deviceRequests'

/** Registers the device with this desktop's sites (it asks its person approvals); its id. */
async function register(ctx: DeviceAgentContext): Promise<string> {
  const sites = [...new Set(ctx.options.sites())].sort()
  // It asks its person to approve a write the caller did not confirm (its Inbox).
  const { json } = await deviceRequest(ctx, 'POST', '/v1/devices', {
    name: ctx.name,
    sites,
    asksApprovals: true,
  })
  ctx.sitesSent = sites.join(',')
  return (json as { id: string }).id
}

/** Cancels the approvals a former run of this desktop left waiting, and reports them. */
async function sweep(ctx: DeviceAgentContext, deviceId: string): Promise<void> {
  for (const left of ctx.options.leftovers?.() ?? []) {
    const serverRun = left.idempotencyKey?.replace(/^device:/, '')
    if (!serverRun || serverRun === left.idempotencyKey) continue
    try {
      ctx.options.engine.cancel(left.runId, ctx.options.tenant)
    } catch {
      continue // answered or ended meanwhile
    }
    const report: DeviceReport = {
      status: 'expired',
      error: {
        code: 'worker_lost',
        message: 'the desktop stopped before anyone approved the run',
      },
    }
    // The server may have ended it already (409) or never handed it to this device (404).
    await deviceRequest(
      ctx,
      'POST',
      `/v1/devices/${encodeURIComponent(deviceId)}/runs/${encodeURIComponent(serverRun)}`,
      report,
      REPORT_TIMEOUT_MS,
      false,
    ).catch(() => undefined)
  }
}

/**
 * The long poll: registers (again when the sites changed), takes each run handed over, and
 * waits a growing time after a failure; ends when the loop stops or the device was unlinked.
 */
async function loop(ctx: DeviceAgentContext, registered: (id: string) => void): Promise<void> {
  const { options, stopping } = ctx
  let failures = 0
  let deviceId: string | null = null
  while (!stopping.signal.aborted) {
    try {
      const sites = [...new Set(options.sites())].sort().join(',')
      if (deviceId === null || sites !== ctx.sitesSent) {
        deviceId = await register(ctx)
        if (!ctx.swept) {
          ctx.swept = true
          await sweep(ctx, deviceId)
        }
        registered(deviceId)
      }
      const { status, json } = await deviceRequest(
        ctx,
        'GET',
        `/v1/devices/${encodeURIComponent(deviceId)}/next?wait=${WAIT_S}`,
        undefined,
        (WAIT_S + 10) * 1000,
      )
      failures = 0
      if (status === 200 && json) {
        const job = executeWork(ctx, deviceId, json as DeviceWork)
        ctx.working.add(job)
        void job.finally(() => ctx.working.delete(job))
      }
    } catch (error) {
      if (stopping.signal.aborted) break
      options.onError?.(error)
      // The device was unlinked on the server (`DELETE /v1/devices/{id}`): it takes no more
      // runs until the app links or starts again.
      if (error instanceof DeviceHttpError && error.status === 404) break
      const wait = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]!
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait)
        stopping.signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
}

/**
 * A linked desktop's device loop (docs/team-server.md "Devices"): registers the
 * desktop as a device of its workspace with the host names of its saved logins (never a value),
 * then keeps one outbound long poll (`GET /v1/devices/{id}/next?wait=25`; no inbound port). Each
 * run handed over runs on this desktop's engine with its own vault and logins, under the
 * server's run id as idempotency key (a run handed over twice is sent once) once the device took
 * it (`POST .../runs/{runId}/take`: a run offered to a poll that hung up is offered again), and
 * its outcome is reported (`POST /v1/devices/{id}/runs/{runId}`). A write the caller did not confirm
 * (`asksApproval`) waits in this desktop's Inbox for its person: approved, it runs and its outcome
 * is reported; declined, it is reported `failed` `declined`; unanswered at the run's deadline
 * (or when the loop stops) it is cancelled here and reported `expired`, so an approval can never
 * send a write the server already ended. A failed run's sign-in link is this desktop's own.
 * Sites are registered again when the saved logins change. Failed requests are retried with a
 * growing wait (0.5 to 30 s); a device unlinked on the server (404) ends the loop. `stop` ends it.
 */
function startDeviceAgent(options: DeviceAgentOptions): DeviceAgent {
  const ctx: DeviceAgentContext = {
    options,
    doFetch: options.fetch ?? fetch,
    base: options.serverUrl.replace(/\/+$/, ''),
    name: options.name ?? hostname(),
    stopping: new AbortController(),
    working: new Set(),
    taken: new Set(),
    sitesSent: '',
    swept: false,
  }
  let resolveRegistered: (id: string) => void = () => undefined
  const registered = new Promise<string>((resolve) => (resolveRegistered = resolve))
  const looping = loop(ctx, (id) => resolveRegistered(id))
  return {
    registered,
    async stop() {
      ctx.stopping.abort()
      await looping
      await Promise.allSettled([...ctx.working])
    },
  }
}

export interface LinkedDeviceDeps {
  store: SqliteStore
  vault: Vault
  keychain: Keychain | null
  engine: Pick<RunEngine, 'start' | 'get' | 'cancel'>
  /** The saved logins' host names of `tenant` (the core's `logins.list`). */
  sites(): string[]
  tenant: string
  name?: string
  fetch?: typeof fetch
  onRun?: DeviceAgentOptions['onRun']
  onError?: DeviceAgentOptions['onError']
}

/**
 * Starts the device loop of a linked desktop workspace over its link (server, workspace and
 * token, as its sync uses them); null when `tenant` is not linked (the single-machine app then
 * does nothing more).
 */
export function startLinkedDevice(deps: LinkedDeviceDeps): DeviceAgent | null {
  const local = createSyncLocal(deps.store.db)
  const link = local.link(deps.tenant)
  if (!link) return null
  return startDeviceAgent({
    serverUrl: link.serverUrl,
    workspace: link.workspace,
    bearer: createBearer({ keychain: deps.keychain, vault: deps.vault }, local, link, deps.fetch),
    engine: deps.engine,
    sites: deps.sites,
    leftovers: () =>
      deps.store.runs
        .withStatus(['input_required'])
        .filter((r) => r.tenant === deps.tenant && r.idempotencyKey?.startsWith('device:')),
    tenant: deps.tenant,
    ...(deps.name ? { name: deps.name } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.onRun ? { onRun: deps.onRun } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
  })
}

/** Keeps a desktop's device loop in step with its link (`createDeviceSwitch`). */
export interface DeviceSwitch {
  /**
   * Starts the loop when the workspace is linked and none runs (or the link changed), stops it
   * when it was unlinked. Does nothing until `enable` (the app serves) nor after `stop`.
   */
  update(): void
  enable(): void
  /** Stops the loop for good (the core closes). */
  stop(): Promise<void>
}

/**
 * The device loop of a desktop core: runs while the app serves and its workspace
 * is linked to a team server, so runs of sites only this desktop holds a login for come here.
 * The core calls `update` when it starts serving and whenever its sync status changes (a link
 * made or removed in Settings or by the CLI's process is seen at the next change or start).
 */
export function createDeviceSwitch(deps: LinkedDeviceDeps): DeviceSwitch {
  const local = createSyncLocal(deps.store.db)
  let enabled = false
  let stopped = false
  let running: { key: string; agent: DeviceAgent } | null = null
  const halt = () => {
    const was = running
    running = null
    return was ? was.agent.stop() : Promise.resolve()
  }
  const update = () => {
    if (!enabled || stopped) return
    const link = local.link(deps.tenant)
    const key = link ? `${link.serverUrl} ${link.linkedAt}` : null
    if (running && running.key === key) return
    void halt()
    if (!link || !key) return
    const agent = startLinkedDevice(deps)
    if (agent) running = { key, agent }
  }
  return {
    update,
    enable() {
      enabled = true
      update()
    },
    async stop() {
      stopped = true
      await halt()
    },
  }
}
