/**
 * Privoxy (Debian's `privoxy`) in the real-app corpus: a filtering web proxy whose built-in web
 * interface (status, URL info, the action file editor) is served by the proxy itself. Every page
 * is a GET: the editor's writes are GET links and GET forms carrying the file (`f`), its version
 * (`v`, a modification time) and a section or pattern line (`s`, `p`), guarded by a Referer check.
 */
import type { AppDefinition, AppInstance } from '../types'
import { privoxyUnavailable, startPrivoxy } from './server'
import { fetchPrivoxy, signInNothing } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'privoxy',
  title: 'Privoxy',
  source: 'apt privoxy 3.0.34-1 (its built-in web interface, enable-edit-actions 1)',
  about:
    "A proxy's built-in web interface, all GETs with no login: show-url-info?url= looks a URL " +
    'up; the action file editor writes with GET links and forms (edit-actions-add-url, ' +
    'edit-actions-url, edit-actions-remove-url, edit-actions-submit with ~100 fields) that carry ' +
    'the file id f, its version v (a modification time read from the list page) and line ' +
    'numbers s/p of the section or pattern picked, answer 302, and need a trusted Referer.',
  unavailable: privoxyUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startPrivoxy(options.lifetimeMs ?? 15 * 60_000)
    return {
      origin: server.origin,
      homePath: '/',
      // No login: the interface knows no users. A placeholder that no page or request holds.
      user: { name: 'nobody', password: 'privoxy-has-no-login' },
      signIn: signInNothing,
      fetch: (path, init) => fetchPrivoxy(server.origin, path, init),
      close: server.close,
    }
  },
  workflows: WORKFLOWS,
}
