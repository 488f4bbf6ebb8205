import type { Workflow } from '../types'
import {
  bodyEditor,
  confirmEdit,
  editor,
  openBySearch,
  startEditing,
  waitForFirstSync,
} from './person'
import { seeded } from './seed'
import {
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

/** The tiddler whose text the person rewrites (found by typing its title), and the new text. */
const EDITED = 'Project Roadmap'
const NEW_TEXT = 'Ship the beta in April.'

/** Replaces the text of a tiddler: search it, open it, pencil, new text in the editor, tick. */
export const editTiddlerText: Workflow = {
  id: 'edit_tiddler_text',
  intent: `change the text of the tiddler ${EDITED} to "${NEW_TEXT}"`,
  rewordings: {
    terse: `set ${EDITED} text: ${NEW_TEXT}`,
    chatty: `Could you update our ${EDITED} tiddler so that it just says "${NEW_TEXT}"? Thanks!`,
    withoutValue: 'rewrite the text of a tiddler',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await openBySearch(page, EDITED)
    const frame = await startEditing(page, EDITED)
    await bodyEditor(page).locator('textarea').fill(NEW_TEXT)
    await confirmEdit(page, frame, EDITED)
    await editor(page).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'PUT', path: recipePath(EDITED) },
    inputs: [
      { recorded: EDITED, changed: ['Travel Plans', 'Reading List'] },
      { recorded: NEW_TEXT, changed: ['Lisbon in June only.', 'Only Dune this year.'] },
    ],
    dependencies: [READ_TIDDLER],
    mutating: true,
    replayByHand(app, session) {
      return replayWrite(this, app, session, async (title, text) => {
        // Read first: the PUT replaces the whole tiddler, its tags must go back unchanged.
        const before = await readSeededTiddler(app, title)
        const res = await putTiddler(app, { title, text, tags: parseTitleList(before.tags) })
        await expectNoContent(res, `PUT ${recipePath(title)}`)
      })
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const tiddler = await readTiddler(app, title)
      if (!tiddler) return `${title} is gone`
      if (tiddler.text?.trim() !== String(used[1]))
        return `${title} says ${JSON.stringify(tiddler.text)}`
      return keptTags(tiddler, seeded(title).tags)
    },
  },
}

/** The tiddler the person tags (found by typing its title), and the new tag they type. */
const TAGGED = 'Recipe Lentil Soup'
const TAG = 'Favourite'

/** Adds a tag: search the tiddler, open it, pencil, type the tag name, add, tick. */
export const addTag: Workflow = {
  id: 'add_tag',
  intent: `tag the tiddler ${TAGGED} with ${TAG}`,
  rewordings: {
    terse: `tag ${TAGGED} ${TAG}`,
    chatty: `Please put the tag ${TAG} on my ${TAGGED} tiddler so I can find it later`,
    withoutValue: 'add a tag to a tiddler',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await openBySearch(page, TAGGED)
    const frame = await startEditing(page, TAGGED)
    await frame.locator('.tc-edit-add-tag input[placeholder="tag name"]').fill(TAG)
    await frame.locator('.tc-add-tag-button button').click()
    await frame.locator(`.tc-tag-list-item[data-tag-title="${TAG}"]`).waitFor()
    await confirmEdit(page, frame, TAGGED)
    await editor(page).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'PUT', path: recipePath(TAGGED) },
    inputs: [
      { recorded: TAGGED, changed: ['Recipe Pancakes', 'Garden Notes'] },
      { recorded: TAG, changed: ['Vegan', 'Winter'] },
    ],
    dependencies: [READ_TIDDLER],
    mutating: true,
    replayByHand(app, session) {
      return replayWrite(this, app, session, async (title, tag) => {
        const before = await readSeededTiddler(app, title)
        const tags = [...parseTitleList(before.tags), tag]
        const res = await putTiddler(app, { title, text: before.text ?? '', tags })
        await expectNoContent(res, `PUT ${recipePath(title)}`)
      })
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const tiddler = await readTiddler(app, title)
      if (!tiddler) return `${title} is gone`
      const seed = seeded(title)
      if (tiddler.text?.trim() !== seed.text) return `${title} lost its text`
      return keptTags(tiddler, seed.tags, [String(used[1])])
    },
  },
}
