import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import {
  typedAddress,
  type ScreencastServerMessage,
  type ScreencastViewerMessage,
} from '../../shared/screencast'
import { describeLoadFailure } from '../recorder/loadFailure'

/** Where a screencast's frames and page state go (one viewer: a WebSocket, a test). */
export interface ScreencastViewer {
  send(message: ScreencastServerMessage): void
}

export interface ScreencastOptions {
  /** JPEG quality 0-100 (CDP `Page.startScreencast`); default 70. */
  quality?: number
  /** Largest frame in device pixels; default 1600×1200 (the viewport scales down into it). */
  maxWidth?: number
  maxHeight?: number
  /** What the viewer calls the browser when it goes away; default `recording browser`. */
  browserName?: string
}

export interface Screencast {
  /**
   * Applies a viewer's message (already checked against `SCREENCAST_VIEWER_MESSAGE_SCHEMA`) to the
   * tab shown now: input through CDP `Input.*`, navigation through `Page.*`, an ack releases the
   * next frame. Messages apply one at a time in arrival order, so keys reach the page as typed.
   * Never rejects: what fails is told to the viewer as an `error` message.
   */
  handle(message: ScreencastViewerMessage): Promise<void>
  /** Stops casting and detaches from the tab; the browser is left as it is. Idempotent. */
  close(): Promise<void>
}

interface NavigationHistory {
  currentIndex: number
  entries: Array<{ id: number; url: string }>
}

/**
 * The history entry Back (-1) or Forward (+1) goes to, or null: the blank page a recording tab
 * starts on before its start URL is no place to go back to.
 */
function historyStep(history: NavigationHistory, direction: -1 | 1): { id: number } | null {
  for (let i = history.currentIndex + direction; i >= 0; i += direction) {
    const entry = history.entries[i]
    if (!entry) return null
    if (entry.url !== 'about:blank') return entry
  }
  return null
}

/** Windows virtual key code of Enter: a keyDown must carry its text "\r" to submit a form. */
const ENTER = 13

/**
 * Casts a recording browser's tab to a viewer and forwards the viewer's input,
 * over a CDP session of that tab: `Page.startScreencast` (JPEG), each frame acked
 * (`Page.screencastFrameAck`) only once the viewer acked it, so Chromium never makes frames faster
 * than the viewer shows them. The tab followed is `page`, then the newest tab the context opens
 * (a popup, a target=_blank link), then, when it closes, the newest still open. When the context
 * closes or its last tab does, the viewer gets `gone` and casting ends.
 * @throws whatever CDP throws when the first tab cannot be attached (it closed meanwhile).
 */
export async function startScreencast(
  context: BrowserContext,
  page: Page,
  viewer: ScreencastViewer,
  options: ScreencastOptions = {},
): Promise<Screencast> {
  const params = {
    format: 'jpeg' as const,
    quality: options.quality ?? 70,
    maxWidth: options.maxWidth ?? 1600,
    maxHeight: options.maxHeight ?? 1200,
    everyNthFrame: 1,
  }
  const browserName = options.browserName ?? 'recording browser'
  let closed = false
  let shown: { page: Page; cdp: CDPSession; mainFrameId: string } | null = null
  let loading = false
  // The frame the viewer holds and has not acked yet: CDP sends the next one after its ack.
  let unacked: { cdp: CDPSession; ackId: number } | null = null
  let queue: Promise<void> = Promise.resolve()

  const send = (message: ScreencastServerMessage) => {
    if (!closed) viewer.send(message)
  }

  const sendPage = async () => {
    const now = shown
    if (!now) return
    // Loading as it was at the event: a fast page can stop loading before the history arrives,
    // and the viewer would never see it start.
    const wasLoading = loading
    // Address, title and history from one snapshot: page.url() can be newer than the history
    // read before it, and the bar would offer Forward for an entry not there yet.
    const history = await now.cdp.send('Page.getNavigationHistory').catch(() => null)
    if (now !== shown) return
    const entry = history?.entries[history.currentIndex]
    send({
      type: 'page',
      url: entry?.url ?? now.page.url(),
      title: entry?.title ?? '',
      loading: wasLoading,
      canGoBack: history ? historyStep(history, -1) !== null : false,
      canGoForward: history ? historyStep(history, 1) !== null : false,
    })
  }

  const show = async (next: Page) => {
    const previous = shown
    shown = null
    unacked = null
    if (previous) await previous.cdp.detach().catch(() => undefined)
    if (closed || next.isClosed()) return
    const cdp = await context.newCDPSession(next)
    const { frameTree } = await cdp.send('Page.getFrameTree')
    const current = { page: next, cdp, mainFrameId: frameTree.frame.id }
    cdp.on('Page.screencastFrame', (frame) => {
      if (shown !== current) return
      unacked = { cdp, ackId: frame.sessionId }
      send({
        type: 'frame',
        data: frame.data,
        width: frame.metadata.deviceWidth,
        height: frame.metadata.deviceHeight,
      })
    })
    cdp.on('Page.frameStartedLoading', ({ frameId }) => {
      if (frameId !== current.mainFrameId || shown !== current) return
      loading = true
      void sendPage()
    })
    cdp.on('Page.frameStoppedLoading', ({ frameId }) => {
      if (frameId !== current.mainFrameId || shown !== current) return
      loading = false
      void sendPage()
    })
    cdp.on('Page.frameNavigated', ({ frame }) => {
      if (frame.parentId === undefined && shown === current) void sendPage()
    })
    cdp.on('Page.navigatedWithinDocument', ({ frameId }) => {
      if (frameId === current.mainFrameId && shown === current) void sendPage()
    })
    await cdp.send('Page.enable')
    shown = current
    loading = false
    await cdp.send('Page.startScreencast', params)
    await sendPage()
  }

  const gone = (reason: string) => {
    if (closed) return
    send({ type: 'gone', reason })
    void close()
  }

  const onPage = (opened: Page) => void show(opened).catch(() => undefined)
  const onPageClose = (page: Page) => {
    if (shown?.page !== page) return
    const open = context.pages().filter((p) => !p.isClosed())
    const newest = open[open.length - 1]
    if (newest) void show(newest).catch(() => undefined)
    else gone(`The ${browserName}’s last tab was closed.`)
  }
  const onContextClose = () => gone(`The ${browserName} went away.`)
  const watchPage = (p: Page) => p.once('close', () => onPageClose(p))
  const onAnyPage = (opened: Page) => {
    watchPage(opened)
    onPage(opened)
  }
  context.pages().forEach(watchPage)
  context.on('page', onAnyPage)
  context.on('close', onContextClose)

  const close = async () => {
    if (closed) return
    closed = true
    context.off('page', onAnyPage)
    context.off('close', onContextClose)
    const last = shown
    shown = null
    if (last) {
      await last.cdp.send('Page.stopScreencast').catch(() => undefined)
      await last.cdp.detach().catch(() => undefined)
    }
  }

  const apply = async (message: ScreencastViewerMessage): Promise<void> => {
    const now = shown
    if (!now) return
    const { cdp } = now
    switch (message.type) {
      case 'ack': {
        const frame = unacked
        unacked = null
        if (frame) await frame.cdp.send('Page.screencastFrameAck', { sessionId: frame.ackId })
        return
      }
      case 'mouse':
        await cdp.send('Input.dispatchMouseEvent', {
          type:
            message.action === 'move'
              ? 'mouseMoved'
              : message.action === 'down'
                ? 'mousePressed'
                : 'mouseReleased',
          x: message.x,
          y: message.y,
          button: message.button,
          buttons: message.buttons,
          clickCount: message.clickCount,
          modifiers: message.modifiers,
        })
        return
      case 'wheel':
        await cdp.send('Input.dispatchMouseEvent', {
          type: 'mouseWheel',
          x: message.x,
          y: message.y,
          deltaX: message.deltaX,
          deltaY: message.deltaY,
          modifiers: message.modifiers,
        })
        return
      case 'key': {
        const text = message.keyCode === ENTER ? '\r' : message.text
        const common = {
          key: message.key,
          code: message.code,
          windowsVirtualKeyCode: message.keyCode,
          nativeVirtualKeyCode: message.keyCode,
          location: message.location,
          modifiers: message.modifiers,
        }
        // Chromium types a character for a keyDown carrying text; keys without one (arrows,
        // Backspace, Tab) are raw key downs, as DevTools' own screencast sends them.
        if (message.action === 'down')
          await cdp.send('Input.dispatchKeyEvent', {
            ...common,
            type: text ? 'keyDown' : 'rawKeyDown',
            autoRepeat: message.repeat,
            ...(text ? { text, unmodifiedText: text } : {}),
          })
        else await cdp.send('Input.dispatchKeyEvent', { ...common, type: 'keyUp' })
        return
      }
      case 'text':
        await cdp.send('Input.insertText', { text: message.text })
        return
      case 'navigate': {
        const url = typedAddress(message.url)
        if (!url) {
          send({
            type: 'error',
            code: 'invalid_input',
            message: `"${message.url}" is not an http or https address.`,
          })
          return
        }
        const result = await cdp.send('Page.navigate', { url })
        if (result.errorText)
          send({
            type: 'error',
            code: 'navigation_failed',
            message: describeLoadFailure(url, result.errorText).message,
          })
        return
      }
      case 'back':
      case 'forward': {
        const history = await cdp.send('Page.getNavigationHistory')
        const entry = historyStep(history, message.type === 'back' ? -1 : 1)
        if (entry) await cdp.send('Page.navigateToHistoryEntry', { entryId: entry.id })
        return
      }
      case 'reload':
        await cdp.send('Page.reload')
        return
    }
  }

  await show(page)
  return {
    handle(message) {
      queue = queue.then(() =>
        apply(message).catch((error: unknown) => {
          // The tab closed or navigated away mid-event: the next tab or `gone` follows.
          if (!closed && shown)
            send({
              type: 'error',
              code: 'unavailable',
              message: `The browser did not take that: ${(error as Error).message}`,
            })
        }),
      )
      return queue
    },
    close,
  }
}
