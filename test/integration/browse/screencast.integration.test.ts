import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startScreencast, type Screencast } from '../../../src/main/browse/screencast'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { startRecording, type Recording } from '../../../src/main/recorder'
import type {
  ScreencastServerMessage,
  ScreencastViewerMessage,
} from '../../../src/shared/screencast'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import {
  registerScreencastIpc,
  SCREENCAST_CHANNEL,
  type IpcMainPortsLike,
  type PortLike,
} from '../../../src/main/desktop/screencastIpc'

const CHROMIUM = '/usr/bin/chromium'
const INTENT = 'search the AI tools directory by keyword'

let site: DirectorySite
let dir: string

beforeAll(async () => {
  site = await startDirectorySite()
  dir = mkdtempSync(join(tmpdir(), 'sitecall-screencast-'))
})

afterAll(async () => {
  await site.close()
  rmSync(dir, { recursive: true, force: true })
})

/** What a viewer got, and a way to wait for the next message that matches. */
function viewer() {
  const got: ScreencastServerMessage[] = []
  const waiters: Array<{ test: (m: ScreencastServerMessage) => boolean; done: () => void }> = []
  return {
    got,
    send(message: ScreencastServerMessage) {
      got.push(message)
      for (const w of waiters.splice(0))
        if (w.test(message)) w.done()
        else waiters.push(w)
    },
    /** Resolves with the first message (already got or next) that passes `test`. */
    async next<T extends ScreencastServerMessage>(
      test: (m: ScreencastServerMessage) => m is T,
      from = 0,
    ): Promise<T> {
      const seen = got.slice(from).find(test)
      if (seen) return seen
      // A wait that never ends says what did come, not just that the test timed out.
      await new Promise<void>((done, fail) => {
        const timer = setTimeout(() => {
          const said = got.slice(from).map((m) => (m.type === 'page' ? JSON.stringify(m) : m.type))
          fail(new Error(`no such message within 20 s; got since: ${said.join(', ') || 'none'}`))
        }, 20_000)
        waiters.push({ test, done: () => (clearTimeout(timer), done()) })
      })
      return got.slice(from).find(test)!
    },
  }
}

const isFrame = (m: ScreencastServerMessage): m is Extract<typeof m, { type: 'frame' }> =>
  m.type === 'frame'
/** A loaded page whose URL is `url`, or starts with it when `prefix`. */
const pageAt =
  (url: string, prefix = true) =>
  (m: ScreencastServerMessage): m is Extract<typeof m, { type: 'page' }> =>
    m.type === 'page' && (prefix ? m.url.startsWith(url) : m.url === url) && !m.loading
const isError = (m: ScreencastServerMessage): m is Extract<typeof m, { type: 'error' }> =>
  m.type === 'error'
const isGone = (m: ScreencastServerMessage): m is Extract<typeof m, { type: 'gone' }> =>
  m.type === 'gone'

/** Key down and up of each character, as a viewer sends them for typing. */
function typed(text: string): ScreencastViewerMessage[] {
  return [...text].flatMap((ch): ScreencastViewerMessage[] => {
    const key = {
      key: ch,
      code: `Key${ch.toUpperCase()}`,
      keyCode: ch.toUpperCase().charCodeAt(0),
      location: 0,
      modifiers: 0,
      repeat: false,
    }
    return [
      { type: 'key', action: 'down', ...key, text: ch },
      { type: 'key', action: 'up', ...key },
    ]
  })
}

const enter: ScreencastViewerMessage[] = (['down', 'up'] as const).map((action) => ({
  type: 'key',
  action,
  key: 'Enter',
  code: 'Enter',
  keyCode: 13,
  location: 0,
  modifiers: 0,
  repeat: false,
}))

// Each test drives its own recording browser: ~4 s alone, past 30 s on a loaded 2-core machine.
describe('startScreencast on a recording browser', { timeout: 90_000 }, () => {
  let recording: Recording
  let cast: Screencast | null = null

  afterEach(async () => {
    await cast?.close()
    cast = null
    await recording.stop()
  })

  const record = async () =>
    (recording = await startRecording({
      chromiumPath: CHROMIUM,
      url: `${site.url}/`,
      intent: INTENT,
      traceId: 'trc_screencast',
      sessionId: 'rec_screencast',
      headless: true,
    }))

  it('casts frames one ack at a time, and clicks and types through CSS pixels', async () => {
    await record()
    const seen = viewer()
    cast = await startScreencast(recording.context, recording.page, seen)
    const first = await seen.next(isFrame)
    // A JPEG (base64 of FF D8 FF) of the whole viewport, measured in CSS pixels.
    expect(first.data.startsWith('/9j/')).toBe(true)
    expect({ width: first.width, height: first.height }).toEqual(recording.page.viewportSize())
    await seen.next(pageAt(site.url))

    // The page changes and paints twice over, but without an ack no second frame is sent.
    await recording.page.evaluate(() => {
      document.body.style.background = 'rgb(200, 230, 255)'
      return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    })
    expect(seen.got.filter(isFrame)).toHaveLength(1)
    const before = seen.got.length
    await cast.handle({ type: 'ack' })
    await seen.next(isFrame, before)

    // A click at the field's centre (CSS pixels), then keys: the page gets what a person typed.
    const box = (await recording.page.locator('#q').boundingBox())!
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    for (const action of ['down', 'up'] as const)
      await cast.handle({
        type: 'mouse',
        action,
        ...at,
        button: 'left',
        buttons: action === 'down' ? 1 : 0,
        clickCount: 1,
        modifiers: 0,
      })
    for (const message of [...typed('writ'), { type: 'text', text: 'ing' } as const, ...enter])
      await cast.handle(message)
    expect(await recording.page.locator('#q').inputValue()).toBe('writing')
    await expect
      .poll(() => recording.page.locator('#results li').count(), { timeout: 10_000 })
      .toBeGreaterThan(0)
    const trace = await recording.stop()
    expect(
      trace.exchanges.some(
        (e) => e.url.endsWith('/api/search') && JSON.stringify(e.requestBody).includes('writing'),
      ),
    ).toBe(true)
  })

  it('scrolls by the wheel, goes to a typed address, back and forward, and refuses others', async () => {
    await record()
    const seen = viewer()
    cast = await startScreencast(recording.context, recording.page, seen)
    await seen.next(pageAt(site.url))
    await recording.page.evaluate(() => (document.body.style.height = '5000px'))
    await cast.handle({ type: 'wheel', x: 200, y: 200, deltaX: 0, deltaY: 600, modifiers: 0 })
    await expect.poll(() => recording.page.evaluate(() => window.scrollY)).toBeGreaterThan(0)

    let from = seen.got.length
    await cast.handle({ type: 'navigate', url: `${site.url}/search?query=code` })
    const searched = await seen.next(pageAt(`${site.url}/search`), from)
    expect(searched.canGoBack).toBe(true)
    expect(searched.canGoForward).toBe(false)

    from = seen.got.length
    await cast.handle({ type: 'back' })
    const back = await seen.next(pageAt(`${site.url}/`, false), from)
    expect(back.canGoForward).toBe(true)
    from = seen.got.length
    await cast.handle({ type: 'forward' })
    await seen.next(pageAt(`${site.url}/search`), from)

    // Reload loads the same address again: loading, then loaded, and the page is a new one.
    await recording.page.evaluate(() => ((window as unknown as { mark: number }).mark = 1))
    from = seen.got.length
    await cast.handle({ type: 'reload' })
    await seen.next(
      (m): m is Extract<typeof m, { type: 'page' }> => m.type === 'page' && m.loading,
      from,
    )
    const reloaded = await seen.next(pageAt(`${site.url}/search`), from)
    expect(reloaded.url).toBe(`${site.url}/search?query=code`)
    expect(await recording.page.evaluate(() => 'mark' in window)).toBe(false)

    from = seen.got.length
    await cast.handle({ type: 'navigate', url: 'javascript:alert(1)' })
    await cast.handle({ type: 'navigate', url: 'file:///etc/passwd' })
    const refused = seen.got.slice(from).filter(isError)
    expect(refused.map((e) => e.code)).toEqual(['invalid_input', 'invalid_input'])
    expect(recording.page.url()).toContain('/search')
  })

  it('casts to two viewers at once (two app tabs); closing one leaves the other casting', async () => {
    await record()
    const seen = [viewer(), viewer()]
    const casts = [
      await startScreencast(recording.context, recording.page, seen[0]!),
      await startScreencast(recording.context, recording.page, seen[1]!),
    ]
    cast = casts[1]!
    for (const v of seen) await v.next(isFrame)
    const repaint = (colour: string) =>
      recording.page.evaluate((c) => {
        document.body.style.background = c
        return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      }, colour)
    const from = seen.map((v) => v.got.length)
    for (const c of casts) await c.handle({ type: 'ack' })
    await repaint('rgb(255, 240, 200)')
    await Promise.all(seen.map((v, i) => v.next(isFrame, from[i])))
    await casts[0]!.close()
    const after = seen[1]!.got.length
    await casts[1]!.handle({ type: 'ack' })
    await repaint('rgb(200, 255, 200)')
    await seen[1]!.next(isFrame, after)
  })

  it('follows a tab the page opens, and says gone when the last tab closes', async () => {
    await record()
    const seen = viewer()
    cast = await startScreencast(recording.context, recording.page, seen)
    await seen.next(pageAt(site.url))
    const from = seen.got.length
    const popup = recording.context.waitForEvent('page')
    await recording.page.evaluate((url) => window.open(url), `${site.url}/search?query=image`)
    await popup
    await seen.next(pageAt(`${site.url}/search`), from)
    for (const page of recording.context.pages()) await page.close()
    const gone = await seen.next(isGone)
    expect(gone.reason).toMatch(/tab was closed|went away/)
  })
})

/** The status of an upgrade request to the screencast route: 101, or the refusal's status. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-version': '13',
        ...headers,
      },
    })
    req.on('upgrade', (res, socket) => {
      socket.destroy()
      resolve(res.statusCode ?? 0)
    })
    req.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Opens the route as a browser would and collects its messages until it closes. */
function openView(url: string, origin: string) {
  const ws = new WebSocket(url, { headers: { origin } })
  const got: ScreencastServerMessage[] = []
  const closed = new Promise<number>((done) => ws.addEventListener('close', (e) => done(e.code)))
  ws.addEventListener('message', (e) => got.push(JSON.parse(String(e.data))))
  const opened = new Promise<void>((done) => ws.addEventListener('open', () => done()))
  return { ws, got, closed, opened }
}

describe('GET /app-api/screencast/:sessionId', { timeout: 90_000 }, () => {
  let core: Core
  let base: string
  let home: string

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-screencast-core-'))
    core = createCore({ home, port: 0, headless: true, rendererDir: null, keychain: null })
    base = await core.listen()
  })

  afterAll(async () => {
    await core.close()
    rmSync(home, { recursive: true, force: true })
  })

  it('upgrades for the owner token from the app’s own origin only', async () => {
    const path = `${base}/app-api/screencast/rec_none`
    const { key } = core.store.keys.create(
      { id: 'key_screencast', tenant: LOCAL_TENANT, label: 'screencast' },
      Date.now(),
    )
    expect(await upgradeStatus(path, {})).toBe(401)
    expect(await upgradeStatus(`${path}?token=${key}`, {})).toBe(403)
    expect(
      await upgradeStatus(`${path}?token=${core.ownerToken}`, { origin: 'http://evil.example' }),
    ).toBe(403)
    expect(await upgradeStatus(`${path}?token=${core.ownerToken}`, { origin: base })).toBe(101)
    // No other route takes an upgrade (the plugin hands every upgrade request to Fastify).
    const events = `${base}/app-api/events?token=${core.ownerToken}`
    expect(await upgradeStatus(events, { origin: base })).toBe(400)
    // Not as a WebSocket: a plain GET is refused with the interface's error body.
    const plain = await fetch(`${path}?token=${core.ownerToken}`)
    expect(plain.status).toBe(400)
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('bad_request')
  })

  it('says gone for a recording that is not running', async () => {
    const view = openView(
      `${base.replace('http', 'ws')}/app-api/screencast/rec_none?token=${core.ownerToken}`,
      base,
    )
    expect(await view.closed).toBe(4404)
    expect(view.got).toEqual([{ type: 'gone', reason: 'No recording rec_none is running.' }])
  })

  it('casts the running recording, refuses a malformed message, and ends with its browser', async () => {
    const state = await core.recordings.start({ url: `${site.url}/`, intent: INTENT })
    expect(state.view).toBe('screencast')
    const view = openView(
      `${base.replace('http', 'ws')}/app-api/screencast/${state.sessionId}?token=${core.ownerToken}`,
      base,
    )
    await view.opened
    await expect.poll(() => view.got.some((m) => m.type === 'frame')).toBe(true)
    view.ws.send(JSON.stringify({ type: 'mouse', action: 'fly', x: 1, y: 1 }))
    view.ws.send('not json')
    await expect
      .poll(() =>
        view.got.filter((m) => m.type === 'error').map((m) => m.type === 'error' && m.code),
      )
      .toEqual(['invalid_input', 'invalid_input'])
    // Typing through the socket reaches the recorded page.
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#q').focus()
    for (const message of typed('chat')) view.ws.send(JSON.stringify(message))
    await expect.poll(() => page.locator('#q').inputValue()).toBe('chat')
    await core.recordings.stop(state.sessionId)
    expect(await view.closed).toBe(4410)
    expect(view.got.some((m) => m.type === 'gone')).toBe(true)
  })
})

/** Electron's MessagePortMain at the OS edge: what main posts, and a way to post to main. */
function fakePort() {
  const listeners = {
    message: [] as Array<(e: { data: unknown }) => void>,
    close: [] as Array<() => void>,
  }
  const got: ScreencastServerMessage[] = []
  let closed = false
  const port: PortLike = {
    postMessage: (message) => void got.push(message as ScreencastServerMessage),
    on: ((event: 'message' | 'close', listener: never) =>
      void listeners[event].push(listener)) as PortLike['on'],
    start: () => undefined,
    close: () => void (closed = true),
  }
  return {
    port,
    got,
    isClosed: () => closed,
    post: (data: unknown) => listeners.message.forEach((l) => l({ data })),
    hangUp: () => listeners.close.forEach((l) => l()),
  }
}

describe('the desktop window’s view (message port over IPC)', { timeout: 90_000 }, () => {
  const APP_URL = 'file:///opt/sitecall/out/renderer/index.html'
  let core: Core
  let home: string
  let open: (event: { ports: PortLike[]; senderFrame?: unknown }, input: unknown) => void

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-screencast-ipc-'))
    core = createCore({ home, port: 0, headless: true, rendererDir: null, keychain: null })
    const ipcMain: IpcMainPortsLike = {
      on: (channel, listener) => {
        expect(channel).toBe(SCREENCAST_CHANNEL)
        open = listener
      },
    }
    registerScreencastIpc(ipcMain, core.recordings, APP_URL)
  })

  afterAll(async () => {
    await core.close()
    rmSync(home, { recursive: true, force: true })
  })

  it('closes a port from another frame unanswered, and says gone for no recording', () => {
    const stranger = fakePort()
    open(
      { ports: [stranger.port], senderFrame: { url: 'https://evil.example/', parent: null } },
      {
        sessionId: 'rec_none',
      },
    )
    expect(stranger.isClosed()).toBe(true)
    expect(stranger.got).toEqual([])
    const app = fakePort()
    open(
      { ports: [app.port], senderFrame: { url: APP_URL, parent: null } },
      { sessionId: 'rec_none' },
    )
    expect(app.got).toEqual([{ type: 'gone', reason: 'No recording rec_none is running.' }])
    expect(app.isClosed()).toBe(true)
  })

  it('casts the running recording to the window and types what it sends', async () => {
    const state = await core.recordings.start({ url: `${site.url}/`, intent: INTENT })
    const view = fakePort()
    open(
      { ports: [view.port], senderFrame: { url: APP_URL, parent: null } },
      { sessionId: state.sessionId },
    )
    await expect.poll(() => view.got.some((m) => m.type === 'frame')).toBe(true)
    view.post({ type: 'reload', extra: true })
    await expect.poll(() => view.got.some((m) => m.type === 'error')).toBe(true)
    const page = core.recordings.recording(state.sessionId)!.page
    await page.locator('#q').focus()
    for (const message of typed('code')) view.post(message)
    await expect.poll(() => page.locator('#q').inputValue()).toBe('code')
    view.hangUp()
    await core.recordings.stop(state.sessionId)
  })
})
