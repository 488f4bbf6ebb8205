import { create } from 'zustand'
import type { AppInfo } from '../../shared/appApi'
import { AppError, invoke, onInvokeSuccess } from '../api'

interface AppState {
  info: AppInfo | null
  error: AppError | null
  /** The server refused the owner token (none, expired, or from an earlier start). */
  signedOut: boolean
  /** Bumped when something a tool may need changed (a login saved): needs are checked again. */
  needsRevision: number
  touchNeeds(): void
  loadInfo(): Promise<void>
  report(error: unknown): void
  dismiss(): void
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  error: null,
  signedOut: false,
  needsRevision: 0,
  touchNeeds: () => set((s) => ({ needsRevision: s.needsRevision + 1 })),
  async loadInfo() {
    const info = await attempt(invoke('app.info', {}))
    if (info) set({ info })
  },
  report(error) {
    const appError =
      error instanceof AppError ? error : new AppError('internal', (error as Error).message)
    if (appError.code === 'unauthorized') set({ signedOut: true })
    else set({ error: appError })
  },
  dismiss: () => set({ error: null }),
}))

/** Awaits `work`; a failure goes to the error banner and yields `undefined`. */
export async function attempt<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work
  } catch (error) {
    useAppStore.getState().report(error)
    return undefined
  }
}

// A banner says what failed; once the same action succeeds (a retried Verify, a recording that
// now starts), what it said is no longer true. Other calls (polls, lists) leave it.
onInvokeSuccess((method) => {
  const error = useAppStore.getState().error
  if (error?.method === method) useAppStore.getState().dismiss()
})
