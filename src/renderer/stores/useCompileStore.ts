import { create } from 'zustand'
import type { CompileExplanation } from '../../shared/appApi'
import type { ToolSpec } from '../../shared/toolSpec'
import { invoke } from '../api'
import { attempt } from './useAppStore'

/** What one "use this request instead" gave: the candidate it replaced and the answer. */
interface Switch {
  /** The candidate whose alternative was chosen. */
  from: { id: string; name: string }
  exchangeId: string
  candidate: ToolSpec | null
  explanation: CompileExplanation | null
}

interface CompileState {
  /** The exchange whose `compile.prepare` is in flight; one at a time. */
  pendingExchangeId: string | null
  /** The last answered switch, shown next to the candidate it concerns. */
  last: Switch | null
  /**
   * Compiles exactly `exchangeId` of the trace `tool` came from and
   * resolves with the new candidate, or with null when the exchange did not compile (the
   * explanation is in `last`) or the call failed (the error banner says why). A press while another
   * is in flight resolves null without calling.
   */
  prepareInstead(tool: ToolSpec, exchangeId: string): Promise<ToolSpec | null>
  clear(): void
}

export const useCompileStore = create<CompileState>()((set, get) => ({
  pendingExchangeId: null,
  last: null,
  async prepareInstead(tool, exchangeId) {
    if (get().pendingExchangeId) return null
    set({ pendingExchangeId: exchangeId, last: null })
    const traceId = tool.evidence.traceId
    const result = await attempt(invoke('compile.prepare', { traceId, exchangeId }))
    if (!result) {
      set({ pendingExchangeId: null })
      return null
    }
    const from = { id: tool.id, name: tool.name }
    const { candidate, explanation } = result
    set({ pendingExchangeId: null, last: { from, exchangeId, candidate, explanation } })
    return candidate
  },
  clear: () => set({ last: null }),
}))
