import {
  MAX_COORDINATE,
  MODIFIER_BITS,
  type MouseButton,
  type ScreencastViewerMessage,
} from '../shared/screencast'

/** The image's box on screen and the page's viewport in CSS pixels it shows. */
export interface Stage {
  left: number
  top: number
  width: number
  height: number
  pageWidth: number
  pageHeight: number
}

/** What of a DOM mouse or keyboard event says which modifier keys were held. */
interface Modifiers {
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
}

/** CDP's modifier bits (Alt 1, Ctrl 2, Meta 4, Shift 8) of a DOM event. */
export function modifierBits(e: Modifiers): number {
  return (
    (e.altKey ? MODIFIER_BITS.alt : 0) |
    (e.ctrlKey ? MODIFIER_BITS.ctrl : 0) |
    (e.metaKey ? MODIFIER_BITS.meta : 0) |
    (e.shiftKey ? MODIFIER_BITS.shift : 0)
  )
}

/**
 * Maps a point on the scaled image (client pixels) to the page's CSS pixels: the image shows the
 * whole viewport, so the scale is the viewport's size over the box's. Points outside the box are
 * clamped to its edge (a drag that leaves the image still ends on the page).
 */
export function pagePoint(
  stage: Stage,
  clientX: number,
  clientY: number,
): { x: number; y: number } {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max)
  const sx = stage.width > 0 ? stage.pageWidth / stage.width : 1
  const sy = stage.height > 0 ? stage.pageHeight / stage.height : 1
  return {
    x: Math.round(clamp((clientX - stage.left) * sx, stage.pageWidth) * 100) / 100,
    y: Math.round(clamp((clientY - stage.top) * sy, stage.pageHeight) * 100) / 100,
  }
}

/** DOM `MouseEvent.button` (0 left, 1 middle, 2 right) as CDP names it. */
function buttonName(button: number): MouseButton {
  return button === 0 ? 'left' : button === 1 ? 'middle' : button === 2 ? 'right' : 'none'
}

/** The button a drag holds, from DOM `MouseEvent.buttons` (left 1, right 2, middle 4). */
function heldButton(buttons: number): MouseButton {
  return buttons & 1 ? 'left' : buttons & 2 ? 'right' : buttons & 4 ? 'middle' : 'none'
}

interface MouseLike extends Modifiers {
  clientX: number
  clientY: number
  button: number
  buttons: number
  /** The click count of a mousedown/mouseup (1 single, 2 double). */
  detail: number
}

/** A mouse move, press or release on the image, as the viewer message that replays it. */
export function mouseMessage(
  stage: Stage,
  action: 'move' | 'down' | 'up',
  e: MouseLike,
): ScreencastViewerMessage {
  const { x, y } = pagePoint(stage, e.clientX, e.clientY)
  return {
    type: 'mouse',
    action,
    x,
    y,
    // A move names the button held (a drag), as Chromium's own input does.
    button: action === 'move' ? heldButton(e.buttons) : buttonName(e.button),
    buttons: Math.min(Math.max(e.buttons, 0), 31),
    clickCount: action === 'move' ? 0 : Math.min(Math.max(e.detail, 1), 3),
    modifiers: modifierBits(e),
  }
}

/** WheelEvent.deltaMode: pixels, lines, pages. */
const LINE_PX = 16

interface WheelLike extends Modifiers {
  clientX: number
  clientY: number
  deltaX: number
  deltaY: number
  deltaMode: number
}

/** A wheel turn as a scroll of the page in CSS pixels (lines count 16 px, pages a viewport). */
export function wheelMessage(stage: Stage, e: WheelLike): ScreencastViewerMessage {
  const { x, y } = pagePoint(stage, e.clientX, e.clientY)
  const unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? stage.pageHeight : 1
  const bound = (v: number) => Math.min(Math.max(v * unit, -MAX_COORDINATE), MAX_COORDINATE)
  return {
    type: 'wheel',
    x,
    y,
    deltaX: bound(e.deltaX),
    deltaY: bound(e.deltaY),
    modifiers: modifierBits(e),
  }
}

interface KeyLike extends Modifiers {
  key: string
  code: string
  keyCode: number
  location: number
  repeat: boolean
}

/**
 * A key press or release as the viewer message that replays it. A printable key (one character)
 * pressed without Ctrl or Meta (or with AltGr) carries its text, so the page types it; other keys (Enter, Tab,
 * arrows, shortcuts) go as keys only. Keys DOM cannot name (`Unidentified`, over 40 characters)
 * give null.
 */
export function keyMessage(action: 'down' | 'up', e: KeyLike): ScreencastViewerMessage | null {
  if (!e.key || e.key === 'Unidentified' || e.key.length > 40 || e.code.length > 40) return null
  // Ctrl+Alt together is AltGr on Windows layouts (@, €, {): it types, it is no shortcut.
  const altGr = e.ctrlKey && e.altKey && !e.metaKey
  const printable = [...e.key].length === 1 && ((!e.ctrlKey && !e.metaKey) || altGr)
  return {
    type: 'key',
    action,
    key: e.key,
    code: e.code,
    keyCode: Math.min(Math.max(e.keyCode, 0), 255),
    location: Math.min(Math.max(e.location, 0), 3),
    ...(printable && action === 'down' ? { text: e.key } : {}),
    modifiers: modifierBits(e),
    repeat: e.repeat,
  }
}
