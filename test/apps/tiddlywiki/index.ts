import type { StorageState } from '../../../src/shared/trace'
import type { AppDefinition, AppInstance } from '../types'
import { addTag, editTiddlerText } from './edits'
import { createTiddler, deleteTiddlerWorkflow, renameTiddler } from './lifecycle'
import { searchTiddlers } from './search'
import { startTiddlyWiki, tiddlyWikiUnavailable } from './server'

/**
 * The wiki runs anonymous (see NOTES.md), so nobody signs in. The contract still wants a fixed
 * user; the password is what `--listen username=ada password=...` would take, never typed.
 */
const USER = { name: 'ada', password: 'tiddly-Basic-unused-41' }

/** An anonymous browser holds nothing for TiddlyWiki: no cookie, no localStorage. */
const NO_SESSION: StorageState = { cookies: [], origins: [] }

/** TiddlyWiki 5.4.1 from npm, its client-server edition run as a Node child process. */
export const app: AppDefinition = {
  name: 'tiddlywiki',
  title: 'TiddlyWiki',
  source: 'npm tiddlywiki@5.4.1',
  about:
    'A single-page wiki that loads every tiddler with the page, searches and filters them in the ' +
    'browser, and syncs changes on a timer: PUT /recipes/default/tiddlers/<title> (JSON, ' +
    'X-Requested-With: TiddlyWiki) and DELETE /bags/default/tiddlers/<title>.',
  unavailable: tiddlyWikiUnavailable,
  async start(options = {}): Promise<AppInstance> {
    const server = await startTiddlyWiki(options.lifetimeMs ?? 15 * 60_000)
    const { origin } = server
    return {
      origin,
      homePath: '/',
      user: USER,
      signIn: () => Promise.resolve(NO_SESSION),
      fetch(path, init = {}) {
        // No session to add: an anonymous wiki takes plain requests.
        const { session: _session, ...rest } = init
        return fetch(`${origin}${path}`, rest)
      },
      close: () => server.close(),
    }
  },
  workflows: [
    searchTiddlers,
    createTiddler,
    editTiddlerText,
    addTag,
    renameTiddler,
    deleteTiddlerWorkflow,
  ],
}
