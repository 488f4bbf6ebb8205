import { EventEmitter } from 'node:events'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { startScreencast } from '../../../src/main/browse/screencast'
import type { ScreencastServerMessage } from '../../../src/shared/screencast'

/**
 * A CDP session whose history answers only when the test lets it: what a busy main process
 * sees when Chromium's events arrive in one burst, ahead of the answers to its own calls.
 */
function slowHistorySession() {
  const events = new EventEmitter()
  const held: Array<() => void> = []
  const history = {
    currentIndex: 0,
    entries: [{ id: 1, url: 'http://127.0.0.1:9/a', title: 'A' }],
  }
  const session = {
    on: (name: string, listener: (...args: unknown[]) => void) => events.on(name, listener),
    detach: async () => undefined,
    send: async (method: string) => {
      if (method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'main' } } }
      if (method === 'Page.getNavigationHistory')
        return new Promise((done) => held.push(() => done(history)))
      return {}
    },
  }
  const release = () => held.splice(0).forEach((answer) => answer())
  return { session, events, release }
}

describe('startScreencast page messages', () => {
  it('says a page was loading even when it stopped before its history came back', async () => {
    const { session, events, release } = slowHistorySession()
    const page = { isClosed: () => false, url: () => 'http://127.0.0.1:9/a', once: () => page }
    const context = {
      pages: () => [page],
      on: () => context,
      off: () => context,
      newCDPSession: async () => session,
    }
    const got: ScreencastServerMessage[] = []
    const starting = startScreencast(
      context as unknown as BrowserContext,
      page as unknown as Page,
      { send: (m) => got.push(m) },
    )
    await new Promise((done) => setImmediate(done))
    release()
    await starting

    // A reload of a quick page: started, navigated and stopped all before any answer.
    events.emit('Page.frameStartedLoading', { frameId: 'main' })
    events.emit('Page.frameNavigated', { frame: { id: 'main' } })
    events.emit('Page.frameStoppedLoading', { frameId: 'main' })
    release()
    await new Promise((done) => setImmediate(done))

    const loading = got.flatMap((m) => (m.type === 'page' ? [m.loading] : []))
    expect(loading).toEqual([false, true, true, false])
  })
})
