import type { Workflow } from '../types'
import {
  bodyEditor,
  confirmEdit,
  editor,
  nextWrite,
  openBySearch,
  startEditing,
  tiddlerFrame,
  waitForFirstSync,
} from './person'
import { seeded } from './seed'
import {
  bagPath,
  deleteTiddler,
  expectNoContent,
  keptTags,
  replayWrite,
  parseTitleList,
  putTiddler,
  READ_TIDDLER,
  readSeededTiddler,
  readTiddler,
  recipePath,
} from './tiddlers'

/** The new tiddler's title and text. */
const NEW_TITLE = 'Grocery List'
const NEW_TEXT = 'Milk, bread, apples.'

/** Creates a tiddler: the sidebar's plus button, a title, a text, tick. */
export const createTiddler: Workflow = {
  id: 'create_tiddler',
  intent: `create a tiddler called ${NEW_TITLE} that says "${NEW_TEXT}"`,
  rewordings: {
    terse: `new tiddler ${NEW_TITLE}: ${NEW_TEXT}`,
    chatty: `Hey, can you add a new page named ${NEW_TITLE} to the wiki with "${NEW_TEXT}" in it?`,
    withoutValue: 'create a new tiddler with a title and some text',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await page.getByRole('button', { name: 'new tiddler', exact: true }).click()
    const frame = editor(page)
    await frame.locator('input.tc-titlebar').fill(NEW_TITLE)
    await bodyEditor(page).locator('textarea').fill(NEW_TEXT)
    await confirmEdit(page, frame, NEW_TITLE)
    await tiddlerFrame(page, NEW_TITLE).getByText(NEW_TEXT).waitFor()
  },
  key: {
    target: { method: 'PUT', path: recipePath(NEW_TITLE) },
    inputs: [
      { recorded: NEW_TITLE, changed: ['Packing List', 'Camping Gear'] },
      { recorded: NEW_TEXT, changed: ['Tent, stove, maps.', 'Boots, rope, torch.'] },
    ],
    dependencies: [],
    mutating: true,
    replayByHand(app, session) {
      return replayWrite(this, app, session, async (title, text) => {
        await expectNoContent(await putTiddler(app, { title, text, tags: [] }), `PUT ${title}`)
      })
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const tiddler = await readTiddler(app, title)
      if (!tiddler) return `no tiddler ${title}`
      if (tiddler.text?.trim() !== String(used[1]))
        return `${title} says ${JSON.stringify(tiddler.text)}`
      return null
    },
  },
}

/** The tiddler the person renames (found by typing its title), and the new title. */
const OLD_TITLE = 'Meeting Notes'
const RENAMED = 'Team Meeting Notes'

/**
 * Renames a tiddler: pencil, a new title in the title field, tick. The client saves the tiddler
 * under the new title (PUT, with the old one's text and tags) and then deletes the old one
 * (DELETE under the bag), the last request: the key's target. A correct tool reads the old
 * tiddler first (the browser had it in the page), PUTs the new title, then DELETEs.
 */
export const renameTiddler: Workflow = {
  id: 'rename_tiddler',
  intent: `rename the tiddler ${OLD_TITLE} to ${RENAMED}`,
  rewordings: {
    terse: `rename ${OLD_TITLE} → ${RENAMED}`,
    chatty: `The ${OLD_TITLE} tiddler needs a better name, could you call it ${RENAMED} instead?`,
    withoutValue: 'give a tiddler a new title',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await openBySearch(page, OLD_TITLE)
    const frame = await startEditing(page, OLD_TITLE)
    await frame.locator('input.tc-titlebar').fill(RENAMED)
    const deleted = nextWrite(page, 'DELETE', bagPath(OLD_TITLE))
    await confirmEdit(page, frame, RENAMED)
    await deleted
    await tiddlerFrame(page, RENAMED).getByText(seeded(OLD_TITLE).text).waitFor()
  },
  key: {
    target: { method: 'DELETE', path: bagPath(OLD_TITLE) },
    inputs: [
      { recorded: OLD_TITLE, changed: ['Budget Review', 'Team Offsite'] },
      { recorded: RENAMED, changed: ['Budget Review 2026', 'Team Offsite Plan'] },
    ],
    dependencies: [READ_TIDDLER],
    mutating: true,
    replayByHand(app, session) {
      return replayWrite(this, app, session, async (from, to) => {
        const before = await readSeededTiddler(app, from)
        const tags = parseTitleList(before.tags)
        await expectNoContent(
          await putTiddler(app, { title: to, text: before.text ?? '', tags }),
          `PUT ${to}`,
        )
        await expectNoContent(await deleteTiddler(app, from), `DELETE ${from}`)
      })
    },
    async check(app, _run, _session, used) {
      const [from, to] = used.map(String) as [string, string]
      const renamed = await readTiddler(app, to)
      if (!renamed) return `no tiddler ${to}`
      const seed = seeded(from)
      if (renamed.text?.trim() !== seed.text) return `${to} says ${JSON.stringify(renamed.text)}`
      if (await readTiddler(app, from)) return `${from} still exists`
      return keptTags(renamed, seed.tags)
    },
  },
}

/** The tiddler the person deletes. */
const DOOMED = 'Old Draft'

/** Deletes a tiddler: find it, pencil, the bin button, OK in the browser's confirm dialog. */
export const deleteTiddlerWorkflow: Workflow = {
  id: 'delete_tiddler',
  intent: `delete the tiddler ${DOOMED}`,
  rewordings: {
    terse: `rm tiddler ${DOOMED}`,
    chatty: `I don't need the ${DOOMED} tiddler any more, could you delete it for me?`,
    withoutValue: 'delete a tiddler',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await openBySearch(page, DOOMED)
    const frame = await startEditing(page, DOOMED)
    // TiddlyWiki asks with window.confirm; the person clicks OK.
    page.once('dialog', (dialog) => void dialog.accept())
    const deleted = nextWrite(page, 'DELETE', bagPath(DOOMED))
    await frame.getByRole('button', { name: 'Delete this tiddler' }).click()
    await deleted
    await editor(page).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'DELETE', path: bagPath(DOOMED) },
    inputs: [{ recorded: DOOMED, changed: ['Scratch Pad', 'Unused Ideas'] }],
    dependencies: [],
    mutating: true,
    replayByHand(app, session) {
      return replayWrite(this, app, session, async (title) => {
        await readSeededTiddler(app, title)
        await expectNoContent(await deleteTiddler(app, title), `DELETE ${title}`)
      })
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      if (await readTiddler(app, title)) return `${title} still exists`
      if (!(await readTiddler(app, 'Reading List'))) return 'Reading List is gone too'
      return null
    },
  },
}
