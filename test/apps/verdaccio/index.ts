import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { startVerdaccioSite } from '../../fixtures/sites/verdaccio'
import type { AppDefinition, AppInstance } from '../types'
import { logIn } from './login'
import { listPackagesSignedIn, openOldVersion, packageDetail } from './packages'
import { refineSearch, searchPackages } from './search'
import { PACKAGES, TEAM_RULES, USER } from './seed'
import { fetchWithSession } from '../sessionFetch'
import { storageStateFor, tokenOf, webLogin } from './session'

/**
 * Verdaccio 6.8.0 from npm, started in this process by the older realsite fixture (its storage
 * in a temp dir, no uplinks) with a fixed password, a private `@team` scope and two versions of
 * lunar-phase.
 */
export const app: AppDefinition = {
  name: 'verdaccio',
  title: 'Verdaccio',
  source: 'npm verdaccio@6.8.0',
  about:
    'A private npm registry whose React UI reads JSON from /-/verdaccio/data/* (the search term ' +
    'and package names as path segments, the version as ?v=) and logs in with POST ' +
    '/-/verdaccio/sec/login, keeping the JWT in localStorage and sending it as Authorization: Bearer.',
  unavailable() {
    return existsSync(resolve('node_modules/verdaccio/package.json'))
      ? null
      : 'verdaccio is missing from node_modules: it is a dev dependency of the repo (npm ci installs verdaccio@6.8.0)'
  },
  async start(options = {}): Promise<AppInstance> {
    const site = await startVerdaccioSite({
      packages: PACKAGES,
      packageRules: TEAM_RULES,
      userName: USER.name,
      password: USER.password,
      lifetimeMs: options.lifetimeMs ?? 15 * 60_000,
    })
    const origin = site.url
    return {
      origin,
      homePath: '/',
      user: { ...USER },
      async signIn() {
        return storageStateFor(origin, USER.name, await webLogin(origin, USER))
      },
      // The session's JWT as `Authorization: Bearer`, as the web UI sends it.
      fetch: (path, init) =>
        fetchWithSession(origin, path, init, {
          follow: true,
          bearer: tokenOf(init?.session, origin),
        }),
      close: () => site.close(),
    }
  },
  workflows: [
    searchPackages,
    refineSearch,
    packageDetail,
    openOldVersion,
    logIn,
    listPackagesSignedIn,
  ],
}
