import { useEffect, useState } from 'react'
import type { TraceSummary } from '../../shared/appApi'
import { invoke } from '../api'
import { formatTime } from '../format'
import { traceHref } from '../route'
import { attempt } from '../stores/useAppStore'
import { ListTable } from '../components/ListTable'

/** The recordings: each opens on its requests and timeline. */
export function TracesView() {
  const [traces, setTraces] = useState<TraceSummary[] | null>(null)
  useEffect(() => {
    void attempt(invoke('traces.list', {})).then((list) => setTraces(list ?? []))
  }, [])
  return (
    <>
      <h1>Traces</h1>
      <p className="muted">
        Every recording, with the requests it captured and what you did. Open one to browse its
        requests, compile one of them, or export it as HAR.
      </p>
      {traces?.length === 0 && (
        <p className="muted">
          No recordings yet: <a href="#/record">record one</a>.
        </p>
      )}
      {traces && traces.length > 0 && (
        <div className="card flush">
          <ListTable columns={['Intent', 'Start page', 'Requests', 'Recorded']}>
            {traces.map((t) => (
              <tr key={t.id} data-testid="trace-row">
                <td>
                  <a href={traceHref(t.id)}>{t.intent}</a>
                </td>
                <td className="url">{t.startUrl}</td>
                <td className="num">{t.exchangeCount}</td>
                <td className="nowrap">{formatTime(t.createdAt)}</td>
              </tr>
            ))}
          </ListTable>
        </div>
      )}
    </>
  )
}
