import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { APP_API_METHODS, type AppResult } from '../../../src/shared/appApi'
import { createAppDispatch } from '../../../src/main/api/appDispatch'
import { createCore, type Core } from '../../../src/main/core'
import { EVENT_CHANNEL, forwardEvents, registerIpc } from '../../../src/main/desktop/ipc'

type Handler = (event: unknown, input: unknown) => Promise<AppResult<unknown>>

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
    registerIpc(ipc, createAppDispatch(core.handlers))
    expect([...ipc.handlers.keys()].sort()).toEqual([...APP_API_METHODS].sort())
  })

  it('answers a method as {ok:true,value} from the real core', async () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers))
    const created = (await ipc.handlers.get('keys.create')!(
      {},
      { label: 'desktop' },
    )) as AppResult<{ key: string }>
    expect(created.ok).toBe(true)
    const listed = await ipc.handlers.get('keys.list')!({}, {})
    expect(listed).toMatchObject({ ok: true, value: [{ label: 'desktop' }] })
    expect(JSON.stringify(listed)).not.toContain(created.ok ? created.value.key : 'unreachable')
  })

  it('carries errors as values with their code, since Electron keeps only an error message', async () => {
    const ipc = fakeIpcMain()
    registerIpc(ipc, createAppDispatch(core.handlers))
    expect(await ipc.handlers.get('tools.get')!({}, { id: 'nope' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No tool nope.' },
    })
    const bad = await ipc.handlers.get('recorder.start')!({}, { url: 5 })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
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
