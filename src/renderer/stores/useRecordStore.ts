import { create } from 'zustand'
import type {
  HttpAuthChallenge,
  RecordingResult,
  RecordingState,
  ToolDetail,
} from '../../shared/appApi'
import type { ToolSpec } from '../../shared/toolSpec'
import type { ExchangeSummary } from '../../shared/trace'
import { invoke, uploadHar, type UploadProgress } from '../api'
import { attempt } from './useAppStore'

type RecordPhase = 'idle' | 'starting' | 'recording' | 'stopping' | 'done'

interface RecordState {
  phase: RecordPhase
  session: RecordingState | null
  exchanges: ExchangeSummary[]
  actionCount: number
  result: RecordingResult | null
  /** The candidate with its target exchange, once `tools.get` answered. */
  detail: ToolDetail | null
  /** The recording ended without Stop: the person closed its browser, or it went away. */
  endedByBrowser: boolean
  /** What the start form should hold (the first-run guide fills in the demo shop). */
  prefill: { url: string; intent: string } | null
  setPrefill(prefill: { url: string; intent: string }): void
  loadCurrent(): Promise<void>
  start(url: string, intent: string, cdpEndpoint?: string): Promise<void>
  stop(): Promise<void>
  reset(): void
  refreshDetail(): Promise<void>
  /** Puts a candidate compiled from an alternative of the trace in place of the current one. */
  showCandidate(candidate: ToolSpec): Promise<void>
  addExchange(sessionId: string, exchange: ExchangeSummary): void
  setActionCount(sessionId: string, actionCount: number): void
  finish(sessionId: string, result: RecordingResult): Promise<void>
  /** The site's HTTP authentication challenge changed. */
  setAuthChallenge(sessionId: string, challenge: HttpAuthChallenge | null): void
  /** Answers it; true once the credentials were saved and given to the browser. */
  answerAuth(username: string, password: string): Promise<boolean>
  /**
   * Imports a HAR file as a recording and shows its result as Stop would: web mode streams it
   * to the service with progress (`harUpload`), the desktop window reads it and hands it over.
   */
  importHar(file: File, intent: string): Promise<void>
  /** The HAR file on its way: its name and how much of it is sent; null when none. */
  harUpload: (UploadProgress & { name: string }) | null
}

const recording = (session: RecordingState) => ({
  phase: 'recording' as const,
  endedByBrowser: false,
  session,
  exchanges: session.exchanges,
  actionCount: session.actionCount,
  result: null,
  detail: null,
})

export const useRecordStore = create<RecordState>()((set, get) => ({
  phase: 'idle',
  session: null,
  exchanges: [],
  actionCount: 0,
  result: null,
  detail: null,
  endedByBrowser: false,
  prefill: null,
  harUpload: null,
  setPrefill: (prefill) => set({ prefill }),

  async loadCurrent() {
    const session = await attempt(invoke('recorder.current', {}))
    if (session && get().phase === 'idle') set(recording(session))
  },
  async start(url, intent, cdpEndpoint) {
    set({ phase: 'starting', result: null, detail: null })
    const input = cdpEndpoint ? { url, intent, cdpEndpoint } : { url, intent }
    const session = await attempt(invoke('recorder.start', input))
    set(session ? recording(session) : { phase: 'idle' })
  },
  async stop() {
    const session = get().session
    if (!session) return
    set({ phase: 'stopping' })
    const result = await attempt(invoke('recorder.stop', { sessionId: session.sessionId }))
    if (result) await get().finish(session.sessionId, result)
    else if (get().phase === 'stopping') set({ phase: 'recording' })
  },
  reset: () =>
    set({
      phase: 'idle',
      endedByBrowser: false,
      session: null,
      exchanges: [],
      actionCount: 0,
      result: null,
      detail: null,
    }),
  async refreshDetail() {
    const id = get().detail?.tool.id
    const detail = id ? await attempt(invoke('tools.get', { id })) : undefined
    if (detail) set({ detail })
  },
  async showCandidate(candidate) {
    const result = { traceId: candidate.evidence.traceId, candidate, explanation: null }
    set({ phase: 'done', result, detail: { tool: candidate, target: null } })
    await get().refreshDetail()
  },
  addExchange(sessionId, exchange) {
    const { session, exchanges } = get()
    if (session?.sessionId !== sessionId || exchanges.some((e) => e.id === exchange.id)) return
    set({ exchanges: [...exchanges, exchange] })
  },
  setAuthChallenge(sessionId, authChallenge) {
    const session = get().session
    if (session?.sessionId === sessionId) set({ session: { ...session, authChallenge } })
  },
  async answerAuth(username, password) {
    const session = get().session
    if (!session) return false
    const input = { sessionId: session.sessionId, username, password }
    const next = await attempt(invoke('recorder.answerAuth', input))
    if (next && get().session?.sessionId === next.sessionId) set({ session: next })
    return !!next
  },
  setActionCount(sessionId, actionCount) {
    if (get().session?.sessionId === sessionId) set({ actionCount })
  },
  // Reached from our own stop and from `recorder.stopped` (e.g. the browser window was closed).
  async importHar(file, intent) {
    const name = file.name
    set({ phase: 'starting', result: null, detail: null })
    const read = async () => {
      // The desktop window has no HTTP transport: its IPC carries the text.
      if (window.sitecall) return { har: await file.text() }
      set({ harUpload: { name, sent: 0, total: file.size } })
      const sent = await uploadHar(file, (progress) => set({ harUpload: { name, ...progress } }))
      // All of it is there (a browser may not report the last bytes as progress).
      set({ harUpload: { name, sent: sent.bytes, total: sent.bytes } })
      return { uploadId: sent.uploadId }
    }
    const result = await attempt(
      read().then((source) => invoke('recorder.importHar', { ...source, intent, fileName: name })),
    )
    set({ harUpload: null })
    if (!result) return set({ phase: 'idle' })
    const candidate = result.candidate
    set({ phase: 'done', result, detail: candidate ? { tool: candidate, target: null } : null })
    if (candidate) await get().refreshDetail()
  },
  async finish(sessionId, result) {
    if (get().session?.sessionId !== sessionId || get().result) return
    const candidate = result.candidate
    // Still 'recording' here means no Stop was pressed: the browser ended the recording.
    const endedByBrowser = get().phase === 'recording'
    set({
      phase: 'done',
      result,
      detail: candidate ? { tool: candidate, target: null } : null,
      endedByBrowser,
    })
    if (candidate) await get().refreshDetail()
  },
}))
