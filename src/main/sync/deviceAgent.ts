import { hostname } from 'node:os'
import { isServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunEngine } from '../engine/runEngine'
import type { RunRecord } from '../store/runRepository'
import type { SqliteStore } from '../store/store'
import type { Keychain } from '../vault/keychain'
import type { Vault } from '../vault/vault'
import type { DeviceReport, DeviceWork } from '../server/devices'
import { createSyncLocal } from './syncLocal'
import { createBearer } from './syncTokens'

/** The long poll's wait (seconds): the server's most (docs/team-server.md "Devices"). */
const WAIT_S = 25
/** Waits after a failed request before the next, ms: doubled each time up to the last. */
const BACKOFF_MS = [500, 1_000, 2_000, 5_000, 15_000, 30_000]
/** How often a run waiting on this desktop's person (its Inbox) is looked at, ms. */
const APPROVAL_POLL_MS = 200
/** A report's own time limit, ms: it is sent even while the loop stops. */
const REPORT_TIMEOUT_MS = 10_000

interface DeviceAgentOptions {
  /** The linked server's base URL. */
  serverUrl: string
  /** `X-Service-Workspace`, or null for the account's first. */
  workspace: string | null
  /** The link's bearer token; called with `renew: true` once after a 401. */
  bearer(renew: boolean): Promise<string>
  /**
   * The desktop's engine: each claimed run runs here, with this desktop's vault and logins; a
   * write the caller did not confirm waits in its Inbox for the person's approval (`get` reads
   * it, `cancel` ends it unanswered at the run's deadline).
   */
  engine: Pick<RunEngine, 'start' | 'get' | 'cancel'>
  /** Host names (`host[:port]`) this desktop holds logins for, read before each registration. */
  sites(): string[]
  /**
   * Runs of this desktop still waiting in its Inbox that a device run started (idempotency key
   * `device:<server run id>`), read once the loop registered: a desktop that quit or crashed with
   * an approval waiting cancels it then, so an approval after a restart never sends a write the
   * server already gave up on. Absent: none.
   */
  leftovers?(): Array<{ runId: string; idempotencyKey: string | null }>
  /** The desktop workspace its runs belong to (`local`). */
  tenant: string
  /** The device's name in the workspace (default the host name). */
  name?: string
  fetch?: typeof fetch
  /** Told of each run handed to this device once it reported it (or failed to). */
  onRun?(runId: string, status: DeviceReport['status'] | 'unreported'): void
  /** Told of request failures (the loop waits and goes on; a removed device ends it). */
  onError?(error: unknown): void
}

export interface DeviceAgent {
  /** Resolves with the device's id once it registered. */
  readonly registered: Promise<string>
  /** Ends the long poll, waits for runs in progress to report, and resolves when stopped. */
  stop(): Promise<void>
}

/** A refusal of the server's device routes. */
class DeviceHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'DeviceHttpError'
  }
}

/**
 * A linked desktop's device loop (issue 27 C, docs/team-server.md "Devices"): registers the
 * desktop as a device of its workspace with the host names of its saved logins (never a value),
 * then keeps one outbound long poll (`GET /v1/devices/{id}/next?wait=25`; no inbound port). Each
 * run handed over runs on this desktop's engine with its own vault and logins, under the
 * server's run id as idempotency key (a run handed over twice is sent once), and its outcome is
 * reported (`POST /v1/devices/{id}/runs/{runId}`). A write the caller did not confirm
 * (`asksApproval`) waits in this desktop's Inbox for its person: approved, it runs and its outcome
 * is reported; declined, it is reported `failed` `declined`; unanswered at the run's deadline
 * (or when the loop stops) it is cancelled here and reported `expired`, so an approval can never
 * send a write the server already ended. A failed run's sign-in link is this desktop's own.
 * Sites are registered again when the saved logins change. Failed requests are retried with a
 * growing wait (0.5 to 30 s); a device unlinked on the server (404) ends the loop. `stop` ends it.
 */
function startDeviceAgent(options: DeviceAgentOptions): DeviceAgent {
  const doFetch = options.fetch ?? fetch
  const base = options.serverUrl.replace(/\/+$/, '')
  const name = options.name ?? hostname()
  const stopping = new AbortController()
  const working = new Set<Promise<void>>()

  const request = async (
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = 30_000,
    /** False for a report: it goes out even while the loop stops (its own time limit only). */
    abortable = true,
  ): Promise<{ status: number; json: unknown }> => {
    for (const renew of [false, true]) {
      const res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await options.bearer(renew)}`,
          accept: 'application/json',
          ...(options.workspace ? { 'x-service-workspace': options.workspace } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: abortable
          ? AbortSignal.any([stopping.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      })
      const text = await res.text()
      if (res.status === 401 && !renew) continue
      const json: unknown = text ? JSON.parse(text) : null
      if (res.status >= 400) {
        const error = (json as { error?: { code?: string; message?: string } } | null)?.error
        throw new DeviceHttpError(
          res.status,
          `${method} ${path}: ${res.status} ${error?.code ?? ''} ${error?.message ?? ''}`.trim(),
        )
      }
      return { status: res.status, json }
    }
    throw new Error('unreachable')
  }

  let sitesSent = ''
  const register = async (): Promise<string> => {
    const sites = [...new Set(options.sites())].sort()
    // It asks its person to approve a write the caller did not confirm (its Inbox).
    const { json } = await request('POST', '/v1/devices', { name, sites, asksApprovals: true })
    sitesSent = sites.join(',')
    return (json as { id: string }).id
  }

  /** Waits `ms`, or less when the loop stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        stopping.signal.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      stopping.signal.addEventListener('abort', done)
    })

  /**
   * Follows local run `runId` while it waits on this desktop's person: the run once it ended
   * (approved and run, or declined), or why it was cancelled unanswered (the deadline `dueAt`, ms
   * of this clock, passed; the loop stopped). Reads and cancel are one synchronous turn, so an
   * approval given in this process either came first (the run goes on) or finds it cancelled.
   */
  const awaitApproval = async (runId: string, dueAt: number): Promise<RunRecord | string> => {
    for (;;) {
      const run = options.engine.get(runId)
      if (!run) return 'the run is gone from the desktop'
      if (run.status === 'input_required') {
        const why = stopping.signal.aborted
          ? 'the desktop stopped before anyone approved the run'
          : Date.now() >= dueAt
            ? "nobody approved the run in the desktop's Inbox by its deadline"
            : null
        if (why)
          try {
            options.engine.cancel(runId, options.tenant)
            return why
          } catch {
            continue // answered at this very moment: read it again
          }
      } else if (run.status !== 'accepted' && run.status !== 'working') return run
      await pause(
        stopping.signal.aborted
          ? APPROVAL_POLL_MS
          : Math.min(APPROVAL_POLL_MS, Math.max(1, dueAt - Date.now())),
      )
    }
  }

  const execute = async (deviceId: string, work: DeviceWork): Promise<void> => {
    const { run } = work
    const dueInMs = typeof run.dueInMs === 'number' ? run.dueInMs : run.dueBy - Date.now()
    const dueAt = Date.now() + dueInMs
    let report: DeviceReport
    try {
      const started = options.engine.start(work.tool as ToolSpec, run.inputs, {
        tenant: options.tenant,
        idempotencyKey: `device:${run.runId}`,
        // A write the caller did not confirm is asked here, in this desktop's Inbox.
        allowMutation: !run.asksApproval,
        mayAsk: !!run.asksApproval,
        deadlineMs: Math.max(5_000, dueInMs),
      })
      const local = await started.done
      if (local.status === 'input_required') {
        const ended = await awaitApproval(local.runId, dueAt)
        report =
          typeof ended === 'string'
            ? { status: 'expired', error: { code: 'worker_lost', message: ended } }
            : toReport(ended)
      } else report = toReport(local)
    } catch (error) {
      report = {
        status: 'failed',
        error: {
          code: 'worker_lost',
          message: `The desktop could not run it: ${isServiceError(error) ? error.message : String(error)}`,
        },
      }
    }
    try {
      await request(
        'POST',
        `/v1/devices/${encodeURIComponent(deviceId)}/runs/${encodeURIComponent(run.runId)}`,
        report,
        REPORT_TIMEOUT_MS,
        false,
      )
      options.onRun?.(run.runId, report.status)
    } catch (error) {
      options.onError?.(error)
      options.onRun?.(run.runId, 'unreported')
    }
  }

  let resolveRegistered: (id: string) => void = () => undefined
  const registered = new Promise<string>((resolve) => (resolveRegistered = resolve))
  const loop = async (): Promise<void> => {
    let failures = 0
    let deviceId: string | null = null
    while (!stopping.signal.aborted) {
      try {
        const sites = [...new Set(options.sites())].sort().join(',')
        if (deviceId === null || sites !== sitesSent) {
          deviceId = await register()
          if (!swept) {
            swept = true
            await sweep(deviceId)
          }
          resolveRegistered(deviceId)
        }
        const { status, json } = await request(
          'GET',
          `/v1/devices/${encodeURIComponent(deviceId)}/next?wait=${WAIT_S}`,
          undefined,
          (WAIT_S + 10) * 1000,
        )
        failures = 0
        if (status === 200 && json) {
          const job = execute(deviceId, json as DeviceWork)
          working.add(job)
          void job.finally(() => working.delete(job))
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
  let swept = false
  /** Cancels the approvals a former run of this desktop left waiting, and reports them. */
  const sweep = async (deviceId: string): Promise<void> => {
    for (const left of options.leftovers?.() ?? []) {
      const serverRun = left.idempotencyKey?.replace(/^device:/, '')
      if (!serverRun || serverRun === left.idempotencyKey) continue
      try {
        options.engine.cancel(left.runId, options.tenant)
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
      await request(
        'POST',
        `/v1/devices/${encodeURIComponent(deviceId)}/runs/${encodeURIComponent(serverRun)}`,
        report,
        REPORT_TIMEOUT_MS,
        false,
      ).catch(() => undefined)
    }
  }
  const looping = loop()
  return {
    registered,
    async stop() {
      stopping.abort()
      await looping
      await Promise.allSettled([...working])
    },
  }
}

/** What a run of this desktop's engine came to, as the server's device route takes it. */
function toReport(run: RunRecord): DeviceReport {
  const effects = run.effects.map(({ method, url, status, at }) => ({ method, url, status, at }))
  const via = run.via ? { via: run.via } : {}
  if (run.status === 'succeeded') {
    const result = run.result !== undefined ? run.result : JSON.parse(run.resultText ?? 'null')
    return { status: 'succeeded', result, ...via, effects }
  }
  if (run.status === 'outcome_unknown')
    return {
      status: 'outcome_unknown',
      error: run.error ?? { code: 'upstream_error', message: 'The answer was lost.' },
      ...via,
      effects,
    }
  if (run.status === 'failed' && run.error)
    return {
      status: 'failed',
      error: { code: run.error.code, message: run.error.message },
      // This desktop's one-time sign-in link: the login belongs here (spec run `signIn.url`).
      ...(run.signIn?.url ? { signIn: { url: run.signIn.url } } : {}),
      ...via,
      effects,
    }
  // Its approval waited past the requirement window (15 minutes): nothing was sent.
  if (run.status === 'expired')
    return {
      status: 'expired',
      error: { code: 'worker_lost', message: "the approval expired in the desktop's Inbox" },
      effects,
    }
  return {
    status: 'failed',
    error: { code: 'worker_lost', message: `The desktop's run ended ${run.status}.` },
    ...via,
    effects,
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
 * The device loop of a desktop core (issue 27 C): runs while the app serves and its workspace
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
