import type { BrowseSessions } from './browseSessions'
import type { Indexing } from './indexJobs'
import type { RecordingSessions } from './recordingSessions'

/** Answer of `POST /v1/browser/stop` (fields "not shown" in docs/interface.md: ours). */
interface BrowserStopResult {
  stopped: true
  /** Browse sessions ended; their traces are kept uncompiled. */
  browseSessions: number
  /** Indexing observations cut short (jobs and `POST /v1/index`); each compiles what it saw. */
  indexing: number
  /** The person's recording (the Record view) was stopped, saved and compiled. */
  recording: boolean
  /** Saved logins are untouched (spec: "its profile stays saved"). */
  profileKept: true
}

/** Answer of `DELETE /v1/browser`. */
interface BrowserClearResult {
  cleared: true
  /** Browse sessions closed; what they recorded is dropped, as with `close`. */
  browseSessions: number
  profileKept: true
}

/** The workspace's browser work as the browser routes control it. */
export interface BrowserWork {
  stop(tenant: string): Promise<BrowserStopResult>
  clear(tenant: string): Promise<BrowserClearResult>
}

export interface BrowserWorkDeps {
  browse: Pick<BrowseSessions, 'endWorkspace'>
  indexing: Pick<Indexing, 'stop'>
  recordings: Pick<RecordingSessions, 'current' | 'stop'>
  /** The workspace whose person records in the Record view (the app's own). */
  recordingTenant: string
}

/**
 * The local browser work of a workspace (interface.md "B" `POST /v1/browser/stop`: "stops the remote
 * browser; its profile stays saved"; `DELETE /v1/browser`: "clears existing browser sessions").
 * This service's browser is the local Chromium, started per piece of work, so stopping it means
 * ending that work:
 * - stop ends the workspace's browse sessions keeping their traces (as when idle), cuts short its
 *   indexing observations (they compile what they saw), and, for the app's own workspace, stops
 *   the person's running recording (saved and compiled as when the person presses Stop);
 * - clear closes the workspace's browse sessions dropping what they recorded (as `close`).
 * Neither touches saved logins (the "profile"), nor the rendered executor's shared browser: that
 * one serves runs of every workspace, holds no session of its own beyond a run, and is already
 * started lazily and closed with the app.
 */
export function createBrowserWork(deps: BrowserWorkDeps): BrowserWork {
  return {
    async stop(tenant) {
      const indexing = deps.indexing.stop(tenant)
      const browseSessions = await deps.browse.endWorkspace(tenant, { keep: true })
      const current = tenant === deps.recordingTenant ? deps.recordings.current() : null
      if (current) await deps.recordings.stop(current.sessionId).catch(() => undefined)
      return {
        stopped: true,
        browseSessions,
        indexing,
        recording: current !== null,
        profileKept: true,
      }
    },
    async clear(tenant) {
      const browseSessions = await deps.browse.endWorkspace(tenant, { keep: false })
      return { cleared: true, browseSessions, profileKept: true }
    },
  }
}
