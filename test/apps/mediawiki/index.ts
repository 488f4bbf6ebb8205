import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { AppDefinition, AppInstance } from '../types'
import { ADMIN } from './seed'
import { startServer } from './server'
import { fetchWithSession } from '../sessionFetch'
import { signInByForm } from './session'
import { MEDIAWIKI_CODE } from './settings'
import { workflows } from './workflows/index'

/** Why this machine cannot run the wiki (a missing package or PHP module), or null. */
function unavailable(): string | null {
  if (!existsSync(`${MEDIAWIKI_CODE}/maintenance/install.php`))
    return 'MediaWiki is not installed: apt-get install mediawiki'
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' })
  if (modules.status !== 0) return 'PHP is missing: apt-get install php-cli'
  const needed: Array<[string, string]> = [
    ['pdo_sqlite', 'php-sqlite3'],
    ['mbstring', 'php-mbstring'],
    ['intl', 'php-intl'],
    ['xml', 'php-xml'],
  ]
  const have = modules.stdout.toLowerCase().split('\n')
  for (const [module, pkg] of needed)
    if (!have.includes(module)) return `PHP module ${module} is missing: apt-get install ${pkg}`
  return null
}

/** MediaWiki 1.39 from Debian's package, served by `php -S` with SQLite, one copy per start. */
export const app: AppDefinition = {
  name: 'mediawiki',
  title: 'MediaWiki',
  source: 'apt mediawiki 1:1.39.17-1+deb12u2',
  about:
    'Server-rendered PHP pages whose forms post to index.php with hidden tokens (wpEditToken, ' +
    'wpLoginToken, edit times), plus the Action API api.php?action=... for the search typeahead.',
  unavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startServer(options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/index.php/Main_Page',
      user: { ...ADMIN },
      signIn: () => signInByForm(origin, ADMIN),
      fetch: (path, init) =>
        fetchWithSession(origin, path, init, { follow: true, scopeCookies: true }),
      close: () => server.close(),
    }
  },
  workflows,
}
