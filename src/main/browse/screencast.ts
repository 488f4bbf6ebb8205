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

/** The CDP session of the tab shown now, and that tab's main frame. */
interface ShownTab {
  page: Page
  cdp: CDPSession
  mainFrameId: string
}

/** One screencast: its viewer and tab, and what it is doing now. */
interface Cast {
  context: BrowserContext
  viewer: ScreencastViewer
  /** `Page.startScreencast`'s parameters. */
  params: {
    format: 'jpeg'
    quality: number
    maxWidth: number
    maxHeight: number
    everyNthFrame: number
  }
  browserName: string
  closed: boolean
  shown: ShownTab | null
  /** Whether the shown tab's main frame is loading. */
  loading: boolean
  /** The frame the viewer holds and has not acked yet: CDP sends the next one after its ack. */
  unacked: { cdp: CDPSession; ackId: number } | null
  /** The viewer's messages, applied one at a time. */
  queue: Promise<void>
  /** The context's listeners, removed on close. */
  onAnyPage: (opened: Page) => void
  onContextClose: () => void
}

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
  const browserName = options.browserName ?? 'recording browser'
  const cast: Cast = {
    context,
    viewer,
    params: {
      format: 'jpeg',
      quality: options.quality ?? 70,
      maxWidth: options.maxWidth ?? 1600,
      maxHeight: options.maxHeight ?? 1200,
      everyNthFrame: 1,
    },
    browserName,
    closed: false,
    shown: null,
    loading: false,
    unacked: null,
    queue: Promise.resolve(),
    onAnyPage: (opened) => {
      watchPage(opened)
      void showTab(cast, opened).catch(() => undefined)
    },
    onContextClose: () => gone(cast, `The ${browserName} went away.`),
  }
  const watchPage = (p: Page) => p.once('close', () => onPageClose(cast, p))
  context.pages().forEach(watchPage)
  context.on('page', cast.onAnyPage)
  context.on('close', cast.onContextClose)
  await showTab(cast, page)
  return {
    handle(message) {
      cast.queue = cast.queue.then(() =>
        apply(cast, message).catch((error: unknown) => {
          // The tab closed or navigated away mid-event: the next tab or `gone` follows.
          if (!cast.closed && cast.shown)
            send(cast, {
              type: 'error',
              code: 'unavailable',
              message: `The browser did not take that: ${(error as Error).message}`,
            })
        }),
      )
      return cast.queue
    },
    close: () => closeCast(cast),
  }
}

/** Sends to the viewer until the cast is closed. */
function send(cast: Cast, message: ScreencastServerMessage): void {
  if (!cast.closed) cast.viewer.send(message)
}

/** Tells the viewer the shown tab's address, title, loading and history. */
async function sendPage(cast: Cast): Promise<void> {
  const now = cast.shown
  if (!now) return
  // Loading as it was at the event: a fast page can stop loading before the history arrives,
  // and the viewer would never see it start.
  const wasLoading = cast.loading
  // Address, title and history from one snapshot: page.url() can be newer than the history
  // read before it, and the bar would offer Forward for an entry not there yet.
  const history = await now.cdp.send('Page.getNavigationHistory').catch(() => null)
  if (now !== cast.shown) return
  const entry = history?.entries[history.currentIndex]
  send(cast, {
    type: 'page',
    url: entry?.url ?? now.page.url(),
    title: entry?.title ?? '',
    loading: wasLoading,
    canGoBack: history ? historyStep(history, -1) !== null : false,
    canGoForward: history ? historyStep(history, 1) !== null : false,
  })
}

/** Casts `next` instead of the tab shown: detaches from that one, attaches and starts casting. */
async function showTab(cast: Cast, next: Page): Promise<void> {
  const previous = cast.shown
  cast.shown = null
  cast.unacked = null
  if (previous) await previous.cdp.detach().catch(() => undefined)
  if (cast.closed || next.isClosed()) return
  const cdp = await cast.context.newCDPSession(next)
  const { frameTree } = await cdp.send('Page.getFrameTree')
  const current: ShownTab = { page: next, cdp, mainFrameId: frameTree.frame.id }
  followTab(cast, current)
  await cdp.send('Page.enable')
  cast.shown = current
  cast.loading = false
  await cdp.send('Page.startScreencast', cast.params)
  await sendPage(cast)
}

/** Forwards the tab's frames and its main frame's loads and navigations while it is shown. */
function followTab(cast: Cast, current: ShownTab): void {
  const { cdp } = current
  cdp.on('Page.screencastFrame', (frame) => {
    if (cast.shown !== current) return
    cast.unacked = { cdp, ackId: frame.sessionId }
    send(cast, {
      type: 'frame',
      data: frame.data,
      width: frame.metadata.deviceWidth,
      height: frame.metadata.deviceHeight,
    })
  })
  cdp.on('Page.frameStartedLoading', ({ frameId }) => {
    if (frameId !== current.mainFrameId || cast.shown !== current) return
    cast.loading = true
    void sendPage(cast)
  })
  cdp.on('Page.frameStoppedLoading', ({ frameId }) => {
    if (frameId !== current.mainFrameId || cast.shown !== current) return
    cast.loading = false
    void sendPage(cast)
  })
  cdp.on('Page.frameNavigated', ({ frame }) => {
    if (frame.parentId === undefined && cast.shown === current) void sendPage(cast)
  })
  cdp.on('Page.navigatedWithinDocument', ({ frameId }) => {
    if (frameId === current.mainFrameId && cast.shown === current) void sendPage(cast)
  })
}

/** The browser or its last tab went away: the viewer is told `gone` and casting ends. */
function gone(cast: Cast, reason: string): void {
  if (cast.closed) return
  send(cast, { type: 'gone', reason })
  void closeCast(cast)
}

/** A tab closed: the newest still open is shown, or, when none is left, the cast is gone. */
function onPageClose(cast: Cast, page: Page): void {
  if (cast.shown?.page !== page) return
  const open = cast.context.pages().filter((p) => !p.isClosed())
  const newest = open[open.length - 1]
  if (newest) void showTab(cast, newest).catch(() => undefined)
  else gone(cast, `The ${cast.browserName}’s last tab was closed.`)
}

/** `Screencast.close`: stops casting and detaches, once. */
async function closeCast(cast: Cast): Promise<void> {
  if (cast.closed) return
  cast.closed = true
  cast.context.off('page', cast.onAnyPage)
  cast.context.off('close', cast.onContextClose)
  const last = cast.shown
  cast.shown = null
  if (last) {
    await last.cdp.send('Page.stopScreencast').catch(() => undefined)
    await last.cdp.detach().catch(() => undefined)
  }
}

/** Applies one viewer message to the shown tab (none shown: dropped). */
async function apply(cast: Cast, message: ScreencastViewerMessage): Promise<void> {
  const now = cast.shown
  if (!now) return
  const { cdp } = now
  switch (message.type) {
    case 'ack': {
      const frame = cast.unacked
      cast.unacked = null
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
    case 'key':
      return dispatchKey(cdp, message)
    case 'text':
      await cdp.send('Input.insertText', { text: message.text })
      return
    case 'navigate':
      return navigate(cast, cdp, message.url)
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

/** A viewer's key as CDP key events (Enter carries "\r" so it submits a form). */
async function dispatchKey(
  cdp: CDPSession,
  message: Extract<ScreencastViewerMessage, { type: 'key' }>,
): Promise<void> {
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
}

/** Opens a typed address in the tab; a bad address or a failed load is told as an `error`. */
async function navigate(cast: Cast, cdp: CDPSession, typed: string): Promise<void> {
  const url = typedAddress(typed)
  if (!url) {
    send(cast, {
      type: 'error',
      code: 'invalid_input',
      message: `"${typed}" is not an http or https address.`,
    })
    return
  }
  const result = await cdp.send('Page.navigate', { url })
  if (result.errorText)
    send(cast, {
      type: 'error',
      code: 'navigation_failed',
      message: describeLoadFailure(url, result.errorText).message,
    })
}
