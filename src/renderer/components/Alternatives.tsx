import { useState } from 'react'
import type { ToolSpec } from '../../shared/toolSpec'
import { pathOf } from '../format'
import { useCompileStore } from '../stores/useCompileStore'
import { useToolsStore } from '../stores/useToolsStore'

interface Props {
  tool: ToolSpec
  /** Shows a candidate compiled from an alternative in place of `tool`. */
  onReplaced(candidate: ToolSpec): void
}

/**
 * The runner-up requests of the evidence, each with why it lost and its score, and a manual
 * compile of it ("use this request instead"). An alternative that does not compile
 * leaves `tool` in place and says why under the table.
 */
export function Alternatives({ tool, onReplaced }: Props) {
  const { alternatives } = tool.evidence
  const pending = useCompileStore((s) => s.pendingExchangeId)
  const prepareInstead = useCompileStore((s) => s.prepareInstead)
  const last = useCompileStore((s) => s.last)
  const failed = last && last.from.id === tool.id && !last.candidate ? last : null
  if (alternatives.length === 0) return null
  return (
    <>
      <h3>Alternatives</h3>
      <p className="muted small">
        Other requests of the recording that could answer the intent, and why they lost. If the
        chosen request is the wrong one, compile one of these instead.
      </p>
      <table data-testid="alternatives">
        <thead>
          <tr>
            <th>Request</th>
            <th className="num">Score</th>
            <th>Why it was not chosen</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {alternatives.map((a) => (
            <tr key={a.exchangeId} data-testid="alternative-row">
              <td className="url" title={a.url}>
                <span className="method">{a.method}</span> {pathOf(a.url)}
              </td>
              <td className="num">{a.score.toFixed(2)}</td>
              <td>{a.reason}</td>
              <td className="nowrap">
                <button
                  data-testid="use-alternative"
                  disabled={pending !== null}
                  onClick={() =>
                    void prepareInstead(tool, a.exchangeId).then((next) => next && onReplaced(next))
                  }
                >
                  {pending === a.exchangeId ? 'Compiling…' : 'Use this request instead'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {failed?.explanation && (
        <div className="banner banner-warn" role="status" data-testid="alternative-explanation">
          <div>
            <strong>That request did not compile; the candidate above is unchanged.</strong>
            <div>{failed.explanation.reason}</div>
            {failed.explanation.missing.length > 0 && (
              <div className="small">Missing: {failed.explanation.missing.join('; ')}</div>
            )}
          </div>
        </div>
      )}
    </>
  )
}

/** Shown on a candidate compiled from an alternative: names the one it replaced. */
export function ReplacedNotice({ tool }: { tool: ToolSpec }) {
  const last = useCompileStore((s) => s.last)
  const remove = useToolsStore((s) => s.remove)
  const [deleted, setDeleted] = useState(false)
  if (!last || last.candidate?.id !== tool.id) return null
  const { from } = last
  return (
    <p className="banner banner-info" data-testid="replaced-notice">
      <span>
        Compiled from the request you chose.{' '}
        {deleted ? (
          <>
            The earlier candidate <code>{from.name}</code> was deleted.
          </>
        ) : (
          <>
            The earlier candidate <code>{from.name}</code> is still listed under Tools.
          </>
        )}
      </span>
      {!deleted && (
        <button
          className="link danger-text"
          onClick={() => void remove(from.id).then((ok) => ok && setDeleted(true))}
        >
          Delete it
        </button>
      )}
    </p>
  )
}
