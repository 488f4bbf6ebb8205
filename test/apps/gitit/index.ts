/**
 * Gitit (Debian's `gitit` 0.15.1, a Haskell wiki on Happstack) in the real-app corpus: pages are
 * files in a git repository; every page has its own URL (`/Page%20Title`) and its actions are
 * prefixed paths (`/_edit/`, `/_history/`, `/_diff/`, `/_delete/`); edits post the whole page text
 * back to the page's URL with the `sha1` of the revision the editor started from as the edit token;
 * uploads are multipart posts to `/_upload`; sign-in is a login form and a `sid` cookie.
 */
import type { AppDefinition, AppInstance } from '../types'
import { fetchWithSession } from '../sessionFetch'
import { repos } from './keys'
import { EDITOR } from './seed'
import { gititUnavailable, startGititServer } from './server'
import { signInByHttp } from './session'
import { WORKFLOWS } from './workflows/index'

export const app: AppDefinition = {
  name: 'gitit',
  title: 'Gitit',
  source: 'apt gitit 0.15.1.0+dfsg-2+b6 (Happstack 7.7.2, pages in a git repository, apt git)',
  about:
    'A wiki whose pages are files in git: a page is GET /<Title>, its editor GET /_edit/<Title> ' +
    'holds the page text and the sha1 of its revision, and Save posts editedText, sha1 and ' +
    'logMsg back to /<Title> (no sha1, or a stale one, is a conflict); a revert is the same post ' +
    'with an old revision text from /_edit/<Title>?revision=<sha>; history /_history/<Title> ' +
    'lists revision ids that /_diff/<Title>?from=&to= compares (picked by dragging one onto ' +
    'another); delete posts filetodelete and confirm to /_delete/<Title>; uploads are multipart ' +
    'posts to /_upload; search is GET /_search?patterns=; login is a form and a sid cookie.',
  unavailable: gititUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startGititServer(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: EDITOR.name, password: EDITOR.password }
    const instance: AppInstance = {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByHttp(server.origin, user),
      // Redirects are not followed: Gitit answers a save or a delete with a 303.
      fetch: (path, init) => fetchWithSession(server.origin, path, init),
      close: server.close,
    }
    repos.set(instance, server.repo)
    return instance
  },
  workflows: WORKFLOWS,
}
