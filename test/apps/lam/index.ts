/**
 * LDAP Account Manager (Debian's `ldap-account-manager` 8.3) in the real-app corpus: a PHP admin
 * UI for the Unix accounts and groups of an LDAP directory (here a private OpenLDAP slapd) whose
 * forms carry a `sec_token` CSRF field, whose account editor keeps the account being edited in
 * the PHP session across tab posts, and whose lists name entries by DN (or its base64) in links
 * and checkbox names.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { ADMIN } from './seed'
import { lamUnavailable, startLamServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'lam',
  title: 'LDAP Account Manager',
  source:
    'apt ldap-account-manager 8.3-1 over slapd 2.5.13+dfsg-5 (OpenLDAP), served by php -S (php-cli 8.2, php-ldap)',
  about:
    'Server-rendered PHP forms with a sec_token CSRF field in every post; the account editor ' +
    '(account/edit.php) loads the entry into the PHP session and each post sends the open tab ' +
    'and a button name that says what to do (save, switch tab, edit members); lists filter by ' +
    'a form post and name rows by the DN or its base64; login is a form post that sets the ' +
    'session plus Key/IV cookies encrypting the password.',
  unavailable: lamUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startLamServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.dn, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/templates/main.php',
      user,
      signIn: () => signInByHttp(server.origin, user),
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
