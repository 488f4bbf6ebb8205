import type { RecordingSessions } from '../browse/recordingSessions'
import type { SignInFlows } from '../logins/signInFlows'
import { openScreencastView } from '../api/screencastLink'
import { isTrustedSender } from './security'

/** The channel a window opens a recording's view on, handing main one end of a message port. */
export const SCREENCAST_CHANNEL = 'sitecall:screencast'

/** What the bridge uses of Electron's `MessagePortMain` (a fake stands in for it in tests). */
export interface PortLike {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  on(event: 'close', listener: () => void): void
  start(): void
  close(): void
}

/** What the bridge uses of Electron's `ipcMain` and of the event of a `postMessage`. */
export interface IpcMainPortsLike {
  on(
    channel: string,
    listener: (event: { ports: PortLike[]; senderFrame?: unknown }, input: unknown) => void,
  ): void
}

/**
 * The desktop window's transport of the recording browser's view, where the
 * recording browser runs headless (Linux without `DISPLAY`, e.g. Wayland without XWayland): the
 * preload sends one end of a `MessageChannel` on {@link SCREENCAST_CHANNEL} with `{sessionId}`;
 * the messages are the WebSocket's (`src/shared/screencast.ts`), through `openScreencastView`.
 * With `signIns`, a sign-in flow's browser (a `signin_` id) is viewed the same way.
 * A port from any frame but the app's own top page (`isTrustedSender`) is closed unanswered.
 */
export function registerScreencastIpc(
  ipcMain: IpcMainPortsLike,
  recordings: Pick<RecordingSessions, 'current' | 'recording'>,
  appUrl: string,
  signIns?: Pick<SignInFlows, 'castTarget'>,
): void {
  ipcMain.on(SCREENCAST_CHANNEL, (event, input) => {
    const port = event.ports[0]
    if (!port) return
    const sessionId = (input as { sessionId?: unknown } | null)?.sessionId
    if (!isTrustedSender(event, appUrl) || typeof sessionId !== 'string') return port.close()
    let open = true
    const view = openScreencastView(
      recordings,
      sessionId,
      {
        send: (message) => open && port.postMessage(message),
        close: () => {
          open = false
          port.close()
        },
      },
      signIns,
    )
    port.on('message', ({ data }) => view.receive(data))
    port.on('close', () => {
      open = false
      view.end()
    })
    port.start()
  })
}
