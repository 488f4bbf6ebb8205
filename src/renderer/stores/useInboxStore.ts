import { create } from 'zustand'
import type { InboxItem, InboxRequirement, RequirementAnswer } from '../../shared/appApi'
import type { ErrorBody } from '../../shared/errors'
import type { Run } from '../../shared/run'
import { AppError, invoke } from '../api'
import { attempt } from './useAppStore'

/** What the person did with a requirement, in the words the outcome card uses. */
export type AnswerKind = 'approved' | 'declined' | 'chosen' | 'entered'

/** A run that left the inbox while this window watched: answered here, elsewhere, or expired. */
export interface ClosedItem {
  item: InboxItem
  answer: AnswerKind | null
  /** The run's latest state (updated by `runs.updated` until it is final). */
  run: Run | null
  /** Why an answer was refused when that closed the item (`expired_requirement`). */
  error: ErrorBody | null
}

interface InboxState {
  items: InboxItem[]
  loaded: boolean
  /** The core's clock minus this window's, ms: the countdown follows the core (a fake clock too). */
  skewMs: number
  /** Newest first. */
  closed: ClosedItem[]
  /** Runs with an answer on its way, and what it was. */
  answering: Record<string, AnswerKind>
  /** An answer the core refused, by requirement id, shown on that requirement. */
  failures: Record<string, ErrorBody>
  load(): Promise<void>
  answer(item: InboxItem, requirement: InboxRequirement, answer: RequirementAnswer): Promise<void>
  applyRun(run: Run): void
  /** Forgets the closed items (the person read them). */
  clearClosed(): void
}

/** Answers that close a run for good; anything else is told on the requirement itself. */
const CLOSING_CODES = ['expired_requirement', 'conflict']

let loads = 0

/** Pending requirements across runs (the Inbox nav badge and the desktop badge count them). */
export function pendingCount(items: InboxItem[]): number {
  return items.reduce((n, item) => n + item.requirements.length, 0)
}

/** What an answer did, for the outcome card. */
function answerKind(requirement: InboxRequirement, answer: RequirementAnswer): AnswerKind {
  if (requirement.kind === 'approval') return answer.approve ? 'approved' : 'declined'
  return requirement.kind === 'choice' ? 'chosen' : 'entered'
}

export const useInboxStore = create<InboxState>()((set, get) => {
  /** Moves a run's item to the closed list (once), keeping the newest run state. */
  const close = (runId: string, patch: Partial<ClosedItem>) => {
    const { items, closed, answering } = get()
    const known = closed.find((c) => c.item.runId === runId)
    if (known) {
      set({ closed: closed.map((c) => (c === known ? { ...c, ...patch } : c)) })
      return
    }
    const item = items.find((i) => i.runId === runId)
    if (!item) return
    const entry: ClosedItem = { item, answer: answering[runId] ?? null, run: null, error: null }
    set({
      items: items.filter((i) => i !== item),
      closed: [{ ...entry, ...patch }, ...closed],
    })
  }

  return {
    items: [],
    loaded: false,
    skewMs: 0,
    closed: [],
    answering: {},
    failures: {},

    async load() {
      const seq = ++loads
      const answer = await attempt(invoke('requirements.list', {}))
      // A slower, older answer must not bring back what a newer one or an event removed.
      if (!answer || seq !== loads) return
      const gone = new Set(get().closed.map((c) => c.item.runId))
      set({
        items: answer.items.filter((i) => !gone.has(i.runId)),
        loaded: true,
        skewMs: answer.now - Date.now(),
      })
    },

    async answer(item, requirement, answer) {
      const kind = answerKind(requirement, answer)
      const failures = { ...get().failures }
      delete failures[requirement.id]
      set({ answering: { ...get().answering, [item.runId]: kind }, failures })
      try {
        const run = await invoke('requirements.answer', {
          runId: item.runId,
          stateRevision: item.stateRevision,
          answers: [answer],
        })
        if (run.status === 'input_required') await get().load()
        else close(item.runId, { run, answer: kind })
      } catch (error) {
        const body: ErrorBody =
          error instanceof AppError
            ? { code: error.code, message: error.message }
            : { code: 'internal', message: (error as Error).message }
        if (CLOSING_CODES.includes(body.code)) close(item.runId, { error: body, answer: kind })
        else {
          set({ failures: { ...get().failures, [requirement.id]: body } })
          // The run may have moved on elsewhere (stale_revision): show what it waits for now.
          await get().load()
        }
      } finally {
        const answering = { ...get().answering }
        delete answering[item.runId]
        set({ answering })
      }
    },

    applyRun(run) {
      const { items, closed } = get()
      if (closed.some((c) => c.item.runId === run.runId)) {
        close(run.runId, { run })
        return
      }
      const item = items.find((i) => i.runId === run.runId)
      if (run.status === 'input_required') {
        if (!item || item.stateRevision !== run.stateRevision) void get().load()
        return
      }
      // Left the inbox: answered (here or through the API), cancelled or expired.
      if (item) close(run.runId, { run })
    },

    clearClosed: () => set({ closed: [] }),
  }
})
