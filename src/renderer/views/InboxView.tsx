import { useEffect } from 'react'
import { InboxCard } from '../components/InboxCard'
import { InboxOutcome } from '../components/InboxOutcome'
import { useInboxStore } from '../stores/useInboxStore'
import { useNow } from '../useNow'

/**
 * Requirements across runs: each waiting run with the time
 * left of its 15 minutes; answering continues the run at once and its outcome shows below.
 */
export function InboxView() {
  const { items, loaded, closed, skewMs, load, clearClosed } = useInboxStore()
  const now = useNow(skewMs)
  useEffect(() => void load(), [load])
  return (
    <>
      <h1>Inbox</h1>
      <p className="muted">
        Runs wait here when a tool would change data on a site, or a call left a choice or a value
        open. Each waits 15 minutes for you; after that it expires and nothing is sent.
      </p>
      {loaded && items.length === 0 && (
        <p className="empty" data-testid="inbox-empty">
          Nothing waits for you.
        </p>
      )}
      {items.map((item) => (
        <InboxCard key={`${item.runId}.${item.stateRevision}`} item={item} now={now} />
      ))}
      {closed.length > 0 && (
        <>
          <div className="row section-head">
            <h3>Answered</h3>
            <span className="spacer" />
            <button className="link" onClick={clearClosed}>
              Clear
            </button>
          </div>
          {closed.map((c) => (
            <InboxOutcome key={c.item.runId} closed={c} />
          ))}
        </>
      )}
    </>
  )
}
