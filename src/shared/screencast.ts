/**
 * The in-page view of a recording browser: the messages of the WebSocket
 * `GET /app-api/screencast/<sessionId>`. The server sends the tab's frames and state; the viewer
 * sends input, navigation and an ack per frame shown. Coordinates are the page's CSS pixels
 * (what CDP's `Input.dispatchMouseEvent` takes), mapped by the viewer from the scaled image.
 */

import { httpUrl } from './urls'

/**
 * Close codes of a view (RFC 6455 §7.4.2: 4000-4999 are the application's): no such recording
 * running, and the recording browser went away. After either, reconnecting is pointless.
 */
export const SCREENCAST_CLOSE = { noRecording: 4404, gone: 4410 } as const

/** Where the person sees the recording browser (the Record view shows the screencast for one). */
export type RecordingView = 'window' | 'screencast' | 'attached'

/** CDP's modifier bits (`Input.dispatchMouseEvent` `modifiers`): Alt 1, Ctrl 2, Meta 4, Shift 8. */
export const MODIFIER_BITS = { alt: 1, ctrl: 2, meta: 4, shift: 8 } as const

/** A JPEG frame of the tab; `width`×`height` is the viewport in CSS pixels, not the image's size. */
export interface ScreencastFrame {
  type: 'frame'
  /** Base64 JPEG, as CDP's `Page.screencastFrame` gives it. */
  data: string
  width: number
  height: number
}

/** The tab the view shows: its address, title, whether it is loading and its history. */
export interface ScreencastPage {
  type: 'page'
  url: string
  title: string
  loading: boolean
  canGoBack: boolean
  canGoForward: boolean
}

/** Something the viewer asked could not be done (a refused address, a failed navigation). */
interface ScreencastProblem {
  type: 'error'
  code: 'invalid_input' | 'navigation_failed' | 'unavailable'
  message: string
}

/** The browser or its last tab went away; the socket closes right after. */
interface ScreencastGone {
  type: 'gone'
  reason: string
}

export type ScreencastServerMessage =
  ScreencastFrame | ScreencastPage | ScreencastProblem | ScreencastGone

export type MouseButton = 'none' | 'left' | 'middle' | 'right'

/** What a viewer may send. */
export type ScreencastViewerMessage =
  /** The last frame is on screen: the next may come (CDP `Page.screencastFrameAck`). */
  | { type: 'ack' }
  | {
      type: 'mouse'
      action: 'move' | 'down' | 'up'
      x: number
      y: number
      button: MouseButton
      /** Buttons held, as DOM `MouseEvent.buttons`: left 1, right 2, middle 4. */
      buttons: number
      clickCount: number
      modifiers: number
    }
  | { type: 'wheel'; x: number; y: number; deltaX: number; deltaY: number; modifiers: number }
  | {
      type: 'key'
      action: 'down' | 'up'
      /** DOM `KeyboardEvent.key`, `code`, `keyCode`, `location`. */
      key: string
      code: string
      keyCode: number
      location: number
      /** The character typed, for a printable key pressed without Ctrl or Meta. */
      text?: string
      modifiers: number
      repeat: boolean
    }
  /** Text to insert at the caret as typed (a paste, an IME composition): `Input.insertText`. */
  | { type: 'text'; text: string }
  | { type: 'navigate'; url: string }
  | { type: 'back' }
  | { type: 'forward' }
  | { type: 'reload' }

/** Bounds of a viewer's input: a page is never larger than this many CSS pixels each way. */
export const MAX_COORDINATE = 100_000
/** Longest text one `text` message inserts (a paste); longer ones are refused. */
const MAX_INSERT_CHARS = 100_000

const coordinate = { type: 'number', minimum: -MAX_COORDINATE, maximum: MAX_COORDINATE }
const modifiers = { type: 'integer', minimum: 0, maximum: 15 }
const only = (type: string, properties: Record<string, object> = {}, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', ...required],
  properties: { type: { const: type }, ...properties },
})

/** JSON Schema (draft 7) of {@link ScreencastViewerMessage}: the server checks each message. */
export const SCREENCAST_VIEWER_MESSAGE_SCHEMA = {
  oneOf: [
    only('ack'),
    only(
      'mouse',
      {
        action: { enum: ['move', 'down', 'up'] },
        x: coordinate,
        y: coordinate,
        button: { enum: ['none', 'left', 'middle', 'right'] },
        buttons: { type: 'integer', minimum: 0, maximum: 31 },
        clickCount: { type: 'integer', minimum: 0, maximum: 3 },
        modifiers,
      },
      ['action', 'x', 'y', 'button', 'buttons', 'clickCount', 'modifiers'],
    ),
    only(
      'wheel',
      {
        x: coordinate,
        y: coordinate,
        deltaX: coordinate,
        deltaY: coordinate,
        modifiers,
      },
      ['x', 'y', 'deltaX', 'deltaY', 'modifiers'],
    ),
    only(
      'key',
      {
        action: { enum: ['down', 'up'] },
        key: { type: 'string', minLength: 1, maxLength: 40 },
        code: { type: 'string', maxLength: 40 },
        keyCode: { type: 'integer', minimum: 0, maximum: 255 },
        location: { type: 'integer', minimum: 0, maximum: 3 },
        text: { type: 'string', minLength: 1, maxLength: 4 },
        modifiers,
        repeat: { type: 'boolean' },
      },
      ['action', 'key', 'code', 'keyCode', 'location', 'modifiers', 'repeat'],
    ),
    only('text', { text: { type: 'string', minLength: 1, maxLength: MAX_INSERT_CHARS } }, ['text']),
    only('navigate', { url: { type: 'string', minLength: 1, maxLength: 8192 } }, ['url']),
    only('back'),
    only('forward'),
    only('reload'),
  ],
} as const

/**
 * The address a person typed in the view's URL bar, as a browser's address bar reads it: a full
 * http(s) URL as is; a bare host (`example.com/path`) gets `https://`, a loopback or IP host
 * `http://` (local sites rarely have TLS). Returns null for anything else (`file:`, `javascript:`,
 * `chrome:`), which the recording browser never opens: only http and https pages are recorded.
 */
export function typedAddress(typed: string): string | null {
  const text = typed.trim()
  if (!text || /\s/.test(text)) return null
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
  let candidate = text
  if (!hasScheme) {
    if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) return null
    const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|\d+\.\d+\.\d+\.\d+)(:\d+)?(\/|$)/i
    candidate = `${local.test(text) ? 'http' : 'https'}://${text}`
  }
  return httpUrl(candidate)?.href ?? null
}
