import { create } from 'zustand'
import type { ToolDetail } from '../../shared/appApi'
import type { Run } from '../../shared/run'
import type { ToolEdit } from '../../shared/toolEdit'
import type { ToolSummary } from '../../shared/toolSpec'
import { invoke } from '../api'
import { attempt } from './useAppStore'

interface ToolsState {
  list: ToolSummary[] | null
  detail: ToolDetail | null
  /** The id whose `tools.get` failed (the banner says why). */
  failedId: string | null
  /** Recent runs of the tool in `detail`. */
  runs: Run[]
  loadList(): Promise<void>
  loadTool(id: string): Promise<void>
  loadRuns(toolId: string): Promise<void>
  remove(id: string): Promise<boolean>
  /** Saves an edit as a new version (a candidate again); true when it was saved. */
  update(id: string, edit: ToolEdit): Promise<boolean>
  /** The candidate `id` takes the place and name of `replaces`; true when it did. */
  replace(id: string, replaces: string): Promise<boolean>
  applyRun(run: Run): void
}

export const useToolsStore = create<ToolsState>()((set, get) => ({
  list: null,
  detail: null,
  failedId: null,
  runs: [],
  async loadList() {
    const list = await attempt(invoke('tools.list', {}))
    if (list) set({ list })
  },
  async loadTool(id) {
    if (get().detail?.tool.id !== id) set({ detail: null, runs: [] })
    const detail = await attempt(invoke('tools.get', { id }))
    set(detail ? { detail, failedId: null } : { failedId: id })
  },
  async loadRuns(toolId) {
    const runs = await attempt(invoke('runs.list', { toolId }))
    if (runs && get().detail?.tool.id === toolId) set({ runs })
  },
  async remove(id) {
    const answer = await attempt(invoke('tools.delete', { id }))
    if (answer?.deleted)
      set({
        // Deleting another tool (a replaced candidate) must not blank the page being shown.
        detail: get().detail?.tool.id === id ? null : get().detail,
        list: get().list?.filter((t) => t.id !== id) ?? null,
      })
    return answer?.deleted ?? false
  },
  async update(id, edit) {
    const detail = await attempt(invoke('tools.update', { id, edit }))
    if (detail) set({ detail, list: null })
    return detail !== undefined
  },
  async replace(id, replaces) {
    const detail = await attempt(invoke('tools.replace', { id, replaces }))
    if (detail) set({ detail, list: null })
    return detail !== undefined
  },
  applyRun(run) {
    if (get().detail?.tool.id !== run.toolId) return
    const runs = get().runs
    const known = runs.some((r) => r.runId === run.runId)
    set({ runs: known ? runs.map((r) => (r.runId === run.runId ? run : r)) : [run, ...runs] })
  },
}))
