import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { APP_API_METHODS, type AppResult } from '../../../src/shared/appApi'
import { createAppDispatch } from '../../../src/main/app/appDispatch'
import { createCore, type Core } from '../../../src/main/core'
import { EVENT_CHANNEL, forwardEvents, registerIpc } from '../../../src/main/desktop/ipc'

type Handler = (event: unknown, input: unknown) => Promise<AppResult<unknown>>

/** The built renderer's page, and an IPC event from its top frame (Electron's `senderFrame`). */
const APP_URL = 'file:///opt/sitecall/out/renderer/index.html'
const FROM_APP = { senderFrame: { url: `${APP_URL}#/tools`, parent: null } }

/** A stand-in for Electron's ipcMain: the OS edge, the only place a fake is allowed. */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>()
  return {
    handlers,
    handle(channel: string, fn: Handler) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, fn)
    },
  }
}

describe('the IPC table', () => {
  let home: string
  let core: Core
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'sitecall-ipc-'))
    core = createCore({ home, rendererDir: null })
  })
  afterEach(async () => {
    await core.close()
    rmSync(home, { recursive: true, force: true })
  })

  it('registers exactly one channel per contract method and nothing else', () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers), APP_URL)
    expect([...ipc.handlers.keys()].sort()).toEqual([...APP_API_METHODS].sort())
  })

  it('answers a method as {ok:true,value} from the real core', async () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers), APP_URL)
    const created = (await ipc.handlers.get('keys.create')!(FROM_APP, {
      label: 'desktop',
    })) as AppResult<{ key: string }>
    expect(created.ok).toBe(true)
    const listed = await ipc.handlers.get('keys.list')!(FROM_APP, {})
    expect(listed).toMatchObject({ ok: true, value: [{ label: 'desktop' }] })
    expect(JSON.stringify(listed)).not.toContain(created.ok ? created.value.key : 'unreachable')
  })

  it('carries errors as values with their code, since Electron keeps only an error message', async () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers), APP_URL)
    expect(await ipc.handlers.get('tools.get')!(FROM_APP, { id: 'nope' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No tool nope.' },
    })
    const bad = await ipc.handlers.get('recorder.start')!(FROM_APP, { url: 5 })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('carries Settings → Link to a server (sync.*) to the real core: status, refusals by code', async () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers), APP_URL)
    const call = (method: string, input: unknown) => ipc.handlers.get(method)!(FROM_APP, input)
    expect(await call('sync.status', {})).toMatchObject({
      ok: true,
      value: { available: true, link: null, linking: null, outbox: 0, conflicts: [], error: null },
    })
    const sent: unknown[] = []
    const off = forwardEvents(core.events, (_channel, payload) => sent.push(payload))
    expect(await call('sync.link', { serverUrl: 'not a url' })).toMatchObject({
      ok: true,
      value: { link: null, error: { code: 'invalid_server_url' } },
    })
    off()
    expect(sent).toMatchObject([
      { event: 'sync.changed', data: { status: { error: { code: 'invalid_server_url' } } } },
    ])
    expect(await call('sync.run', {})).toMatchObject({
      ok: true,
      value: { error: { code: 'not_linked' } },
    })
    expect(await call('sync.take', { toolId: 't', side: 'both' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await call('sync.link', { serverUrl: 'https://x.example', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
  })

  it("refuses every method from a frame that is not the app's own top page (issue 13 item 7)", async () => {
    const ipc = fakeIpcMain()
    const called: string[] = []
    registerIpc(
      ipc,
      async (method) => {
        called.push(method)
        return { ok: true, value: null }
      },
      APP_URL,
    )
    const strangers = [
      {},
      { senderFrame: null },
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'file:///tmp/other.html', parent: null } },
      { senderFrame: { url: APP_URL, parent: { url: APP_URL } } },
    ]
    for (const method of APP_API_METHODS)
      for (const event of strangers)
        expect(await ipc.handlers.get(method)!(event, {})).toMatchObject({
          ok: false,
          error: { code: 'forbidden' },
        })
    expect(called).toEqual([])
    expect(await ipc.handlers.get('tools.list')!(FROM_APP, {})).toEqual({ ok: true, value: null })
    expect(called).toEqual(['tools.list'])
  })

  it('forwards push events to the window on one channel until unsubscribed', () => {
    const sent: Array<[string, unknown]> = []
    const off = forwardEvents(core.events, (channel, payload) => sent.push([channel, payload]))
    core.events.emit('recorder.action', { sessionId: 'rec_1', actionCount: 3 })
    off()
    core.events.emit('recorder.action', { sessionId: 'rec_1', actionCount: 4 })
    expect(sent).toEqual([
      [EVENT_CHANNEL, { event: 'recorder.action', data: { sessionId: 'rec_1', actionCount: 3 } }],
    ])
  })
})
