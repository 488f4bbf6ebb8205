import { json, outlineResult, pathOf } from '../format'
import type { ClosedItem } from '../stores/useInboxStore'
import { StatusBadge } from './StatusBadge'

const DID = {
  approved: 'You approved it',
  declined: 'You declined it',
  chosen: 'You chose an option',
  entered: 'You entered a value',
} as const

/** A request body on one line, cut at 120 characters. */
function oneLine(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return text.length > 120 ? `${text.slice(0, 119)}…` : text
}

/** A run that left the inbox: what the person did and how the run ended (or where it is now). */
export function InboxOutcome({ closed }: { closed: ClosedItem }) {
  const { item, run, error, answer } = closed
  const status = error?.code === 'expired_requirement' ? 'expired' : (run?.status ?? 'working')
  const final = run ? !['accepted', 'working'].includes(run.status) : Boolean(error)
  const late = error?.code === 'expired_requirement'
  const request = item.requirements.find((r) => r.request)?.request
  return (
    <article className="card outcome" data-testid="inbox-outcome" data-run-id={item.runId}>
      <div className="card-head">
        <StatusBadge status={status} testId="outcome-status" />
        <strong>{item.toolName}</strong>
        <span className="muted">on {item.siteHost}</span>
        <span className="spacer" />
        <span className="muted small">
          {late ? 'Your answer came too late' : answer ? DID[answer] : 'Answered elsewhere'}
          {!final && ' · running…'}
        </span>
      </div>
      {request && (
        <p className="outcome-request" data-testid="outcome-request">
          <span className="method">{request.method}</span> <code>{pathOf(request.url)}</code>{' '}
          {request.body !== null && request.body !== undefined && (
            <code className="muted">{oneLine(request.body)}</code>
          )}
        </p>
      )}
      {error && (
        <p className="run-error" data-testid="outcome-error">
          <code>{error.code}</code> {error.message}
        </p>
      )}
      {!error && run?.error && (
        <p className="run-error" data-testid="outcome-error">
          <code>{run.error.code}</code> {run.error.message}
        </p>
      )}
      {!error && run?.status === 'expired' && (
        <p className="run-error" data-testid="outcome-error">
          Nobody answered within 15 minutes: nothing was sent.
        </p>
      )}
      {run?.result !== undefined && (
        <details className="tight">
          <summary data-testid="outcome-result">Result: {outlineResult(run.result)}</summary>
          <pre className="json">{json(run.result)}</pre>
        </details>
      )}
    </article>
  )
}
