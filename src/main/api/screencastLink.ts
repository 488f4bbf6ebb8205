import {
  SCREENCAST_CLOSE,
  SCREENCAST_VIEWER_MESSAGE_SCHEMA,
  type ScreencastServerMessage,
  type ScreencastViewerMessage,
} from '../../shared/screencast'
import type { RecordingSessions } from '../browse/recordingSessions'
import type { SignInFlows } from '../logins/signInFlows'
import { startScreencast, type Screencast } from '../browse/screencast'
import { compileBody } from '../surface/bodyCheck'

/** One viewer's channel: the web UI's WebSocket, or the desktop window's message port. */
export interface ViewerLink {
  send(message: ScreencastServerMessage): void
  /** Ends the channel; `code` is one of {@link SCREENCAST_CLOSE}. */
  close(code: number, reason: string): void
}

export interface ScreencastView {
  /** A viewer's message as parsed (JSON or structured clone); refused ones get an `error`. */
  receive(message: unknown): void
  /** The viewer went away: casting stops; the browser is left as it is. */
  end(): void
}

const check = compileBody(SCREENCAST_VIEWER_MESSAGE_SCHEMA)

/** Ids of sign-in flows (`signin_<ulid>`); recordings are `rec_<ulid>`. */
const SIGN_IN_ID = /^signin_/

/**
 * Opens the view of the running recording `sessionId` (or, with `signIns`, of the sign-in flow
 * of that id) on `link`, whatever carries it: one not running gets `gone` and close 4404; the
 * browser going away, `gone` and 4410. Each message is checked against
 * `SCREENCAST_VIEWER_MESSAGE_SCHEMA` first, then applied in order; a refused one is answered
 * `error` `invalid_input` and dropped.
 */
export function openScreencastView(
  recordings: Pick<RecordingSessions, 'current' | 'recording'> | undefined,
  sessionId: string,
  link: ViewerLink,
  signIns?: Pick<SignInFlows, 'castTarget'>,
): ScreencastView {
  const signIn = SIGN_IN_ID.test(sessionId)
  const browserName = signIn ? 'sign-in browser' : 'recording browser'
  const recording = signIn
    ? (signIns?.castTarget(sessionId) ?? null)
    : recordings?.current()?.sessionId === sessionId
      ? recordings.recording(sessionId)
      : null
  if (!recording) {
    const what = signIn ? 'sign-in' : 'recording'
    link.send({ type: 'gone', reason: `No ${what} ${sessionId} is running.` })
    link.close(SCREENCAST_CLOSE.noRecording, `no such ${what}`)
    return { receive: () => undefined, end: () => undefined }
  }
  const gone = (reason: string) => {
    link.send({ type: 'gone', reason })
    link.close(SCREENCAST_CLOSE.gone, 'browser gone')
  }
  // Messages that arrive while the first tab is attached wait for it, in order.
  const cast: Promise<Screencast | null> = startScreencast(
    recording.context,
    recording.page,
    {
      send(message) {
        if (message.type === 'gone') gone(message.reason)
        else link.send(message)
      },
    },
    { browserName },
  ).catch(() => {
    gone(`The ${browserName} went away.`)
    return null
  })
  return {
    receive(message) {
      if (!check(message))
        return link.send({
          type: 'error',
          code: 'invalid_input',
          message: 'Unknown or malformed viewer message: see src/shared/screencast.ts.',
        })
      void cast.then((c) => c?.handle(message as ScreencastViewerMessage))
    },
    end: () => void cast.then((c) => c?.close()),
  }
}
