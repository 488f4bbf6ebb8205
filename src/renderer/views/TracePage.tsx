import { useEffect, useState } from 'react'
import type { TraceDetail, TraceExchangeRow } from '../../shared/appApi'
import type { Body, Exchange } from '../../shared/trace'
import { invoke } from '../api'
import { StatusBadge } from '../components/StatusBadge'
import { formatTime, pathOf } from '../format'
import { toolHref } from '../route'
import { attempt } from '../stores/useAppStore'
import { EXCHANGE_FILTERS, filterExchanges, timelineOf, type ExchangeFilter } from '../timeline'
import { ListTable } from '../components/ListTable'
import { safeJson } from '../../shared/safeJson'

/** Shown bodies stop here: a page or a script can be megabytes. */
const BODY_SHOWN = 20_000

function BodyView({ body, label }: { body: Body | null; label: string }) {
  if (!body) return <p className="muted small">No {label}.</p>
  if (body.encoding === 'base64')
    return (
      <p className="muted small">
        Binary {label} ({Math.round((body.text.length * 3) / 4)} bytes).
      </p>
    )
  // Not JSON: shown as it came.
  const json = safeJson(body.text)
  const text = json === undefined ? body.text : JSON.stringify(json, null, 2)
  return (
    <pre className="json body-view" aria-label={label} tabIndex={0}>
      {text.length > BODY_SHOWN
        ? `${text.slice(0, BODY_SHOWN)}\n… (${text.length} characters)`
        : text}
    </pre>
  )
}

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  const entries = Object.entries(headers)
  if (!entries.length) return <p className="muted small">No {label}.</p>
  return (
    <table className="kv" aria-label={label}>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <td>{name}</td>
            <td className="url">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function ExchangeDetail({ traceId, exchange }: { traceId: string; exchange: Exchange }) {
  const [compiling, setCompiling] = useState(false)
  const compile = async () => {
    setCompiling(true)
    const result = await attempt(invoke('compile.prepare', { traceId, exchangeId: exchange.id }))
    setCompiling(false)
    if (result?.candidate) location.hash = toolHref(result.candidate.id)
  }
  return (
    <section className="card" data-testid="exchange-detail" aria-label="Request details">
      <div className="row">
        <span className="method">{exchange.method}</span>
        <code className="url">{exchange.url}</code>
      </div>
      <p className="muted small">
        {exchange.status} · {exchange.resourceType} · started {formatTime(exchange.startedAt)} ·{' '}
        {Math.round(exchange.durationMs)} ms · on {pathOf(exchange.pageUrl)}
      </p>
      <button
        className="primary"
        data-testid="compile-exchange"
        disabled={compiling}
        onClick={() => void compile()}
      >
        {compiling ? 'Compiling…' : 'Compile this request into a tool'}
      </button>
      <h3>Request headers</h3>
      <Headers headers={exchange.requestHeaders} label="request headers" />
      <h3>Request body</h3>
      <BodyView body={exchange.requestBody} label="request body" />
      <h3>Response headers</h3>
      <Headers headers={exchange.responseHeaders} label="response headers" />
      <h3>Response body</h3>
      <BodyView body={exchange.responseBody} label="response body" />
    </section>
  )
}

function RequestRow({
  row,
  selected,
  onSelect,
}: {
  row: TraceExchangeRow
  selected: boolean
  onSelect: (id: string) => void
}) {
  return (
    <tr className={selected ? 'selected' : ''} data-testid="trace-exchange">
      <td>
        <span className="method">{row.method}</span>
      </td>
      <td className="url">
        <button
          className="link row-button"
          aria-pressed={selected}
          onClick={() => onSelect(row.id)}
        >
          {pathOf(row.url)}
        </button>
      </td>
      <td className={row.status >= 400 ? 'bad' : ''}>{row.status}</td>
      <td className="muted">{row.resourceType}</td>
      <td className="num">{Math.round(row.durationMs)} ms</td>
    </tr>
  )
}

function describeAction(action: TraceDetail['actions'][number]): string {
  const target = action.name ?? action.fieldName ?? action.selector ?? ''
  const value = action.secret ? ' (a secret, not kept)' : action.value ? ` “${action.value}”` : ''
  if (action.kind === 'navigate') return `Opened ${pathOf(action.pageUrl)}`
  return `${action.kind[0]!.toUpperCase()}${action.kind.slice(1)} ${target}${value}`.trim()
}

function Timeline({ detail, onSelect }: { detail: TraceDetail; onSelect: (id: string) => void }) {
  const steps = timelineOf(detail.actions, detail.exchanges)
  if (!steps.length) return <p className="muted">Nothing was recorded.</p>
  return (
    <ol className="timeline" data-testid="trace-timeline">
      {steps.map((step, i) => (
        <li key={step.action?.seq ?? `start-${i}`} data-testid="timeline-step">
          <strong>{step.action ? describeAction(step.action) : 'The start page loaded'}</strong>
          {step.action && <span className="muted small"> · {formatTime(step.action.at)}</span>}
          {step.exchanges.length > 0 && (
            <ul>
              {step.exchanges.map((e) => (
                <li key={e.id}>
                  <button className="link" onClick={() => onSelect(e.id)}>
                    {e.method} {pathOf(e.url)}
                  </button>{' '}
                  <span className="muted small">{e.status}</span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  )
}

function saveHar(fileName: string, har: unknown): void {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }),
  )
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  URL.revokeObjectURL(url)
}

/** One recording: its requests like DevTools' Network panel, and its timeline. */
export function TracePage({ id }: { id: string }) {
  const [detail, setDetail] = useState<TraceDetail | null | undefined>(undefined)
  const [selected, setSelected] = useState<Exchange | null>(null)
  const [filter, setFilter] = useState<ExchangeFilter>('all')
  const [search, setSearch] = useState('')
  const [tab, setTab] = useState<'requests' | 'timeline'>('requests')
  useEffect(() => {
    void attempt(invoke('traces.get', { id })).then((d) => setDetail(d ?? null))
  }, [id])
  const select = (exchangeId: string) => {
    void attempt(invoke('traces.exchange', { traceId: id, exchangeId })).then(
      (e) => e && setSelected(e),
    )
  }
  if (detail === undefined) return <p className="muted">Loading…</p>
  if (detail === null)
    return (
      <p className="muted">
        This trace could not be loaded. <a href="#/traces">Back to Traces</a>
      </p>
    )
  const rows = filterExchanges(detail.exchanges, filter, search)
  return (
    <>
      <TraceSummary id={id} detail={detail} />
      <div className="tabs" role="group" aria-label="View">
        <button
          aria-pressed={tab === 'requests'}
          data-testid="tab-requests"
          onClick={() => setTab('requests')}
        >
          Requests
        </button>
        <button
          aria-pressed={tab === 'timeline'}
          data-testid="tab-timeline"
          onClick={() => setTab('timeline')}
        >
          Timeline
        </button>
      </div>
      <div className="split">
        <div>
          {tab === 'requests' ? (
            <RequestsPanel
              rows={rows}
              filter={filter}
              setFilter={setFilter}
              search={search}
              setSearch={setSearch}
              selectedId={selected?.id}
              onSelect={select}
            />
          ) : (
            <Timeline detail={detail} onSelect={select} />
          )}
        </div>
        <div>
          {selected ? (
            <ExchangeDetail traceId={id} exchange={selected} />
          ) : (
            <p className="muted">Pick a request to see its headers, bodies and timing.</p>
          )}
        </div>
      </div>
    </>
  )
}

/** The recording's title, its export and delete buttons, what it holds and the tools made from it. */
function TraceSummary({ id, detail }: { id: string; detail: TraceDetail }) {
  return (
    <>
      <div className="row">
        <h1>{detail.trace.intent}</h1>
        <span className="spacer" />
        <button
          data-testid="export-har"
          onClick={() =>
            void attempt(invoke('traces.exportHar', { id })).then(
              (out) => out && saveHar(out.fileName, out.har),
            )
          }
        >
          Export HAR
        </button>
        <button
          className="link danger-text"
          data-testid="delete-trace"
          onClick={() => {
            if (!confirm('Delete this recording? Tools made from it keep working.')) return
            void attempt(invoke('traces.delete', { id })).then(
              (out) => out?.deleted && (location.hash = '#/traces'),
            )
          }}
        >
          Delete
        </button>
      </div>
      <p className="muted">
        {detail.trace.startUrl} · {formatTime(detail.trace.createdAt)} · {detail.exchanges.length}{' '}
        requests · {detail.actions.length} actions
      </p>
      {detail.tools.length > 0 && (
        <p>
          Tools from this recording:{' '}
          {detail.tools.map((t) => (
            <span key={t.id} className="tool-link">
              <a href={toolHref(t.id)}>{t.name}</a> <StatusBadge status={t.status} />{' '}
            </span>
          ))}
        </p>
      )}
    </>
  )
}

/** The requests like DevTools' Network panel: a type filter, a search and the table. */
function RequestsPanel({
  rows,
  filter,
  setFilter,
  search,
  setSearch,
  selectedId,
  onSelect,
}: {
  rows: TraceExchangeRow[]
  filter: ExchangeFilter
  setFilter(filter: ExchangeFilter): void
  search: string
  setSearch(search: string): void
  selectedId: string | undefined
  onSelect(id: string): void
}) {
  return (
    <>
      <div className="row wrap">
        <label className="field">
          <span className="field-name">Type</span>
          <select
            data-testid="exchange-filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value as ExchangeFilter)}
          >
            {EXCHANGE_FILTERS.map((f) => (
              <option key={f} value={f}>
                {f === 'fetch' ? 'fetch / XHR' : f}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span className="field-name">Search</span>
          <input
            type="search"
            data-testid="exchange-search"
            placeholder="URL, method or status"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
      </div>
      <div className="card flush scroll">
        <ListTable columns={['Method', 'Path', 'Status', 'Type', 'Time']}>
          {rows.map((row) => (
            <RequestRow
              key={row.id}
              row={row}
              selected={selectedId === row.id}
              onSelect={onSelect}
            />
          ))}
        </ListTable>
        {rows.length === 0 && <p className="muted pad">No request matches.</p>}
      </div>
    </>
  )
}
