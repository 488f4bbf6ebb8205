import { describe, expect, it, vi } from 'vitest'
import type { InboxItem } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import { createEventBus } from '../../../src/main/events'
import {
  watchRequirements,
  type RequirementAlert,
} from '../../../src/main/desktop/requirementAlerts'

const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString()

function item(runId: string, kinds: Array<'approval' | 'choice' | 'value'>): InboxItem {
  return {
    runId,
    stateRevision: 1,
    toolId: 'tool-1',
    toolName: 'orders__post_orders',
    siteHost: 'shop.test',
    mutating: true,
    createdAt: new Date().toISOString(),
    requirements: kinds.map((kind, i) => ({
      id: `${runId}.1.${i + 1}`,
      kind,
      message: `${kind} asked`,
      expiresAt,
    })),
  }
}

const runEvent = (runId: string): { run: Run } => ({
  run: { runId, status: 'input_required' } as Run,
})

/** The desktop's ends (Electron's Notification and app.setBadgeCount) as recorders. */
function harness(initial: InboxItem[]) {
  const events = createEventBus()
  const state = { items: initial, reads: 0 }
  const alerts: RequirementAlert[] = []
  const badges: number[] = []
  const off = watchRequirements({
    events,
    pending: async () => {
      state.reads++
      return state.items
    },
    notify: (alert) => alerts.push(alert),
    setBadgeCount: (n) => badges.push(n),
  })
  return { events, state, alerts, badges, off }
}

describe('watchRequirements', () => {
  it('sets the badge to what waits at start without a burst of notifications', async () => {
    const h = harness([item('lrun_a', ['approval']), item('lrun_b', ['value', 'approval'])])
    await vi.waitFor(() => expect(h.badges).toEqual([3]))
    expect(h.alerts).toEqual([])
    h.off()
  })

  it('notifies once for a new requirement, naming the tool, site and what is asked', async () => {
    const h = harness([])
    await vi.waitFor(() => expect(h.badges).toEqual([0]))
    h.state.items = [item('lrun_a', ['approval'])]
    h.events.emit('runs.updated', runEvent('lrun_a'))
    await vi.waitFor(() => expect(h.badges).toEqual([0, 1]))
    expect(h.alerts).toEqual([
      {
        runId: 'lrun_a',
        title: 'Sitecall: approve a change',
        body: 'orders__post_orders on shop.test: approval asked',
      },
    ])
    // The same requirement seen again (another run's event) is not notified twice.
    h.events.emit('runs.updated', runEvent('lrun_x'))
    await vi.waitFor(() => expect(h.badges).toEqual([0, 1, 1]))
    expect(h.alerts).toHaveLength(1)
    h.off()
  })

  it('lowers the badge to 0 when the last requirement is answered', async () => {
    const h = harness([item('lrun_a', ['choice'])])
    await vi.waitFor(() => expect(h.badges).toEqual([1]))
    h.state.items = []
    h.events.emit('runs.updated', runEvent('lrun_a'))
    await vi.waitFor(() => expect(h.badges).toEqual([1, 0]))
    expect(h.alerts).toEqual([])
    h.off()
  })

  it('coalesces a burst of run events into one more read of the inbox', async () => {
    const h = harness([])
    for (let i = 0; i < 20; i++) h.events.emit('runs.updated', runEvent(`lrun_${i}`))
    await vi.waitFor(() => expect(h.state.reads).toBe(2))
    expect(h.badges).toEqual([0, 0])
    h.off()
  })

  it('stops listening once unsubscribed', async () => {
    const h = harness([])
    await vi.waitFor(() => expect(h.badges).toEqual([0]))
    h.off()
    h.state.items = [item('lrun_a', ['value'])]
    h.events.emit('runs.updated', runEvent('lrun_a'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(h.state.reads).toBe(1)
    expect(h.alerts).toEqual([])
  })
})
