import { APP_API_METHODS, APP_EVENT_NAMES, type AppResult } from '../../shared/appApi'
import type { AppDispatch } from '../app/appDispatch'
import type { EventBus } from '../events'
import { isTrustedSender } from './security'

/** The one channel main pushes events on; the preload fans them out by event name. */
export const EVENT_CHANNEL = 'sitecall:event'

type Handler = (event: unknown, input: unknown) => Promise<AppResult<unknown>>

/** What the bridge needs of Electron's `ipcMain` (so tests can pass a fake at the OS edge). */
export interface IpcMainLike {
  handle(channel: string, listener: Handler): void
}

/** One IPC channel per contract method, named after the method (`tools.list`). */
function handle(ipcMain: IpcMainLike, channel: string, fn: Handler): void {
  ipcMain.handle(channel, fn)
}

/**
 * Registers every method of the UI contract on `ipcMain` (and nothing else), each a thin line
 * over the shared dispatcher, so the IPC table is the contract and is unit-tested with a fake.
 * Every call's sender frame must be the app's own top page (`isTrustedSender`):
 * any other answers `{ok: false, error: {code: 'forbidden'}}` without reaching the dispatcher.
 */
export function registerIpc(ipcMain: IpcMainLike, dispatch: AppDispatch, appUrl: string): void {
  for (const method of APP_API_METHODS)
    handle(ipcMain, method, async (event, input) => {
      if (!isTrustedSender(event, appUrl))
        return {
          ok: false,
          error: { code: 'forbidden', message: "Only the app's own window may call it." },
        }
      return dispatch(method, input)
    })
}

/** Forwards every push event to a window; returns the unsubscribe function. */
export function forwardEvents(
  events: EventBus,
  send: (channel: string, payload: unknown) => void,
): () => void {
  const offs = APP_EVENT_NAMES.map((event) =>
    events.on(event, (data) => send(EVENT_CHANNEL, { event, data })),
  )
  return () => offs.forEach((off) => off())
}
