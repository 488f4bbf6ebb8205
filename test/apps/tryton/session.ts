/**
 * Signing in to Tryton as sao does, over plain HTTP: `common.db.login` with the user name and
 * `{password}` answers `[user id, session key]`; sao keeps them in localStorage
 * (`sao_session_<database>` = `{"login","user_id","session"}`) and sends every later call with
 * `Authorization: Session base64(login:user_id:session)`. No cookie is involved.
 */
import type { StorageState } from '../../../src/shared/trace'
import { DATABASE, login, rpc, sessionAuth } from './seed'

/** The localStorage key sao keeps its login in. */
const SESSION_KEY = `sao_session_${DATABASE}`

/** Logs in by RPC and returns what a signed-in sao holds: its session in localStorage. */
export async function signInByRpc(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const [userId, session] = await login(origin, user)
  return {
    cookies: [],
    origins: [
      {
        origin,
        localStorage: [
          {
            name: SESSION_KEY,
            value: JSON.stringify({ login: user.name, user_id: userId, session }),
          },
        ],
      },
    ],
  }
}

/** The `Authorization: Session ...` value of a saved sao login, or null when it holds none. */
export function authOf(state: StorageState | undefined): string | null {
  const raw = state?.origins
    .flatMap((o) => o.localStorage)
    .find((item) => item.name === SESSION_KEY)?.value
  if (!raw) return null
  const s = JSON.parse(raw) as { login: string; user_id: number; session: string }
  return sessionAuth(s.login, s.user_id, s.session)
}

/** A JSON-RPC call as the signed-in person of `session` (sao's context left empty). */
export function call<T = unknown>(
  origin: string,
  session: StorageState,
  method: string,
  params: unknown[],
): Promise<T> {
  const auth = authOf(session)
  if (!auth) throw new Error('the saved login holds no sao session')
  return rpc<T>(origin, method, params, auth)
}
