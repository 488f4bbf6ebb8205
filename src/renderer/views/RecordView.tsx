import { useEffect, useRef, useState } from 'react'
import { HAR_MAX_BYTES, type CompileExplanation, type ToolDetail } from '../../shared/appApi'
import { CandidateReview } from '../components/CandidateReview'
import { FirstRunGuide } from '../components/FirstRunGuide'
import { HttpAuthPrompt } from '../components/HttpAuthPrompt'
import { LoginOfferCard } from '../components/LoginOfferCard'
import { ReplaceOffer } from '../components/ReplaceOffer'
import { ScreencastView } from '../components/ScreencastView'
import { pathOf } from '../format'
import { toolHref } from '../route'
import { useRecordStore } from '../stores/useRecordStore'
import { useRunner } from '../useRunner'
import { ListTable } from '../components/ListTable'

/**
 * Drop a HAR file on Record, or pick one: it becomes a recording, compiled with
 * the intent typed above, as if the person had recorded it here.
 */
function HarImport({ intent }: { intent: string }) {
  const importHar = useRecordStore((s) => s.importHar)
  const upload = useRecordStore((s) => s.harUpload)
  const busy = useRecordStore((s) => s.phase === 'starting')
  const [over, setOver] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const take = (file: File | undefined) => {
    if (!file || busy) return
    if (!intent.trim()) return setProblem('Say first what the tool should do, above.')
    if (file.size > HAR_MAX_BYTES)
      return setProblem(
        `${file.name} is ${megabytes(file.size)} MB; HAR files up to ${megabytes(HAR_MAX_BYTES)} MB are imported. Record just the workflow (clear the DevTools network log, do it once, save as HAR), or keep only Fetch/XHR requests.`,
      )
    setProblem(null)
    void importHar(file, intent.trim())
  }
  return (
    <div
      className={`har-drop${over ? ' over' : ''}`}
      data-testid="har-drop"
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        take(e.dataTransfer.files[0])
      }}
    >
      <span className="muted">
        Or drop a HAR file here (from DevTools, Firefox, Playwright; up to{' '}
        {megabytes(HAR_MAX_BYTES)} MB), or
      </span>{' '}
      <label className="link-label">
        pick one
        <input
          type="file"
          accept=".har,application/json"
          data-testid="har-file"
          className="visually-hidden"
          disabled={busy}
          onChange={(e) => {
            take(e.target.files?.[0])
            // Cleared, so picking the same file again (after typing the intent) imports it.
            e.target.value = ''
          }}
        />
      </label>
      {upload && (
        <div className="har-progress" data-testid="har-progress">
          <progress
            max={upload.total || 1}
            value={upload.sent}
            aria-label={`Sending ${upload.name}`}
          />
          <span className="muted">
            {upload.sent < upload.total
              ? `Sending ${upload.name}: ${megabytes(upload.sent, 1)} of ${megabytes(upload.total, 1)} MB`
              : `Sent ${upload.name} (${megabytes(upload.total, 1)} MB); reading and compiling it…`}
          </span>
        </div>
      )}
      {problem && (
        <p className="hint" role="alert">
          {problem}
        </p>
      )}
    </div>
  )
}

/** Bytes as MB (MiB, as the limit is counted), with `digits` decimals. */
function megabytes(bytes: number, digits = 0): string {
  return (bytes / 1024 / 1024).toFixed(digits)
}

function StartForm() {
  const start = useRecordStore((s) => s.start)
  const starting = useRecordStore((s) => s.phase === 'starting')
  const importing = useRecordStore((s) => s.harUpload !== null)
  const prefill = useRecordStore((s) => s.prefill)
  const [url, setUrl] = useState(prefill?.url ?? '')
  const [intent, setIntent] = useState(prefill?.intent ?? '')
  const [attach, setAttach] = useState(false)
  const [cdp, setCdp] = useState('http://127.0.0.1:9222')
  useEffect(() => {
    if (!prefill) return
    setUrl(prefill.url)
    setIntent(prefill.intent)
  }, [prefill])
  return (
    <form
      className="card stack"
      onSubmit={(e) => {
        e.preventDefault()
        void start(url.trim(), intent.trim(), attach ? cdp.trim() : undefined)
      }}
    >
      <label className="field">
        <span className="field-name">Start URL</span>
        <input
          data-testid="record-url"
          type="url"
          required
          placeholder="https://example.com/"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label className="field">
        <span className="field-name">What should the tool do?</span>
        <input
          data-testid="record-intent"
          required
          placeholder="e.g. find orders by the name of the item"
          value={intent}
          onChange={(e) => setIntent(e.target.value)}
        />
      </label>
      <label className="check">
        <input
          type="checkbox"
          data-testid="record-attach"
          checked={attach}
          onChange={(e) => setAttach(e.target.checked)}
        />
        <span>Record in my own Chromium (attach to its debugging endpoint)</span>
      </label>
      {attach && (
        <label className="field">
          <span className="field-name">Chromium’s debugging endpoint</span>
          <input
            data-testid="record-cdp"
            type="url"
            required
            value={cdp}
            onChange={(e) => setCdp(e.target.value)}
          />
          <span className="hint">
            Start it with <code>chromium --remote-debugging-port=9222</code>: the recording uses
            your profile and the sites you are signed in to.
          </span>
        </label>
      )}
      <div>
        <button className="primary" type="submit" disabled={starting} data-testid="record-start">
          {starting && !importing ? 'Opening the browser…' : 'Start recording'}
        </button>
      </div>
      <HarImport intent={intent} />
    </form>
  )
}

/** Page assets: shown greyed, since a tool is compiled from data requests (fetch, XHR, forms). */
const ASSET_TYPES = new Set(['stylesheet', 'script', 'image', 'font', 'media', 'manifest', 'ping'])

/** Keeps a scroll box at its newest row as rows arrive, unless the person scrolled up to read. */
function useFollow(rows: number) {
  const box = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  useEffect(() => {
    if (following.current && box.current) box.current.scrollTop = box.current.scrollHeight
  }, [rows])
  const onScroll = () => {
    const el = box.current
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40
  }
  return { box, onScroll }
}

/** Where to do the task, by where the recording browser shows (see `RecordingState.view`). */
const USE_BROWSER = {
  window: 'Recording — use the browser window, then press Stop',
  screencast: 'Recording — use the browser below, then press Stop',
  attached: 'Recording — use your Chromium, then press Stop',
} as const

function Recording() {
  const { session, exchanges, actionCount, phase, stop } = useRecordStore()
  const stopping = phase === 'stopping'
  const { box, onScroll } = useFollow(exchanges.length)
  return (
    <>
      <div className="banner banner-rec">
        <span className="rec-dot" />
        <span>{stopping ? 'Compiling the trace…' : USE_BROWSER[session?.view ?? 'window']}</span>
        <button
          className="danger"
          onClick={() => void stop()}
          disabled={stopping}
          data-testid="record-stop"
        >
          {stopping ? 'Stopping…' : 'Stop'}
        </button>
      </div>
      {session?.authChallenge && (
        <HttpAuthPrompt
          challenge={session.authChallenge}
          answer={useRecordStore.getState().answerAuth}
        />
      )}
      <p className="muted">
        Intent <strong>“{session?.intent}”</strong> · started at {session?.url} · {exchanges.length}{' '}
        requests · <span data-testid="action-count">{actionCount}</span> actions
      </p>
      {session?.view === 'screencast' && <ScreencastView sessionId={session.sessionId} />}
      <div className="scroll card flush" ref={box} onScroll={onScroll}>
        <ListTable columns={['Method', 'Path', 'Status', 'Type', 'MIME']}>
          {exchanges.map((e) => (
            <tr
              key={e.id}
              data-testid="exchange-row"
              className={ASSET_TYPES.has(e.resourceType) ? 'asset' : ''}
            >
              <td className="method">{e.method}</td>
              <td className="url" title={e.url}>
                {pathOf(e.url)}
              </td>
              <td className={e.status >= 400 || e.status === 0 ? 'bad' : ''}>{e.status || '—'}</td>
              <td>{e.resourceType}</td>
              <td className="muted">{e.mimeType}</td>
            </tr>
          ))}
        </ListTable>
        {exchanges.length === 0 && <p className="muted pad">No requests captured yet.</p>}
      </div>
    </>
  )
}

function Explanation({ explanation }: { explanation: CompileExplanation }) {
  return (
    <section className="card" data-testid="compile-explanation">
      <h2>No tool was compiled</h2>
      <p>{explanation.reason}</p>
      {explanation.missing.length > 0 && (
        <>
          <h3>Missing</h3>
          <ul>
            {explanation.missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      )}
      {explanation.considered.length > 0 && (
        <>
          <h3>Considered</h3>
          <table>
            <tbody>
              {explanation.considered.map((c) => (
                <tr key={c.exchangeId}>
                  <td className="method">{c.method}</td>
                  <td className="url">{c.url}</td>
                  <td>{c.rejectedBecause}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}

function Review({ detail }: { detail: ToolDetail }) {
  const { refreshDetail, showCandidate } = useRecordStore()
  const runner = useRunner()
  return (
    <CandidateReview
      detail={detail}
      runner={runner}
      onVerified={() => void refreshDetail()}
      onReplaced={(candidate) => void showCandidate(candidate)}
    />
  )
}

function Result() {
  const { result, detail, reset, endedByBrowser } = useRecordStore()
  return (
    <>
      {endedByBrowser && (
        <p className="banner banner-warn" role="status" data-testid="record-browser-gone">
          The recording browser went away before Stop: what it captured until then was saved and
          compiled below.
        </p>
      )}
      <div className="row">
        <p className="muted">
          Trace <code>{result?.traceId}</code>
        </p>
        <span className="spacer" />
        {detail && <a href={toolHref(detail.tool.id)}>Open tool page</a>}
        <button onClick={reset}>New recording</button>
      </div>
      {result && (result.login || detail) && (
        <LoginOfferCard
          // Keyed by trace: a new recording or import brings its own offer.
          key={result.traceId}
          traceId={result.traceId}
          host={result.login?.host ?? detail!.tool.siteHost}
          {...(result.login !== undefined ? { initial: result.login } : {})}
        />
      )}
      {detail && (
        <ReplaceOffer
          detail={detail}
          onReplaced={(next) => useRecordStore.setState({ detail: next })}
        />
      )}
      {/* Keyed by tool: a replaced candidate brings its own form values and verify run. */}
      {detail && <Review key={detail.tool.id} detail={detail} />}
      {result?.explanation && <Explanation explanation={result.explanation} />}
    </>
  )
}

export function RecordView() {
  const phase = useRecordStore((s) => s.phase)
  const loadCurrent = useRecordStore((s) => s.loadCurrent)
  useEffect(() => void loadCurrent(), [loadCurrent])
  return (
    <>
      <h1>Record</h1>
      {(phase === 'idle' || phase === 'starting') && (
        <>
          <p className="muted">
            Open a site in a recording browser, do the task once, and Sitecall compiles the request
            that does it into a typed tool.
          </p>
          <FirstRunGuide />
          <StartForm />
        </>
      )}
      {(phase === 'recording' || phase === 'stopping') && <Recording />}
      {phase === 'done' && <Result />}
    </>
  )
}
