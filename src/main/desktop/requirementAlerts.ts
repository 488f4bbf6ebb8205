import type { InboxItem } from '../../shared/appApi'
import type { EventBus } from '../events'

/** A system notification for a run that now waits on the person. */
export interface RequirementAlert {
  runId: string
  title: string
  body: string
}

export interface RequirementAlertDeps {
  events: EventBus
  /** The inbox as it is now (the `requirements.list` handler's items). */
  pending: () => Promise<InboxItem[]>
  /** Shows a system notification (Electron's `Notification` in the app). */
  notify: (alert: RequirementAlert) => void
  /** Sets the dock or taskbar count (Electron's `app.setBadgeCount`); 0 clears it. */
  setBadgeCount: (count: number) => void
  onError?: (error: unknown) => void
}

const KIND_TITLE = {
  approval: 'approve a change',
  choice: 'choose an option',
  value: 'enter a value',
} as const

/** The notification for a run's new requirements: what is asked, by which tool, on which site. */
function alertFor(item: InboxItem, fresh: InboxItem['requirements']): RequirementAlert {
  const first = fresh[0]!
  const more = fresh.length > 1 ? ` (and ${fresh.length - 1} more)` : ''
  return {
    runId: item.runId,
    title: `Sitecall: ${KIND_TITLE[first.kind]}${more}`,
    body: `${item.toolName} on ${item.siteHost}: ${first.message}`,
  }
}

/**
 * Keeps the desktop told of the requirements inbox: on every `runs.updated` it reads the inbox
 * again, sets the badge to the number of pending requirements, and notifies once for each
 * requirement it has not seen before. What
 * waits at start only sets the badge (no burst of notifications on launch). Reads are serialised
 * and coalesced: a burst of run events makes at most one more read. Returns the unsubscribe.
 */
export function watchRequirements(deps: RequirementAlertDeps): () => void {
  let seen: Set<string> | null = null
  let running: Promise<void> | null = null
  let again = false
  let stopped = false

  const sync = async () => {
    const items = await deps.pending()
    if (stopped) return
    const count = items.reduce((n, item) => n + item.requirements.length, 0)
    deps.setBadgeCount(count)
    const known = seen
    seen = new Set(items.flatMap((item) => item.requirements.map((r) => r.id)))
    if (!known) return
    for (const item of items) {
      const fresh = item.requirements.filter((r) => !known.has(r.id))
      if (fresh.length) deps.notify(alertFor(item, fresh))
    }
  }

  const schedule = () => {
    if (running) {
      again = true
      return
    }
    running = sync()
      .catch((error: unknown) => deps.onError?.(error))
      .finally(() => {
        running = null
        if (again && !stopped) {
          again = false
          schedule()
        }
      })
  }

  const off = deps.events.on('runs.updated', schedule)
  schedule()
  return () => {
    stopped = true
    off()
  }
}
