/**
 * WordPress (apt `wordpress` 6.1, Debian 12) in the real-app corpus: a private MariaDB and
 * PHP's built-in server per instance, seeded with a small allotment blog.
 */
import type { AppDefinition, AppInstance } from '../types'
import { quickDraft, uploadMedia } from './create'
import { searchPosts, viewPost } from './front'
import { login } from './login'
import { filterByCategory, renamePost, trashPost } from './posts'
import { ADMIN } from './seed'
import { missingPackages, startWordPress } from './server'
import { appFetch, signInByForm } from './session'

export const app: AppDefinition = {
  name: 'wordpress',
  title: 'WordPress',
  source: 'apt wordpress 6.1.9+dfsg1-0+deb12u1 (with wordpress-theme-twentytwentyone)',
  about:
    'A PHP blog whose admin talks to its server through classic form posts and links with ' +
    'per-page _wpnonce tokens, admin-ajax.php (the operation in the form field action=), ' +
    'plupload multipart uploads, and a cookie-plus-nonce REST API.',
  unavailable: missingPackages,
  async start(options = {}): Promise<AppInstance> {
    const server = await startWordPress(options.lifetimeMs ?? 15 * 60_000)
    const user = { name: ADMIN.name, password: ADMIN.password }
    return {
      origin: server.origin,
      homePath: '/',
      user,
      signIn: () => signInByForm(server.origin, user),
      fetch: (path, init) => appFetch(server.origin, path, init),
      close: () => server.stop(),
    }
  },
  workflows: [
    searchPosts,
    viewPost,
    filterByCategory,
    renamePost,
    trashPost,
    quickDraft,
    uploadMedia,
    login,
  ],
}
