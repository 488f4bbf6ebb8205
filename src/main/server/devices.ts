import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { RUN_FAILURE_CODES, ServiceError, type RunFailureCode } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { DelegatedOutcome, ViaOutcome } from '../engine/engineState'
import type { RunEffect, RunRecord } from '../store/runRepository'
import type { PgStore } from '../store/postgres/pgStore'

/** Longest long poll a device may ask (`GET /v1/devices/{id}/next?wait=S`), seconds. */
export const MAX_DEVICE_WAIT_S = 25
/** A run's deadline when its call named none (interface.md "Limits": site tool call default 60 s). */
const DEFAULT_DEADLINE_MS = 60_000
/** How long after its deadline a claimed run may still be reported before it counts as lost. */
const CLAIM_GRACE_MS = 5 * 60_000
/** Waiters look at the database this often even without a notification (one may be lost). */
const RECHECK_MS = 5_000
const CHANNELS = ['sitecall_device_runs', 'sitecall_device_done', 'sitecall_devices'] as const

/** A registered device (a linked desktop) of a workspace. */
export interface DeviceRecord {
  id: string
  name: string
  /** Host names (`host[:port]`, as tools' `siteHost`) it holds logins for; never a value. */
  sites: string[]
  /** ms since the epoch */
  registeredAt: number
  /** ms since the epoch: its last registration or long poll. */
  lastSeenAt: number
  /** It asks its person to approve a write the caller did not confirm (`asksApproval` runs). */
  asksApprovals: boolean
}

/** One run handed to a device (`GET /v1/devices/{id}/next`). */
export interface DeviceWork {
  run: {
    runId: string
    toolId: string
    /** By semantic name, as the run holds them. */
    inputs: Record<string, unknown>
    mutating: boolean
    /**
     * The caller did not confirm the write: the device asks its person (its Inbox) before it
     * sends anything, and reports a denial as the `declined` failure it is.
     */
    asksApproval: boolean
    /** ms since the epoch: the run's deadline. */
    dueBy: number
    /** ms from the claim to the deadline (free of the two clocks' difference). */
    dueInMs: number
  }
  /** The workspace's tool spec (never a credential: sync refuses tools that carry one). */
  tool: ToolSpec
}

/** What a device reports of a run it claimed (`POST /v1/devices/{id}/runs/{runId}`). */
export interface DeviceReport {
  /** `expired`: nothing was sent and nobody approved it in time (the message says why). */
  status: 'succeeded' | 'failed' | 'outcome_unknown' | 'expired'
  /** The verified result (status `succeeded`). */
  result?: unknown
  /** Why it failed: `code` one of interface.md "Why a run failed" (status `failed`, `outcome_unknown`). */
  error?: { code: string; message: string } | null
  via?: 'http' | 'rendered' | null
  /** A failed run that met a sign-in wall: the device's own one-time link (spec `signIn.url`). */
  signIn?: { url: string } | null
  /** The requests it sent (method, url, status, at), as the device's run keeps them. */
  effects?: RunEffect[]
}

export interface DeviceHub {
  /** Connects the node's listener (LISTEN) and loads the routing cache; rejects if unreachable. */
  start(): Promise<void>
  /**
   * Registers a device of `workspace` or refreshes the one of that name (same id): its name, the
   * host names it holds logins for, and whether it asks approvals itself (a desktop that does
   * not say so is never handed a write to approve). 400 `invalid_input` for a bad name or site.
   */
  register(workspace: string, name: string, sites: string[], asksApprovals?: boolean): DeviceRecord
  /**
   * Claims the oldest unclaimed run of device `id` (FOR UPDATE SKIP LOCKED: two polls never get
   * one run), waiting up to `waitMs` for one to come (woken by NOTIFY, so at once); null after
   * the wait or when `signal` aborts. Marks the device seen. 404 `not_found` for a device
   * `workspace` does not have.
   */
  next(
    workspace: string,
    id: string,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<DeviceWork | null>
  /**
   * Records device `id`'s report of `runId`; the node that started the run settles it (any
   * node may take the report). 404 `not_found` (no such device, or the run is not this
   * device's), 409 `conflict` (not claimed yet, or reported already), 400 `invalid_input`.
   */
  report(workspace: string, id: string, runId: string, report: DeviceReport): { runId: string }
  /**
   * Unlinks device `id` of `workspace` (`DELETE /v1/devices/{id}`): its claims and reports are
   * refused from now on (404), its runs nobody claimed end `expired` ("unlinked from the
   * workspace before it took the run"), and those it claimed and did not report end as a lost
   * claim does (a read `failed` `worker_lost`, a write `outcome_unknown`). 404 `not_found` for a
   * device `workspace` does not have. Returns how many runs it ended.
   */
  remove(workspace: string, id: string): { id: string; deleted: true; endedRuns: number }
  /**
   * The engine's `approveElsewhere` (`RunEngineDeps.approveElsewhere`): true when the write
   * `runId` will be handed to a device (the rule of `delegate`) that asks approvals itself
   * (it said so when it registered), which then asks its person; the
   * run's `delegate` hands it to that device whatever changed meanwhile (a login saved on the
   * server must not skip the approval). Kept in memory: a write is never run again on another
   * node (the run queue ends it `outcome_unknown` or `worker_lost`).
   */
  approveElsewhere(runId: string, tool: ToolSpec, tenant: string): boolean
  /**
   * The engine's `delegate` (`RunEngineDeps.delegate`): a run whose tool's site has no login on
   * the server and is held by a device of the run's workspace (an org key's end user never:
   * the device's logins are its person's) is handed to that device (the one seen last when
   * several hold it); null runs it here. The function returned waits for the device's report,
   * or ends the run `expired` naming the device when nobody claimed it by its deadline.
   */
  delegate(
    run: RunRecord,
    tool: ToolSpec,
  ): ((signal: AbortSignal) => Promise<DelegatedOutcome>) | null
  /** Answers every long poll in flight (null) and refuses new ones' waits (a draining node). */
  stopPolls(): void
  /** Stops the listener; waiters still pending resolve on their next database look. */
  close(): Promise<void>
}

export interface DeviceHubOptions {
  /** The server's PostgreSQL URL (the listener's own connection). */
  url: string
  store: PgStore
  clock?: () => number
  onError?: (error: unknown) => void
}

type Listener = (payload: string) => void

interface DeviceRow {
  id: string
  workspace: string
  name: string
  sites: string[]
  registered_at: string
  last_seen_at: string
  asks_approvals: boolean
}

const toDevice = (row: DeviceRow): DeviceRecord => ({
  id: row.id,
  name: row.name,
  sites: row.sites,
  registeredAt: Number(row.registered_at),
  lastSeenAt: Number(row.last_seen_at),
  asksApprovals: row.asks_approvals,
})

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,99}$/u
const SITE = /^[a-z0-9.-]{1,253}(:[0-9]{1,5})?$/

/**
 * The device registry and device-bound runs of a team server node (issue 27 C; docs/team-server.md
 * "Devices"). State is in PostgreSQL (`devices`, `device_runs`, migration 006) so any node
 * answers a device; one LISTEN connection per node wakes long polls and run waiters at once
 * (triggers NOTIFY on each new run and report) and keeps a per-node cache of who holds which
 * site, so a run whose site no device holds costs no round trip. The store's statements are
 * synchronous (short); only the waits are asynchronous.
 */
export function createDeviceHub(options: DeviceHubOptions): DeviceHub {
  const { store } = options
  const clock = options.clock ?? Date.now
  const listeners = new Map<string, Set<Listener>>()
  /** workspace → its devices (the routing cache). */
  const cache = new Map<string, DeviceRecord[]>()
  const polls = new Set<() => void>()
  /** Runs whose approval the device asks: run id → the device and when (ms) it was chosen. */
  const asking = new Map<string, { device: DeviceRecord; at: number }>()
  let client: pg.Client | null = null
  let closed = false
  let stopped = false

  const on = (channel: string, fn: Listener) => {
    let set = listeners.get(channel)
    if (!set) listeners.set(channel, (set = new Set()))
    set.add(fn)
    return () => set.delete(fn)
  }
  const loadCache = (rows: DeviceRow[], only?: string) => {
    if (only !== undefined) cache.delete(only)
    else cache.clear()
    for (const row of rows) {
      const list = cache.get(row.workspace) ?? []
      list.push(toDevice(row))
      cache.set(row.workspace, list)
    }
  }
  /** Connects again a second after the listener was lost, until it is back (or closed). */
  const reconnect = () => {
    if (closed) return
    setTimeout(() => {
      if (closed) return
      connect().catch((error: unknown) => {
        options.onError?.(error)
        reconnect()
      })
    }, 1_000).unref()
  }
  /**
   * One listener connection: LISTEN on every channel, then the whole routing cache read. A
   * connection lost later connects again (`reconnect`); what was missed meanwhile is covered by
   * the waiters' re-reads and the cache read again on connecting.
   */
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: options.url, application_name: 'sitecall devices' })
    c.on('error', (error) => {
      // While it is being set up, the statement awaited below rejects instead.
      if (client !== c) return
      options.onError?.(error)
      client = null
      c.end().catch(() => undefined)
      reconnect()
    })
    c.on('notification', (message) => {
      if (message.channel === 'sitecall_devices' && message.payload) {
        const workspace = message.payload
        void c
          .query<DeviceRow>('SELECT * FROM devices WHERE workspace = $1', [workspace])
          .then(({ rows }) => loadCache(rows, workspace))
          .catch(() => undefined)
      }
      for (const fn of listeners.get(message.channel) ?? []) fn(message.payload ?? '')
    })
    try {
      await c.connect()
      for (const channel of CHANNELS) await c.query(`LISTEN ${channel}`)
      loadCache((await c.query<DeviceRow>('SELECT * FROM devices')).rows)
    } catch (error) {
      await c.end().catch(() => undefined)
      throw error
    }
    if (closed) {
      await c.end().catch(() => undefined)
      return
    }
    client = c
  }

  const findDevice = (workspace: string, id: string): DeviceRecord => {
    const row = store.pg.one<DeviceRow>('SELECT * FROM devices WHERE id = $1 AND workspace = $2', [
      id,
      workspace,
    ])
    if (!row) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
    return toDevice(row)
  }

  /** One claim: the oldest unclaimed run of the device whose deadline has not passed. */
  const claim = (deviceId: string): DeviceWork | null => {
    const now = clock()
    const row = store.pg.one<{ run_id: string; due_by: string; asks_approval: boolean }>(
      `UPDATE device_runs SET claimed_at = $2
        WHERE run_id = (SELECT run_id FROM device_runs
                         WHERE device_id = $1 AND claimed_at IS NULL AND due_by > $2
                           AND outcome IS NULL
                           AND EXISTS (SELECT 1 FROM runs r WHERE r.id = device_runs.run_id
                                         AND r.status IN ('accepted', 'working'))
                         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING run_id, due_by, asks_approval`,
      [deviceId, now],
    )
    if (!row) return null
    const run = store.runs.get(row.run_id)
    const tool = run ? store.toolsFor(run.tenant).get(run.toolId) : null
    if (!run || !tool) return null
    return {
      run: {
        runId: run.runId,
        toolId: run.toolId,
        inputs: run.inputs,
        mutating: run.mutating,
        asksApproval: row.asks_approval,
        dueBy: Number(row.due_by),
        dueInMs: Number(row.due_by) - now,
      },
      tool,
    }
  }

  /** Resolves on the first of: a notification on `channel` with `payload`, `ms`, `signal`. */
  const wake = (channel: string, payload: string, ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        off()
        polls.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, Math.max(0, ms))
      const off = on(channel, (p) => {
        if (p === payload) done()
      })
      polls.add(done)
      signal?.addEventListener('abort', done)
    })

  /** Waits for device `device`'s report of `run` (see `DeviceHub.delegate`). */
  const awaitDevice = async (
    run: RunRecord,
    device: DeviceRecord,
    signal: AbortSignal,
    asksApproval: boolean,
  ): Promise<DelegatedOutcome> => {
    const dueBy = Date.parse(run.createdAt) + (run.deadlineMs ?? DEFAULT_DEADLINE_MS)
    // Again after a takeover (a read run once more): the row and any report it has are kept.
    store.pg.query(
      `INSERT INTO device_runs (run_id, device_id, due_by, created_at, asks_approval)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run_id) DO NOTHING`,
      [run.runId, device.id, dueBy, clock(), asksApproval],
    )
    const offline = `desktop '${device.name}' was offline until the run's deadline`
    for (;;) {
      const row = store.pg.one<{ claimed_at: string | null; outcome: string | null }>(
        'SELECT claimed_at, outcome FROM device_runs WHERE run_id = $1',
        [run.runId],
      )
      if (row?.outcome) return fromReport(JSON.parse(row.outcome) as DeviceReport, device.name)
      const now = clock()
      if (!row || row.claimed_at === null) {
        if (now >= dueBy) {
          const gone = store.pg.query(
            'DELETE FROM device_runs WHERE run_id = $1 AND claimed_at IS NULL',
            [run.runId],
          )
          if (gone.rowCount || !row) return { expired: offline }
          continue // claimed at this very moment
        }
      } else if (now >= dueBy + CLAIM_GRACE_MS) {
        const lost = `desktop '${device.name}' took the run and did not report it`
        return {
          outcome: run.mutating
            ? { ok: false, code: 'outcome_unknown', message: lost }
            : { ok: false, code: 'worker_lost', message: lost },
          effects: [],
        }
      }
      if (signal.aborted) return { expired: `cancelled while waiting for desktop '${device.name}'` }
      const until = row?.claimed_at === null ? dueBy : dueBy + CLAIM_GRACE_MS
      await wake('sitecall_device_done', run.runId, Math.min(RECHECK_MS, until - now), signal)
    }
  }

  /** The device a run of `tool` in `tenant` goes to (see `DeviceHub.delegate`), or null. */
  const pick = (tenant: string, tool: ToolSpec): DeviceRecord | null => {
    if (tenant.includes('::')) return null
    const holders = (cache.get(tenant) ?? []).filter((d) => d.sites.includes(tool.siteHost))
    if (!holders.length) return null
    // A login saved on the server itself wins: the run needs no device.
    if (
      store.pg.one('SELECT 1 FROM logins WHERE tenant = $1 AND site_host = $2', [
        tenant,
        tool.siteHost,
      ])
    )
      return null
    return holders.reduce((a, b) => (b.lastSeenAt > a.lastSeenAt ? b : a))
  }

  return {
    start: connect,
    register(workspace, name, sites, asksApprovals = false) {
      if (typeof name !== 'string' || !NAME.test(name))
        throw new ServiceError(
          'invalid_input',
          '"name" is 1 to 100 letters, digits, spaces or . _ \' -, starting with a letter or digit.',
        )
      const hosts = [...new Set(sites.map((s) => s.toLowerCase()))]
      const bad = hosts.find((s) => !SITE.test(s))
      if (bad !== undefined || hosts.length > 500)
        throw new ServiceError(
          'invalid_input',
          `"sites" are up to 500 host names (host or host:port), not values: ${bad ?? 'too many'}.`,
        )
      const now = clock()
      const row = store.pg.one<DeviceRow>(
        `INSERT INTO devices (id, workspace, name, sites, registered_at, last_seen_at,
           asks_approvals)
         VALUES ($1, $2, $3, $4, $5, $5, $6)
         ON CONFLICT (workspace, name) DO UPDATE SET sites = EXCLUDED.sites, last_seen_at = $5,
           asks_approvals = EXCLUDED.asks_approvals
         RETURNING *`,
        [`dev_${randomUUID()}`, workspace, name, hosts, now, asksApprovals],
      )!
      // This node routes by it at once; the others when the NOTIFY arrives.
      const device = toDevice(row)
      cache.set(workspace, [
        ...(cache.get(workspace) ?? []).filter((d) => d.id !== device.id),
        device,
      ])
      return device
    },
    async next(workspace, id, waitMs, signal) {
      const seen = store.pg.query(
        'UPDATE devices SET last_seen_at = $3 WHERE id = $1 AND workspace = $2',
        [id, workspace, clock()],
      )
      if (!seen.rowCount) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
      const until = clock() + Math.min(waitMs, MAX_DEVICE_WAIT_S * 1000)
      for (;;) {
        const work = claim(id)
        if (work || stopped || signal?.aborted) return work
        const left = until - clock()
        if (left <= 0) return null
        await wake('sitecall_device_runs', id, Math.min(left, RECHECK_MS), signal)
      }
    },
    report(workspace, id, runId, report) {
      checkReport(report)
      // One statement when all is well; the refusals below only read why it changed nothing.
      const updated = store.pg.query(
        `UPDATE device_runs r SET outcome = $4, reported_at = $5 FROM devices d
          WHERE r.run_id = $1 AND r.device_id = $2 AND d.id = r.device_id AND d.workspace = $3
            AND r.claimed_at IS NOT NULL AND r.outcome IS NULL`,
        [runId, id, workspace, JSON.stringify(report), clock()],
      )
      if (updated.rowCount) return { runId }
      findDevice(workspace, id)
      const row = store.pg.one<{ claimed_at: string | null; outcome: string | null }>(
        'SELECT claimed_at, outcome FROM device_runs WHERE run_id = $1 AND device_id = $2',
        [runId, id],
      )
      if (!row) throw new ServiceError('not_found', `Run ${runId} is not this device's.`)
      if (row.claimed_at === null)
        throw new ServiceError('conflict', `Run ${runId} was not claimed by this device.`)
      throw new ServiceError('conflict', `Run ${runId} was reported already.`)
    },
    delegate(run, tool) {
      const asked = asking.get(run.runId)
      if (asked) {
        asking.delete(run.runId)
        return (signal) => awaitDevice(run, asked.device, signal, true)
      }
      const device = pick(run.tenant, tool)
      return device ? (signal) => awaitDevice(run, device, signal, false) : null
    },
    approveElsewhere(runId, tool, tenant) {
      const now = clock()
      // A run whose start failed after this (its insert, a raced idempotency key) never comes
      // to `delegate`: forget such entries after the longest deadline and then some.
      for (const [id, entry] of asking) if (now - entry.at > 2 * CLAIM_GRACE_MS) asking.delete(id)
      const device = pick(tenant, tool)
      // A device that does not ask approvals itself gets the write once approved here.
      if (!device?.asksApprovals) return false
      asking.set(runId, { device, at: now })
      return true
    },
    remove(workspace, id) {
      const lost = (
        code: string,
      ) => `json_build_object('status', '${code === 'worker_lost' ? 'failed' : 'outcome_unknown'}',
            'error', json_build_object('code', '${code}', 'message',
              'desktop ''' || gone.name || ''' was unlinked while it ran the run'))::text`
      const row = store.pg.one<{ name: string | null; ended: string }>(
        `WITH gone AS (DELETE FROM devices WHERE id = $1 AND workspace = $2 RETURNING id, name),
         ended AS (
           UPDATE device_runs dr SET reported_at = $3, outcome = CASE
               WHEN dr.claimed_at IS NULL THEN $4
               WHEN r.mutating <> 0 THEN ${lost('upstream_error')}
               ELSE ${lost('worker_lost')} END
             FROM gone, runs r
            WHERE dr.device_id = gone.id AND r.id = dr.run_id AND dr.outcome IS NULL
           RETURNING dr.run_id)
         SELECT (SELECT name FROM gone) AS name, (SELECT count(*) FROM ended) AS ended`,
        [
          id,
          workspace,
          clock(),
          JSON.stringify({
            status: 'expired',
            error: {
              code: 'worker_lost',
              message: 'unlinked from the workspace before it took the run',
            },
          } satisfies DeviceReport),
        ],
      )
      if (!row?.name) throw new ServiceError('not_found', `No device ${id} in this workspace.`)
      // This node routes without it at once; the others when the trigger's NOTIFY arrives.
      cache.set(
        workspace,
        (cache.get(workspace) ?? []).filter((d) => d.id !== id),
      )
      return { id, deleted: true, endedRuns: Number(row.ended) }
    },
    stopPolls() {
      stopped = true
      for (const done of [...polls]) done()
    },
    async close() {
      closed = true
      stopped = true
      for (const done of [...polls]) done()
      const c = client
      client = null
      await c?.end().catch(() => undefined)
    },
  }
}

const FAILURE_CODES = new Set<string>(RUN_FAILURE_CODES)

/** 400 `invalid_input` unless `report` is one `DeviceReport`. */
function checkReport(report: DeviceReport): void {
  const url = report.signIn?.url
  if (url !== undefined && !/^https?:\/\/\S{1,2000}$/.test(url))
    throw new ServiceError('invalid_input', '"signIn.url" is an http(s) URL.')
  if (report.status === 'succeeded' || report.status === 'expired') return
  const code = report.error?.code
  if (report.status === 'failed' && (!code || !FAILURE_CODES.has(code)))
    throw new ServiceError(
      'invalid_input',
      `A failed run's "error.code" is one of interface.md "Why a run failed", not ${String(code)}.`,
    )
}

/**
 * The engine's view of device `name`'s report: settled on the server as a run there would be
 * (a failed run keeps the device's sign-in link); `expired` ends the run `expired` naming it.
 */
function fromReport(report: DeviceReport, name: string): DelegatedOutcome {
  const via = report.via ? { via: report.via } : {}
  const message = report.error?.message ?? 'The device gave no reason.'
  if (report.status === 'expired') return { expired: `desktop '${name}': ${message}` }
  const signIn = report.signIn?.url ? { signIn: true, signInUrl: report.signIn.url } : {}
  const outcome: ViaOutcome =
    report.status === 'succeeded'
      ? { ok: true, result: report.result ?? null, ...via }
      : report.status === 'outcome_unknown'
        ? { ok: false, code: 'outcome_unknown', message, ...via }
        : { ok: false, code: report.error!.code as RunFailureCode, message, ...signIn, ...via }
  const effects = (report.effects ?? []).filter(
    (e) => e && typeof e.method === 'string' && typeof e.url === 'string',
  )
  return { outcome, effects }
}
