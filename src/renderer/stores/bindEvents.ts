import { on } from '../api'
import { useRecordStore } from './useRecordStore'
import { useToolsStore } from './useToolsStore'

/** Feeds the push events into the stores; returns the unsubscribe. */
export function bindEvents(): () => void {
  const record = useRecordStore.getState
  const offs = [
    on('recorder.exchange', (e) => record().addExchange(e.sessionId, e.exchange)),
    on('recorder.action', (e) => record().setActionCount(e.sessionId, e.actionCount)),
    on('recorder.stopped', (e) => void record().finish(e.sessionId, e.result)),
    on('runs.updated', (e) => useToolsStore.getState().applyRun(e.run)),
  ]
  return () => offs.forEach((off) => off())
}
