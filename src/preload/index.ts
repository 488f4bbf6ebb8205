import { contextBridge, ipcRenderer } from 'electron'
import {
  APP_EVENT_NAMES,
  isAppApiMethod,
  type AppEventName,
  type AppResult,
} from '../shared/appApi'

const EVENT_CHANNEL = 'sitecall:event'
/** Main's end of a recording's view (src/main/desktop/screencastIpc.ts). */
const SCREENCAST_CHANNEL = 'sitecall:screencast'

/**
 * The renderer's only bridge (docs/architecture.md "House style", VS Code's preload allowlist): `invoke` refuses any
 * method not in the contract and `on` any event not in it; nothing else of Electron is exposed.
 */
const api = {
  invoke(method: string, input: unknown): Promise<AppResult<unknown>> {
    if (!isAppApiMethod(method))
      return Promise.resolve({
        ok: false,
        error: { code: 'not_found', message: `No app method ${method}.` },
      })
    return ipcRenderer.invoke(method, input) as Promise<AppResult<unknown>>
  },
  on(event: AppEventName, listener: (data: unknown) => void): () => void {
    if (!APP_EVENT_NAMES.includes(event)) return () => undefined
    const wrapped = (_e: unknown, message: { event: string; data: unknown }) => {
      if (message.event === event) listener(message.data)
    }
    ipcRenderer.on(EVENT_CHANNEL, wrapped)
    return () => void ipcRenderer.off(EVENT_CHANNEL, wrapped)
  },
  /**
   * Opens the view of a recording whose browser runs headless: one end of a
   * message port goes to main, which checks every message as the web UI's WebSocket does.
   */
  screencast(sessionId: string, listener: (message: unknown) => void) {
    const { port1, port2 } = new MessageChannel()
    port1.onmessage = (event) => listener(event.data)
    ipcRenderer.postMessage(SCREENCAST_CHANNEL, { sessionId: String(sessionId) }, [port2])
    return {
      send: (message: unknown) => port1.postMessage(message),
      close: () => port1.close(),
    }
  },
}

contextBridge.exposeInMainWorld('sitecall', api)
