import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import {
  keyMessage,
  modifierBits,
  mouseMessage,
  pagePoint,
  wheelMessage,
  type Stage,
} from '../../../src/renderer/screencastInput'
import { SCREENCAST_VIEWER_MESSAGE_SCHEMA, typedAddress } from '../../../src/shared/screencast'

/** A 1280×720 page shown at half size, its box 100 px from the left and 50 from the top. */
const half: Stage = {
  left: 100,
  top: 50,
  width: 640,
  height: 360,
  pageWidth: 1280,
  pageHeight: 720,
}
const none = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false }
const valid = new Ajv({ strict: false }).compile(SCREENCAST_VIEWER_MESSAGE_SCHEMA)

describe('pagePoint', () => {
  it('maps a point of the scaled picture to the page’s CSS pixels', () => {
    expect(pagePoint(half, 100, 50)).toEqual({ x: 0, y: 0 })
    expect(pagePoint(half, 420, 230)).toEqual({ x: 640, y: 360 })
    expect(pagePoint(half, 740, 410)).toEqual({ x: 1280, y: 720 })
    // Shown larger than the page (zoomed in): each picture pixel is less than a CSS pixel.
    const zoomed = { ...half, width: 2560, height: 1440 }
    expect(pagePoint(zoomed, 101, 51)).toEqual({ x: 0.5, y: 0.5 })
  })

  it('clamps points outside the picture to its edge', () => {
    expect(pagePoint(half, 0, 0)).toEqual({ x: 0, y: 0 })
    expect(pagePoint(half, 5000, 5000)).toEqual({ x: 1280, y: 720 })
  })
})

describe('viewer messages', () => {
  it('makes mouse presses with CDP’s button names, click counts and modifier bits', () => {
    const down = mouseMessage(half, 'down', {
      ...none,
      shiftKey: true,
      ctrlKey: true,
      clientX: 420,
      clientY: 230,
      button: 2,
      buttons: 2,
      detail: 2,
    })
    expect(down).toEqual({
      type: 'mouse',
      action: 'down',
      x: 640,
      y: 360,
      button: 'right',
      buttons: 2,
      clickCount: 2,
      modifiers: 10,
    })
    expect(valid(down)).toBe(true)
    const move = mouseMessage(half, 'move', {
      ...none,
      clientX: 110,
      clientY: 60,
      button: 0,
      buttons: 1,
      detail: 0,
    })
    // A move with the left button held is a drag: CDP is told which button.
    expect(move).toMatchObject({ button: 'left', clickCount: 0, buttons: 1, x: 20, y: 20 })
    expect(valid(move)).toBe(true)
  })

  it('turns wheel lines and pages into CSS pixels', () => {
    const at = { ...none, clientX: 420, clientY: 230 }
    expect(wheelMessage(half, { ...at, deltaX: 0, deltaY: 3, deltaMode: 1 })).toMatchObject({
      deltaY: 48,
    })
    expect(wheelMessage(half, { ...at, deltaX: 0, deltaY: 1, deltaMode: 2 })).toMatchObject({
      deltaY: 720,
    })
    expect(valid(wheelMessage(half, { ...at, deltaX: -5, deltaY: 120, deltaMode: 0 }))).toBe(true)
  })

  it('gives printable keys their text, shortcuts and named keys none', () => {
    const key = (key: string, code: string, keyCode: number, mods = none) => ({
      ...mods,
      key,
      code,
      keyCode,
      location: 0,
      repeat: false,
    })
    expect(keyMessage('down', key('a', 'KeyA', 65))).toMatchObject({ text: 'a', modifiers: 0 })
    expect(keyMessage('up', key('a', 'KeyA', 65))).not.toHaveProperty('text')
    expect(keyMessage('down', key('a', 'KeyA', 65, { ...none, ctrlKey: true }))).not.toHaveProperty(
      'text',
    )
    expect(keyMessage('down', key('Enter', 'Enter', 13))).not.toHaveProperty('text')
    // AltGr (Ctrl+Alt on Windows) types its character.
    expect(
      keyMessage('down', key('@', 'KeyQ', 81, { ...none, ctrlKey: true, altKey: true })),
    ).toMatchObject({ text: '@' })
    expect(keyMessage('down', key('Unidentified', '', 0))).toBeNull()
    expect(valid(keyMessage('down', key('é', 'Quote', 222)))).toBe(true)
    expect(valid(keyMessage('down', key('Tab', 'Tab', 9, { ...none, shiftKey: true })))).toBe(true)
  })

  it('has the schema refuse what the server must not run', () => {
    expect(valid({ type: 'mouse', action: 'fly', x: 1, y: 1 })).toBe(false)
    expect(valid({ type: 'ack', extra: 1 })).toBe(false)
    expect(valid({ type: 'text', text: '' })).toBe(false)
    expect(valid({ type: 'eval', code: 'alert(1)' })).toBe(false)
    expect(valid({ type: 'navigate', url: 'https://example.com/' })).toBe(true)
  })

  it('counts modifier bits as CDP does', () => {
    expect(modifierBits({ altKey: true, ctrlKey: true, metaKey: true, shiftKey: true })).toBe(15)
  })
})

describe('typedAddress', () => {
  it('reads an address bar’s text as a browser does, http and https only', () => {
    expect(typedAddress('https://example.com/a?b=1')).toBe('https://example.com/a?b=1')
    expect(typedAddress(' example.com/path ')).toBe('https://example.com/path')
    expect(typedAddress('localhost:3000/x')).toBe('http://localhost:3000/x')
    expect(typedAddress('127.0.0.1:8080')).toBe('http://127.0.0.1:8080/')
    expect(typedAddress('javascript:alert(1)')).toBeNull()
    expect(typedAddress('file:///etc/passwd')).toBeNull()
    expect(typedAddress('chrome://settings')).toBeNull()
    expect(typedAddress('two words')).toBeNull()
    expect(typedAddress('')).toBeNull()
  })
})
