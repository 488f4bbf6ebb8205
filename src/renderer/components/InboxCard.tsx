import type { InboxItem } from '../../shared/appApi'
import { formatAgo, formatTimeLeft } from '../format'
import { useInboxStore } from '../stores/useInboxStore'
import { RequirementForm } from './RequirementForm'

/** interface.md "Limits": a requirement waits 15 minutes; the last two are shown as urgent. */
const URGENT_MS = 2 * 60_000

/** A run waiting on the person: its tool and site, the time left, and each requirement. */
export function InboxCard({ item, now }: { item: InboxItem; now: number }) {
  const answering = useInboxStore((s) => s.answering[item.runId])
  const failures = useInboxStore((s) => s.failures)
  const answer = useInboxStore((s) => s.answer)
  const expiresAt = Math.min(...item.requirements.map((r) => Date.parse(r.expiresAt)))
  const left = expiresAt - now
  const expired = left <= 0
  return (
    <article className="card inbox-item" data-testid="inbox-item" data-run-id={item.runId}>
      <div className="card-head">
        <h2 data-testid="inbox-tool">{item.toolName}</h2>
        <span className="muted">on</span>
        <strong data-testid="inbox-site">{item.siteHost || 'a deleted tool'}</strong>
        {item.mutating && <span className="badge badge-amber">changes data</span>}
        <span className="spacer" />
        <span
          className={`time-left${expired ? ' expired' : left < URGENT_MS ? ' urgent' : ''}`}
          data-testid="time-left"
          title={`Answer by ${new Date(expiresAt).toLocaleTimeString()}`}
        >
          {expired ? 'Expired' : `${formatTimeLeft(left)} left`}
        </span>
      </div>
      <p className="muted small">
        Asked {formatAgo(item.createdAt, now)} · run <code>{item.runId}</code>
      </p>
      {expired && (
        <p className="notice">
          The 15 minutes to answer are up: nothing was sent. Start a new run.
        </p>
      )}
      {item.requirements.map((r) => (
        <RequirementForm
          key={r.id}
          requirement={r}
          disabled={Boolean(answering) || expired}
          othersOpen={item.requirements.filter((o) => o.kind !== 'approval').length}
          failure={failures[r.id]}
          onAnswer={(a) => void answer(item, r, a)}
        />
      ))}
      {answering && <p className="muted">Sending your answer…</p>}
    </article>
  )
}
