import type { RunDetail } from '../../shared/appApi'
import { json, pathOf } from '../format'
import { ListTable } from './ListTable'

/** Milliseconds as the Runs view writes them: `840 ms`, `3.2 s`. */
function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

/**
 * What a run did: its inputs, each request it sent in order with the answer's
 * status, when the answer came after the run started and how long it took since the one before
 * (the run's effects, kept even when it was cancelled), and its tool's steps.
 */
export function RunEffects({ detail }: { detail: RunDetail }) {
  const start = Date.parse(detail.run.createdAt)
  const inputs = Object.entries(detail.inputs)
  return (
    <div data-testid="run-effects-detail">
      {inputs.length > 0 && (
        <>
          <h3>Inputs</h3>
          <table className="kv" data-testid="run-inputs">
            <tbody>
              {inputs.map(([name, value]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>
                    <code>{typeof value === 'string' ? value : json(value)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h3>Requests sent</h3>
      {detail.effects.length === 0 ? (
        <p className="muted">None: the run stopped before sending anything.</p>
      ) : (
        <ListTable
          columns={['#', 'Method', 'Path', 'Status', 'Answered at', 'Took']}
          testId="run-effects"
        >
          {detail.effects.map((e, i) => {
            const at = Date.parse(e.at)
            const before = i === 0 ? start : Date.parse(detail.effects[i - 1]!.at)
            return (
              <tr key={`${i}-${e.at}`} data-testid="run-effect">
                <td className="num">{i + 1}</td>
                <td className="method">{e.method}</td>
                <td className="url" title={e.url}>
                  {pathOf(e.url)}
                </td>
                <td className={e.status === null || e.status >= 400 ? 'bad' : ''}>
                  {e.status ?? 'no answer'}
                </td>
                <td className="num">+{formatMs(at - start)}</td>
                <td className="num">{formatMs(at - before)}</td>
              </tr>
            )
          })}
        </ListTable>
      )}
      {detail.steps.length > 0 && (
        <>
          <h3>
            Steps of {detail.toolName}
            {detail.toolVersion ? ` (version ${detail.toolVersion})` : ''}
          </h3>
          <ol data-testid="run-steps">
            {detail.steps.map((s) => (
              <li key={s.id}>
                <code>
                  {s.method} {pathOf(s.url)}
                </code>{' '}
                <span className="muted small">{s.target ? 'target' : `dependency ${s.id}`}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  )
}
