import { useCallback, useEffect, useRef, useState } from 'react'
import {
  SCREENCAST_CLOSE,
  type ScreencastFrame,
  type ScreencastPage,
  type ScreencastServerMessage,
  type ScreencastViewerMessage,
} from '../shared/screencast'
import { takeToken } from './api'

/** Close codes of `GET /app-api/screencast/<id>` after which reconnecting is pointless. */
const FINAL_CLOSE = new Set<number>(Object.values(SCREENCAST_CLOSE))
/** Wait before reconnecting a dropped view (the server restarting, a network blip). */
const RECONNECT_MS = 1_500
/** Reconnects in a row before the view says the browser cannot be reached. */
const MAX_RECONNECTS = 5

type ScreencastStatus =
  | { kind: 'connecting' }
  | { kind: 'live' }
  | { kind: 'gone'; reason: string }
  | { kind: 'unavailable'; reason: string }

export interface ScreencastLink {
  status: ScreencastStatus
  frame: ScreencastFrame | null
  page: ScreencastPage | null
  /** The last thing the browser refused (a bad address, a failed navigation), until the next. */
  problem: string | null
  send(message: ScreencastViewerMessage): void
}

/** `ws://<this host>/app-api/screencast/<id>?token=…`: a browser's WebSocket sends no headers. */
function socketUrl(sessionId: string, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const id = encodeURIComponent(sessionId)
  return `${scheme}://${location.host}/app-api/screencast/${id}?token=${encodeURIComponent(token)}`
}

/**
 * The live view of a recording's (or a sign-in's) browser tab: opens the screencast socket of
 * `sessionId` with the owner token, keeps the newest frame and the tab's state, and reconnects a
 * dropped socket (up to 5 times in a row) until the server says the recording or its browser is
 * gone. The desktop window, whose preload offers `screencast`, uses a message port to main instead.
 */
export function useScreencast(
  sessionId: string,
  browserName = 'recording browser',
): ScreencastLink {
  const [status, setStatus] = useState<ScreencastStatus>({ kind: 'connecting' })
  const [frame, setFrame] = useState<ScreencastFrame | null>(null)
  const [page, setPage] = useState<ScreencastPage | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const socket = useRef<WebSocket | null>(null)
  const port = useRef<{ send(message: unknown): void } | null>(null)

  // The desktop window: a message port to main instead of a socket (no reconnects needed).
  useEffect(() => {
    const bridge = window.sitecall?.screencast
    if (!bridge) return
    const channel = bridge(sessionId, (data) => {
      const message = data as ScreencastServerMessage
      if (message.type === 'frame') setFrame(message)
      else if (message.type === 'page') {
        setPage(message)
        if (message.loading) setProblem(null)
      } else if (message.type === 'error') return setProblem(message.message)
      else return setStatus({ kind: 'gone', reason: message.reason })
      setStatus((now) => (now.kind === 'connecting' ? { kind: 'live' } : now))
    })
    port.current = channel
    return () => {
      port.current = null
      channel.close()
    }
  }, [sessionId])

  useEffect(() => {
    if (window.sitecall?.screencast) return
    let ended = false
    let retries = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const open = () => {
      const token = takeToken()
      if (!token) {
        setStatus({
          kind: 'unavailable',
          reason: 'This page has no session token: reopen the app.',
        })
        return
      }
      const ws = new WebSocket(socketUrl(sessionId, token))
      socket.current = ws
      let gone: string | null = null
      ws.onopen = () => {
        retries = 0
        setStatus({ kind: 'live' })
      }
      ws.onmessage = (event: MessageEvent<string>) => {
        const message = JSON.parse(event.data) as ScreencastServerMessage
        if (message.type === 'frame') setFrame(message)
        else if (message.type === 'page') {
          setPage(message)
          if (message.loading) setProblem(null)
        } else if (message.type === 'error') setProblem(message.message)
        else gone = message.reason
      }
      ws.onclose = (event) => {
        if (socket.current === ws) socket.current = null
        if (ended) return
        if (gone !== null || FINAL_CLOSE.has(event.code))
          return setStatus({ kind: 'gone', reason: gone ?? `The ${browserName} went away.` })
        if (++retries > MAX_RECONNECTS)
          return setStatus({
            kind: 'unavailable',
            reason: `The view of the ${browserName} cannot be reached.`,
          })
        setStatus({ kind: 'connecting' })
        timer = setTimeout(open, RECONNECT_MS)
      }
    }
    open()
    return () => {
      ended = true
      clearTimeout(timer)
      socket.current?.close()
      socket.current = null
    }
  }, [sessionId, browserName])

  const send = useCallback((message: ScreencastViewerMessage) => {
    if (port.current) return port.current.send(message)
    const ws = socket.current
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message))
  }, [])

  return { status, frame, page, problem, send }
}
