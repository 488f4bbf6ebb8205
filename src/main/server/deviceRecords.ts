import type pg from 'pg'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunEffect } from '../store/runRepository'
import type { PgStore } from '../store/postgres/pgStore'

/** Longest long poll a device may ask (`GET /v1/devices/{id}/next?wait=S`), seconds. */
export const MAX_DEVICE_WAIT_S = 25
/** A run's deadline when its call named none (interface.md "Limits": site tool call default 60 s). */
export const DEFAULT_DEADLINE_MS = 60_000
/** How long after its deadline a claimed run may still be reported before it counts as lost. */
export const CLAIM_GRACE_MS = 5 * 60_000
/**
 * How long a run offered to a long poll waits for the device to take it (`POST
 * /v1/devices/{id}/runs/{runId}/take`) before it is offered again: an answer written to a poll
 * whose device hung up at that moment is lost without either side knowing.
 */
export const HANDOVER_MS = 15_000
/** Waiters look at the database this often even without a notification (one may be lost). */
export const RECHECK_MS = 5_000

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

/** Called with a notification's payload on the channel it listens to. */
export type Listener = (payload: string) => void

/** A `devices` row as PostgreSQL returns it (bigint columns as strings). */
export interface DeviceRow {
  id: string
  workspace: string
  name: string
  sites: string[]
  registered_at: string
  last_seen_at: string
  asks_approvals: boolean
}

/** The record of a `devices` row. */
export const toDevice = (row: DeviceRow): DeviceRecord => ({
  id: row.id,
  name: row.name,
  sites: row.sites,
  registeredAt: Number(row.registered_at),
  lastSeenAt: Number(row.last_seen_at),
  asksApprovals: row.asks_approvals,
})

/**
 * What one node's device hub works with: its parts (store, listener URL, clock, error sink) and
 * its state (the LISTEN connection, the waiters and the routing cache). Every helper of the hub
 * takes it, so each can be read and tested alone.
 */
export interface DeviceHubContext {
  store: PgStore
  /** The server's PostgreSQL URL (the listener's own connection). */
  url: string
  clock: () => number
  onError?: (error: unknown) => void
  /** channel → the waiters listening on it. */
  listeners: Map<string, Set<Listener>>
  /** workspace → its devices (the routing cache). */
  cache: Map<string, DeviceRecord[]>
  /** The long polls and run waiters in flight: calling one ends its wait. */
  polls: Set<() => void>
  /** Runs whose approval the device asks: run id → the device and when (ms) it was chosen. */
  asking: Map<string, { device: DeviceRecord; at: number }>
  client: pg.Client | null
  closed: boolean
  /** A draining node: long polls answer at once. */
  stopped: boolean
}
