/**
 * Syncthing workflows that only read: the folder list the dashboard loads (`GET /rest/config`)
 * and a folder's ignore patterns, which its Edit dialog loads (`GET /rest/db/ignores?folder=`).
 */
import type { Workflow } from '../types'
import { mustPass, readConfig, readIgnores, resultText } from './api'
import { editFolder, openTab, waitForDashboard } from './person'
import { seededFolder } from './seed'

/** The whole config: folders, devices, options. Where a folder's id is found by its label. */
export const READ_CONFIG = { method: 'GET', path: '/rest/config' }

/** Opens the dashboard: the folder list is what the page loads with `GET /rest/config`. */
export const listFolders: Workflow = {
  id: 'list_folders',
  intent: 'list my Syncthing folders',
  rewordings: {
    terse: 'syncthing folders',
    chatty: 'Could you show me which folders my Syncthing is syncing at the moment?',
    withoutValue: 'show the synced folders',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
  },
  key: {
    target: READ_CONFIG,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/rest/config', { session })
      if (!res.ok) throw new Error(`GET /rest/config answered ${res.status}`)
      const result: unknown = await res.json()
      mustPass(await listFolders.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      // Every folder there is now, by label (the run happened just before on the same instance).
      const text = resultText(run.result)
      const missing = (await readConfig(app, session)).folders
        .map((f) => f.label)
        .filter((label) => !text.includes(JSON.stringify(label)))
      return missing.length ? `the result lacks the folders ${missing.join(', ')}` : null
    },
  },
}

/** Unfolds Photos in the list, clicks Edit, opens the Ignore Patterns tab. */
export const showIgnorePatterns: Workflow = {
  id: 'show_ignore_patterns',
  intent: 'show the ignore patterns of the folder Photos',
  rewordings: {
    terse: 'Photos ignore patterns',
    chatty: 'Which files is Syncthing told to skip in my Photos folder? Show me its ignore list.',
    withoutValue: "show a folder's ignore patterns",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await waitForDashboard(page)
    const dialog = await editFolder(page, 'Photos')
    await openTab(dialog, 'Ignore Patterns')
    await page.waitForFunction(() =>
      (
        document.querySelector('#editFolder textarea[name=ignoresText]') as HTMLTextAreaElement
      )?.value.includes('Thumbs.db'),
    )
  },
  key: {
    target: { method: 'GET', path: '/rest/db/ignores' },
    // The folder picked by its label; requests name it by id, found in the config by label.
    inputs: [{ recorded: 'Photos', changed: ['Documents', 'Music'] }],
    dependencies: [READ_CONFIG],
    mutating: false,
    async replayByHand(app, session) {
      const label = 'Documents'
      const lines = await readIgnores(app, session, seededFolder(label).id)
      const result = { ignore: lines, expanded: lines }
      mustPass(
        await showIgnorePatterns.key.check(app, { status: 'succeeded', result }, session, [label]),
      )
    },
    async check(_app, run, _session, used) {
      const folder = seededFolder(String(used[0]))
      const text = resultText(run.result)
      const missing = (folder.ignore ?? []).filter((line) => !text.includes(JSON.stringify(line)))
      return missing.length
        ? `the result lacks ${folder.label}'s patterns ${missing.join(' ')}`
        : null
    },
  },
}
