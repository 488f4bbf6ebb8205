/**
 * Tryton 6.0 (Debian's `tryton-server` with the `party` module) and its web client sao
 * (`tryton-sao`) in the real-app corpus: a JavaScript single-page app that does everything by
 * JSON-RPC on one URL per database (`POST /tryton/` with `{"method": "model.party.party.create",
 * "params": [...]}`), records named by integer ids, writes guarded by the `_timestamp` the last
 * read gave, and a login kept in localStorage and sent as `Authorization: Session ...`.
 */
import type { AppDefinition, AppInstance } from '../types'
import { ADMIN } from './seed'
import { startTrytonServer, trytonUnavailable } from './server'
import { authOf, signInByRpc } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'tryton',
  title: 'Tryton (sao)',
  source:
    'apt tryton-server 6.0.29-2+deb12u4 with tryton-modules-party 6.0.3-2 (and ' +
    'tryton-modules-country 6.0.3-2), web client apt tryton-sao 6.0.28+ds1-2+deb12u2, on SQLite',
  about:
    'An ERP web client (sao, a jQuery single-page app) that talks JSON-RPC to trytond on one ' +
    'URL, POST /<database>/ with {"id","method":"model.<model>.<search|read|create|write|delete>",' +
    '"params":[..., context]}: a search answers ids that a read of chosen fields then fetches; ' +
    'records are named by integer ids; writes and deletes carry in their context the ' +
    '_timestamp the last read returned (trytond refuses a stale one); one-to-many and ' +
    'many-to-many fields are written as action lists ([["create",[{...}]]], [["add",[ids]]]); ' +
    'sign-in is common.db.login, and sao keeps [user id, session] in localStorage and sends ' +
    'Authorization: Session base64(login:user_id:session) on every call.',
  unavailable: trytonUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startTrytonServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/#tryton',
      user,
      signIn: () => signInByRpc(server.origin, user),
      fetch: (path, init = {}) => {
        const { session, ...rest } = init
        const headers = new Headers(rest.headers)
        const auth = authOf(session)
        if (auth && !headers.has('authorization')) headers.set('authorization', `Session ${auth}`)
        return fetch(`${server.origin}${path}`, { redirect: 'manual', ...rest, headers })
      },
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
