import { on } from '../api'
import { useInboxStore } from './useInboxStore'
import { useRecordStore } from './useRecordStore'
import { useToolsStore } from './useToolsStore'

const INBOX_RESYNC_MS = 60_000

/** Feeds the push events into the stores; returns the unsubscribe. */
export function bindEvents(): () => void {
  const record = useRecordStore.getState
  const offs = [
    on('recorder.exchange', (e) => record().addExchange(e.sessionId, e.exchange)),
    on('recorder.action', (e) => record().setActionCount(e.sessionId, e.actionCount)),
    on('recorder.stopped', (e) => void record().finish(e.sessionId, e.result)),
    on('recorder.authChallenge', (e) => record().setAuthChallenge(e.sessionId, e.challenge)),
    on('runs.updated', (e) => {
      useToolsStore.getState().applyRun(e.run)
      useInboxStore.getState().applyRun(e.run)
    }),
  ]
  // The Inbox badge counts from the start, and a missed event or a clock jump heals within a minute.
  const inbox = () => void useInboxStore.getState().load()
  inbox()
  const timer = setInterval(inbox, INBOX_RESYNC_MS)
  return () => {
    clearInterval(timer)
    offs.forEach((off) => off())
  }
}
