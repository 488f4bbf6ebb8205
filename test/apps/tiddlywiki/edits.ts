import type { Workflow } from '../types'
import {
  bodyEditor,
  editor,
  nextWrite,
  openBySearch,
  startEditing,
  waitForFirstSync,
} from './person'
import {
  orThrow,
  parseTitleList,
  putTiddler,
  readTiddler,
  recipePath,
  expectNoContent,
} from './tiddlers'

/** The tiddler whose text the person rewrites, and the text they type. */
const EDITED = 'Project Roadmap'
const NEW_TEXT = 'Ship the beta in April.'

/** Replaces the text of a tiddler: open it, pencil, new text in the editor, tick. */
export const editTiddlerText: Workflow = {
  id: 'edit_tiddler_text',
  intent: `change the text of the tiddler ${EDITED} to "${NEW_TEXT}"`,
  rewordings: {
    terse: `set ${EDITED} text: ${NEW_TEXT}`,
    chatty: `Could you update our ${EDITED} tiddler so that it just says "${NEW_TEXT}"? Thanks!`,
    withoutValue: `rewrite the text of the ${EDITED} tiddler`,
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await waitForFirstSync(page)
    await openBySearch(page, EDITED)
    const frame = await startEditing(page, EDITED)
    await bodyEditor(page).locator('textarea').fill(NEW_TEXT)
    const saved = nextWrite(page, 'PUT', recipePath(EDITED))
    await frame.getByRole('button', { name: 'Confirm changes to this tiddler' }).click()
    await saved
    await editor(page).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'PUT', path: recipePath(EDITED) },
    inputs: [{ recorded: NEW_TEXT, changed: ['Ship the beta in May.', 'Ship the beta in June.'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const text = String(this.inputs[0]!.changed[0])
      await expectNoContent(
        await putTiddler(app, { title: EDITED, text, tags: ['Work'] }),
        `PUT ${recipePath(EDITED)}`,
      )
      orThrow(await this.check(app, { status: 'succeeded', result: null }, session, [text]))
    },
    async check(app, _run, _session, used) {
      const tiddler = await readTiddler(app, EDITED)
      if (!tiddler) return `${EDITED} is gone`
      if (tiddler.text?.trim() !== String(used[0]))
        return `${EDITED} says ${JSON.stringify(tiddler.text)}`
      if (!parseTitleList(tiddler.tags).includes('Work')) return `${EDITED} lost its tag Work`
      return null
    },
  },
}

/** The tiddler the person tags, and the new tag they type. */
const TAGGED = 'Recipe Lentil Soup'
const TAG = 'Favourite'

/** Adds a tag: open the tiddler, pencil, type the tag name, add, tick. */
export const addTag: Workflow = {
  id: 'add_tag',
  intent: `tag the tiddler ${TAGGED} with ${TAG}`,
  rewordings: {
    terse: `tag ${TAGGED} ${TAG}`,
    chatty: `Please put the tag ${TAG} on my ${TAGGED} tiddler so I can find it later`,
    withoutValue: `add a tag to ${TAGGED}`,
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
    const saved = nextWrite(page, 'PUT', recipePath(TAGGED))
    await frame.getByRole('button', { name: 'Confirm changes to this tiddler' }).click()
    await saved
    await editor(page).waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'PUT', path: recipePath(TAGGED) },
    inputs: [{ recorded: TAG, changed: ['Vegan', 'Winter'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const tag = String(this.inputs[0]!.changed[0])
      const before = await readTiddler(app, TAGGED)
      if (!before) throw new Error(`${TAGGED} is not seeded`)
      await expectNoContent(
        await putTiddler(app, {
          title: TAGGED,
          text: before.text ?? '',
          tags: [...parseTitleList(before.tags), tag],
        }),
        `PUT ${recipePath(TAGGED)}`,
      )
      orThrow(await this.check(app, { status: 'succeeded', result: null }, session, [tag]))
    },
    async check(app, _run, _session, used) {
      const tiddler = await readTiddler(app, TAGGED)
      if (!tiddler) return `${TAGGED} is gone`
      const tags = parseTitleList(tiddler.tags)
      if (!tags.includes(String(used[0]))) return `${TAGGED} is tagged ${tags.join(', ')}`
      if (!tags.includes('Cooking')) return `${TAGGED} lost its tag Cooking`
      if (!tiddler.text?.includes('lentils')) return `${TAGGED} lost its text`
      return null
    },
  },
}
