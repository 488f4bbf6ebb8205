import type { AppDefinition, AppInstance } from '../types'
import { appFetch, signInOverHttp } from './http'
import { ADMIN } from './seed'
import { redmineUnavailable, startRedmineServer } from './server'
import { WORKFLOWS } from './workflows'

/** Redmine 5 from Debian, a private instance per start (see server.ts). */
export const app: AppDefinition = {
  name: 'redmine',
  title: 'Redmine',
  source: 'apt redmine 5.0.4-5+deb12u1 (redmine-sqlite, WEBrick)',
  about:
    'A Rails app: server-rendered pages, GET filters in nested query arrays (f[]=, op[x]=, v[x][]=), form posts carrying a Rails authenticity_token and a lock_version, _method=patch overrides, and attachments uploaded first to /uploads.js and then referenced by token.',
  unavailable: redmineUnavailable,
  async start(options = {}) {
    const server = await startRedmineServer()
    const timer = setTimeout(() => void server.stop(), options.lifetimeMs ?? 15 * 60_000)
    timer.unref()
    const instance: AppInstance = {
      origin: server.origin,
      homePath: '/',
      user: { ...ADMIN },
      signIn: () => signInOverHttp(server.origin, ADMIN),
      fetch: (path, init) => appFetch(server.origin, path, init),
      async close() {
        clearTimeout(timer)
        await server.stop()
      },
    }
    return instance
  },
  workflows: WORKFLOWS,
}
