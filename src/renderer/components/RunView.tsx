import type { Run } from '../../shared/run'
import { json, outlineResult, plainText } from '../format'
import { StatusBadge } from './StatusBadge'

/** What a waiting run needs, in words. */
const WAITS_FOR = { approval: 'your approval', choice: 'your choice', value: 'a value from you' }

/**
 * A run's status and its result JSON, or its error code and message; a run waiting on the
 * person links to the Inbox, where it is answered.
 */
export function RunView({ run }: { run: Run }) {
  return (
    <div className="run">
      <div className="run-head">
        <StatusBadge status={run.status} testId="run-status" />
        <code className="muted">{run.runId}</code>
        {run.via && <span className="muted">via {run.via}</span>}
      </div>
      {run.error && (
        <p className="run-error">
          <code>{run.error.code}</code> {plainText(run.error.message)}
        </p>
      )}
      {run.requirements.map((r) => (
        <p key={r.id} className="notice" data-testid="run-waiting">
          Waiting for {WAITS_FOR[r.kind]}: {r.message}{' '}
          <a href="#/inbox" data-testid="run-waiting-inbox">
            Answer it in the Inbox
          </a>
        </p>
      ))}
      {run.signIn && (
        <p className="notice">
          Sign in first: <a href={run.signIn.url}>{run.signIn.url}</a>
        </p>
      )}
      {run.result !== undefined && (
        <>
          <p className="run-summary" data-testid="run-summary">
            Result: {outlineResult(run.result)}
          </p>
          {/* Focusable: a long result scrolls, and keyboard users must reach it (WCAG 2.1.1). */}
          <pre className="json" data-testid="run-result" tabIndex={0} aria-label="Run result">
            {json(run.result)}
          </pre>
        </>
      )}
    </div>
  )
}
