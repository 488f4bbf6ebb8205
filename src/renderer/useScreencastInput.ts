import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type RefObject } from 'react'
import type { ScreencastFrame, ScreencastViewerMessage } from '../shared/screencast'
import { keyMessage, mouseMessage, wheelMessage, type Stage } from './screencastInput'

/** The picture's elements the person's input is read from and mapped onto. */
export interface ScreencastElements {
  stage: RefObject<HTMLDivElement | null>
  picture: RefObject<HTMLImageElement | null>
  address: RefObject<HTMLInputElement | null>
}

/**
 * The person's mouse, wheel and keys on the live picture, sent to the remote tab: coordinates
 * mapped from the scaled picture to the page's CSS pixels (`screencastInput.ts`), moves sent at
 * most once per animation frame, each frame acknowledged once the picture holds it (the server
 * sends the next only then), F6 to the address bar. Returns the handlers for the stage element.
 */
export function useScreencastInput(
  frame: ScreencastFrame | null,
  send: (message: ScreencastViewerMessage) => void,
  elements: ScreencastElements,
): {
  mouse(action: 'move' | 'down' | 'up'): (e: MouseEvent) => void
  key(action: 'down' | 'up'): (e: KeyboardEvent) => void
} {
  const pendingMove = useRef<ScreencastViewerMessage | null>(null)

  const stage = (): Stage | null => {
    const img = elements.picture.current
    if (!img || !frame) return null
    const box = img.getBoundingClientRect()
    return {
      left: box.left,
      top: box.top,
      width: box.width,
      height: box.height,
      pageWidth: frame.width,
      pageHeight: frame.height,
    }
  }

  useEffect(() => {
    const img = elements.picture.current
    if (!frame || !img) return
    let current = true
    void img
      .decode()
      .catch(() => undefined)
      .then(() => current && send({ type: 'ack' }))
    return () => {
      current = false
    }
  }, [frame, send, elements.picture])

  // Wheel listeners React adds are passive: this one must stop the app's page from scrolling.
  useEffect(() => {
    const el = elements.stage.current
    if (!el) return
    const onWheel = (e: WheelEvent) => {
      const at = stage()
      if (!at) return
      e.preventDefault()
      send(wheelMessage(at, e))
    }
    el.addEventListener('wheel', onWheel, { passive: false })
    return () => el.removeEventListener('wheel', onWheel)
  })

  const mouse = (action: 'move' | 'down' | 'up') => (e: MouseEvent) => {
    const at = stage()
    if (!at) return
    // Without preventScroll the browser scrolls the tall picture into view under the pointer,
    // and the release lands elsewhere on the page than the press.
    if (action === 'down') elements.stage.current?.focus({ preventScroll: true })
    if (action !== 'move') {
      e.preventDefault()
      pendingMove.current = null
      return send(mouseMessage(at, action, e))
    }
    // Moves go at most once per animation frame: the latest one counts.
    const waiting = pendingMove.current !== null
    pendingMove.current = mouseMessage(at, 'move', e)
    if (!waiting)
      requestAnimationFrame(() => {
        if (pendingMove.current) send(pendingMove.current)
        pendingMove.current = null
      })
  }

  const key = (action: 'down' | 'up') => (e: KeyboardEvent) => {
    if (e.key === 'F6') {
      e.preventDefault()
      if (action === 'down') elements.address.current?.focus()
      return
    }
    // Ctrl/Cmd+V stays with this page, whose paste event sends the clipboard's text.
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'v') return
    const message = keyMessage(action, e)
    if (!message) return
    e.preventDefault()
    send(message)
  }

  return { mouse, key }
}
