import { useEffect, useRef, useState, type RefObject } from 'react'
import type { ScreencastViewerMessage } from '../../shared/screencast'
import { useScreencast, type ScreencastLink } from '../useScreencast'
import { useScreencastInput } from '../useScreencastInput'
import './screencast.css'

/** The address bar: the tab's URL, editable; back, forward, reload. */
function AddressBar({
  url,
  canGoBack,
  canGoForward,
  loading,
  disabled,
  send,
  inputRef,
  browserName,
}: {
  url: string
  canGoBack: boolean
  canGoForward: boolean
  loading: boolean
  disabled: boolean
  send: (message: ScreencastViewerMessage) => void
  inputRef: RefObject<HTMLInputElement | null>
  browserName: string
}) {
  const [typed, setTyped] = useState(url)
  // 'typing' keeps the person's text; 'sent' keeps it shown while the tab goes there, as a
  // browser's address bar does, until the tab's address changes.
  const [editing, setEditing] = useState<'no' | 'typing' | 'sent'>('no')
  const shown = useRef(url)
  useEffect(() => {
    const changed = shown.current !== url
    shown.current = url
    if (editing === 'no' || (editing === 'sent' && changed)) {
      setTyped(url)
      if (editing === 'sent') setEditing('no')
    }
  }, [url, editing])
  return (
    <form
      className="sc-bar"
      onSubmit={(e) => {
        e.preventDefault()
        if (!typed.trim()) return
        send({ type: 'navigate', url: typed.trim() })
        setEditing('sent')
      }}
    >
      <button
        type="button"
        className="sc-nav"
        aria-label="Back"
        title="Back"
        disabled={disabled || !canGoBack}
        onClick={() => send({ type: 'back' })}
        data-testid="screencast-back"
      >
        ←
      </button>
      <button
        type="button"
        className="sc-nav"
        aria-label="Forward"
        title="Forward"
        disabled={disabled || !canGoForward}
        onClick={() => send({ type: 'forward' })}
        data-testid="screencast-forward"
      >
        →
      </button>
      <button
        type="button"
        className="sc-nav"
        aria-label="Reload"
        title="Reload"
        disabled={disabled}
        onClick={() => send({ type: 'reload' })}
        data-testid="screencast-reload"
      >
        ↻
      </button>
      <input
        ref={inputRef}
        className="sc-url"
        aria-label={`Address of the ${browserName}’s tab`}
        data-testid="screencast-url"
        value={typed}
        disabled={disabled}
        spellCheck={false}
        autoComplete="off"
        onFocus={(e) => e.target.select()}
        onChange={(e) => {
          setEditing('typing')
          setTyped(e.target.value)
        }}
        onBlur={() => setEditing((now) => (now === 'typing' ? 'no' : now))}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return
          setEditing('no')
          setTyped(url)
        }}
      />
      <button type="submit" disabled={disabled} data-testid="screencast-go">
        Go
      </button>
      <span className="sc-state" aria-live="polite">
        {loading ? 'Loading…' : ''}
      </span>
    </form>
  )
}

/** Who the browser is for: its name, and what the view says when it goes away. */
const PURPOSE = {
  recording: {
    name: 'recording browser',
    label: 'Recording browser',
    gone: 'What it captured is being compiled.',
    hint: 'This is the recording browser, running without a window on this machine. Click in the picture and type as in a browser; the wheel scrolls.',
  },
  'sign-in': {
    name: 'sign-in browser',
    label: 'Sign-in browser',
    gone: '',
    hint: 'This is the sign-in browser, running without a window on this machine. Click a field in the picture and type as in a browser; the wheel scrolls.',
  },
} as const

/**
 * The recording (or sign-in) browser inside the Record (or Logins) view, for a browser running
 * without a display: its tab as a live picture, with the person's mouse, wheel and keys sent to the page
 * (coordinates mapped from the scaled picture to the page's CSS pixels) and an address bar. The
 * picture takes keyboard focus; F6 moves focus to the address bar, as in a browser.
 */
export function ScreencastView({
  sessionId,
  purpose = 'recording',
}: {
  sessionId: string
  purpose?: keyof typeof PURPOSE
}) {
  const words = PURPOSE[purpose]
  const { status, frame, page, problem, send } = useScreencast(sessionId, words.name)
  const stageRef = useRef<HTMLDivElement>(null)
  const imgRef = useRef<HTMLImageElement>(null)
  const addressRef = useRef<HTMLInputElement>(null)
  const live = status.kind === 'live'

  const { mouse, key } = useScreencastInput(frame, send, {
    stage: stageRef,
    picture: imgRef,
    address: addressRef,
  })

  const title = page?.title || page?.url || `the ${words.name}’s tab`
  return (
    <section className="card flush screencast" aria-label={words.label} data-testid="screencast">
      <AddressBar
        url={page?.url ?? ''}
        canGoBack={page?.canGoBack ?? false}
        canGoForward={page?.canGoForward ?? false}
        loading={page?.loading ?? false}
        disabled={!live}
        send={send}
        inputRef={addressRef}
        browserName={words.name}
      />
      {problem && (
        <p className="banner banner-error sc-problem" role="alert" data-testid="screencast-problem">
          <span>{problem}</span>
        </p>
      )}
      <div
        ref={stageRef}
        className={`sc-stage${page?.loading ? ' loading' : ''}`}
        role="application"
        aria-roledescription="remote browser"
        aria-label={`Page: ${title}. Click and type here to use it; F6 moves to the address bar.`}
        aria-busy={page?.loading ?? false}
        tabIndex={live ? 0 : -1}
        data-testid="screencast-view"
        data-status={status.kind}
        data-loading={page?.loading ? 'true' : 'false'}
        // Captured, so a drag that leaves the picture still ends (mouseup) on the page.
        onPointerDown={(e) => e.currentTarget.setPointerCapture(e.pointerId)}
        onMouseDown={mouse('down')}
        onMouseUp={mouse('up')}
        onMouseMove={mouse('move')}
        onContextMenu={(e) => e.preventDefault()}
        onKeyDown={key('down')}
        onKeyUp={key('up')}
        onPaste={(e) => {
          const text = e.clipboardData.getData('text/plain')
          e.preventDefault()
          if (text) send({ type: 'text', text })
        }}
      >
        {frame && (
          <img
            ref={imgRef}
            className="sc-frame"
            src={`data:image/jpeg;base64,${frame.data}`}
            width={frame.width}
            height={frame.height}
            alt={`Live picture of ${title}`}
            draggable={false}
          />
        )}
        <StageCover
          status={status}
          framed={frame !== null}
          loading={page?.loading ?? false}
          words={words}
        />
      </div>
      <p className="hint sc-hint">
        {words.hint} <kbd>F6</kbd> moves to the address bar.
      </p>
    </section>
  )
}

/** What covers the picture while there is none to show: connecting, gone, unavailable; or loading. */
function StageCover({
  status,
  framed,
  loading,
  words,
}: {
  status: ScreencastLink['status']
  framed: boolean
  loading: boolean
  words: (typeof PURPOSE)[keyof typeof PURPOSE]
}) {
  if (status.kind !== 'live' || !framed)
    return (
      <div className="sc-cover" role="status" data-testid="screencast-status">
        {status.kind === 'connecting' && `Connecting to the ${words.name}…`}
        {status.kind === 'live' && 'Waiting for the first picture of the page…'}
        {status.kind === 'gone' && (
          <>
            <strong>The {words.name} is gone.</strong> {status.reason} {words.gone}
          </>
        )}
        {status.kind === 'unavailable' && status.reason}
      </div>
    )
  if (!loading) return null
  return (
    <div className="sc-loading" aria-hidden="true">
      <span />
    </div>
  )
}
