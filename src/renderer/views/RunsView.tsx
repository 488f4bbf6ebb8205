import { useEffect, useState } from 'react'
import type { RunDetail } from '../../shared/appApi'
import type { Run } from '../../shared/run'
import { RUN_STATUSES } from '../../shared/run'
import type { ToolSummary } from '../../shared/toolSpec'
import { invoke, on } from '../api'
import { RunEffects } from '../components/RunEffects'
import { RunView } from '../components/RunView'
import { StatusBadge } from '../components/StatusBadge'
import { formatTime } from '../format'
import { toolHref } from '../route'
import { attempt } from '../stores/useAppStore'
import { ListTable } from '../components/ListTable'

/** How long a run took, from its first to its last state: `840 ms`, `3.2 s`, `2 min`. */
function runDuration(run: Pick<Run, 'createdAt' | 'updatedAt'>): string {
  const ms = Date.parse(run.updatedAt) - Date.parse(run.createdAt)
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${ms} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.round(ms / 60_000)} min`
}

/** Every run of the workspace, newest first, filtered by status and tool. */
export function RunsView() {
  const [runs, setRuns] = useState<Run[] | null>(null)
  const [tools, setTools] = useState<ToolSummary[]>([])
  const [status, setStatus] = useState('')
  const [toolId, setToolId] = useState('')
  const [shown, setShown] = useState<Run | null>(null)
  const [detail, setDetail] = useState<RunDetail | null>(null)
  // The opened run's effects and steps, read again when it changes (a run still going).
  useEffect(() => {
    if (!shown) return setDetail(null)
    let current = true
    void attempt(invoke('runs.get', { runId: shown.runId })).then((d) => {
      if (current) setDetail(d ?? null)
    })
    return () => {
      current = false
    }
  }, [shown])
  useEffect(() => {
    void attempt(invoke('runs.list', {})).then((list) => setRuns(list ?? []))
    void attempt(invoke('tools.list', {})).then((list) => setTools(list ?? []))
    // New and changed runs arrive as events: the history stays current while it is open.
    return on('runs.updated', ({ run }) => {
      setRuns(
        (cur) =>
          cur &&
          (cur.some((r) => r.runId === run.runId)
            ? cur.map((r) => (r.runId === run.runId ? run : r))
            : [run, ...cur]),
      )
      setShown((cur) => (cur?.runId === run.runId ? run : cur))
    })
  }, [])
  const nameOf = (id: string) => tools.find((t) => t.id === id)?.name ?? id
  const rows = (runs ?? []).filter(
    (r) => (!status || r.status === status) && (!toolId || r.toolId === toolId),
  )
  return (
    <>
      <h1>Runs</h1>
      <div className="row wrap">
        <label className="field">
          <span className="field-name">Status</span>
          <select
            data-testid="runs-status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            <option value="">any</option>
            {RUN_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-name">Tool</span>
          <select
            data-testid="runs-tool"
            value={toolId}
            onChange={(e) => setToolId(e.target.value)}
          >
            <option value="">any</option>
            {tools.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {runs && rows.length === 0 && (
        <p className="muted">No runs{runs.length ? ' match' : ' yet'}.</p>
      )}
      {rows.length > 0 && (
        <div className="card flush">
          <ListTable columns={['Status', 'Tool', 'Run', 'Error', 'Started', 'Took']}>
            {rows.map((r) => (
              <tr
                key={r.runId}
                data-testid="run-row"
                className={shown?.runId === r.runId ? 'selected' : ''}
              >
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>
                  <a href={toolHref(r.toolId)}>{nameOf(r.toolId)}</a>
                </td>
                <td>
                  <button
                    className="link row-button"
                    aria-pressed={shown?.runId === r.runId}
                    onClick={() => setShown(r)}
                  >
                    <code>{r.runId}</code>
                  </button>
                </td>
                <td className="muted">{r.error?.code}</td>
                <td className="nowrap muted">{formatTime(r.createdAt)}</td>
                <td className="num">{runDuration(r)}</td>
              </tr>
            ))}
          </ListTable>
        </div>
      )}
      {shown && (
        <section className="card" data-testid="run-detail" aria-label="Run details">
          <h2>{nameOf(shown.toolId)}</h2>
          <p className="muted small">
            Started {formatTime(shown.createdAt)} · last change {formatTime(shown.updatedAt)} · took{' '}
            {runDuration(shown)}
          </p>
          <RunView run={shown} />
          {detail?.run.runId === shown.runId && <RunEffects detail={detail} />}
        </section>
      )}
    </>
  )
}
