import type { RunEngine } from '../engine/runEngine'
import type { DeviceReport } from '../server/devices'

/** The long poll's wait (seconds): the server's most (docs/team-server.md "Devices"). */
export const WAIT_S = 25
/** Waits after a failed request before the next, ms: doubled each time up to the last. */
export const BACKOFF_MS = [500, 1_000, 2_000, 5_000, 15_000, 30_000]
/** How often a run waiting on this desktop's person (its Inbox) is looked at, ms. */
export const APPROVAL_POLL_MS = 200
/** A report's own time limit, ms: it is sent even while the loop stops. */
export const REPORT_TIMEOUT_MS = 10_000

/** The parts a device loop is started with (see `startDeviceAgent`). */
export interface DeviceAgentOptions {
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
export class DeviceHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'DeviceHttpError'
  }
}

/**
 * What one device loop works with: its options and the state its steps share (the stop signal,
 * the runs in progress, the sites last registered). Every step of the loop takes it.
 */
export interface DeviceAgentContext {
  options: DeviceAgentOptions
  doFetch: typeof fetch
  /** The server's base URL without a trailing slash. */
  base: string
  /** The device's name in the workspace. */
  name: string
  /** Aborted by `stop`: ends the long poll and the waits. */
  stopping: AbortController
  /** The runs handed over and not reported yet. */
  working: Set<Promise<void>>
  /** The run ids of those runs (one offered twice runs once). */
  taken: Set<string>
  /** The sites of the last registration, sorted and joined by commas. */
  sitesSent: string
  /** The approvals a former run of this desktop left waiting were cancelled. */
  swept: boolean
}

/**
 * One request to the server's device routes with the link's bearer (renewed once after a 401):
 * its status and JSON answer; a `DeviceHttpError` for a refusal. `abortable` false for a report:
 * it goes out even while the loop stops (its own time limit `timeoutMs` only).
 */
export async function deviceRequest(
  ctx: DeviceAgentContext,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
  abortable = true,
): Promise<{ status: number; json: unknown }> {
  for (const renew of [false, true]) {
    const res = await ctx.doFetch(`${ctx.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await ctx.options.bearer(renew)}`,
        accept: 'application/json',
        ...(ctx.options.workspace ? { 'x-service-workspace': ctx.options.workspace } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: abortable
        ? AbortSignal.any([ctx.stopping.signal, AbortSignal.timeout(timeoutMs)])
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

/** Waits `ms`, or less when the loop stops. */
export function pause(ctx: DeviceAgentContext, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      ctx.stopping.signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    ctx.stopping.signal.addEventListener('abort', done)
  })
}
