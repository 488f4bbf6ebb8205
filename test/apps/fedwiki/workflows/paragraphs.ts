/**
 * Paragraphs of a page. Every edit is one action of the page's journal,
 * `PUT /page/<slug>/action` with a form field `action` holding JSON. Double-clicking a paragraph
 * and changing its text sends `{"type":"edit","id":<its id>,"item":{...,"text":...}}` when the
 * editor loses focus; emptying it sends `{"type":"remove","id":<its id>}`. The page's "+" button
 * first adds an empty factory item with a new random id (`{"type":"add","id":...,"item":{"type":
 * "factory",...},"after":<last id>}`); double-clicking it and typing text then sends an edit that
 * turns that item into a paragraph: without the add there is no item for the edit to change.
 */
import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import type { Workflow } from '../../types'
import { mustPass, putAction, readPage } from '../keys'
import { editParagraph, followLink, leaveEditor } from '../person'
import { PAGES } from '../seed'

const ACTION = (slug: string) => ({ method: 'PUT', path: `/page/${slug}/action` })

/** Waits for the client's save of an action to page `slug`. */
function saved(page: Page, slug: string) {
  return page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith(`/page/${slug}/action`),
  )
}

/** Garden Plan → "+" (add paragraph) → double-click the new item → type → click away. */
export const addParagraph: Workflow = {
  id: 'add_paragraph',
  intent: 'add a paragraph "Order more bean poles." to the Garden Plan page',
  rewordings: {
    terse: 'garden plan: add "Order more bean poles."',
    chatty:
      "we're short of bean poles, could you put a line on the Garden Plan page saying Order more bean poles.?",
    withoutValue: 'add a paragraph to the garden plan',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    const paper = await followLink(page, 'welcome-visitors', 'Garden Plan', 'garden-plan')
    const added = saved(page, 'garden-plan')
    await paper.locator('.add-factory').click()
    await added
    const id = await paper.locator('.item.factory').getAttribute('data-id')
    const item = paper.locator(`.item[data-id="${id}"]`)
    await item.dblclick({ position: { x: 30, y: 10 } })
    await item.locator('textarea').fill('Order more bean poles.')
    const edited = saved(page, 'garden-plan')
    await leaveEditor(paper)
    await edited
    await paper.locator('.item.paragraph', { hasText: 'Order more bean poles.' }).waitFor()
  },
  key: {
    target: ACTION('garden-plan'),
    inputs: [
      {
        recorded: 'Order more bean poles.',
        changed: ['Net the brassicas against pigeons.', 'Mulch the raspberries in October.'],
      },
    ],
    dependencies: [ACTION('garden-plan')],
    mutating: true,
    async replayByHand(app, session) {
      const id = randomBytes(8).toString('hex')
      await putAction(app, session, 'garden-plan', {
        type: 'add',
        id,
        item: { type: 'factory', id },
        after: '0718293041526374',
      })
      await putAction(app, session, 'garden-plan', {
        type: 'edit',
        id,
        item: { type: 'paragraph', id, text: 'Net the brassicas against pigeons.' },
      })
      mustPass(
        await addParagraph.key.check(app, { status: 'succeeded', result: 'ok' }, session, [
          'Net the brassicas against pigeons.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const page = await readPage(app, 'garden-plan')
      if (!page) return 'the Garden Plan page is gone'
      const texts = page.story.map((i) => i.text)
      if (!texts.includes(String(used[0])))
        return `Garden Plan has no paragraph "${String(used[0])}" (${texts.length} items)`
      if (texts.includes('Order more bean poles.')) return 'the recorded paragraph was added'
      const seeded = PAGES.find((p) => p.slug === 'garden-plan')!.story
      if (seeded.some((s) => !page.story.some((i) => i.id === s.id)))
        return 'a seeded paragraph of Garden Plan was lost'
      return null
    },
  },
}

/** Garden Plan → double-click the beans paragraph → new text → click away. */
export const editParagraphText: Workflow = {
  id: 'edit_paragraph',
  intent:
    'on the Garden Plan page, change the paragraph about the beans to "Beans climb the new trellis by the shed."',
  rewordings: {
    terse: 'garden plan beans line -> Beans climb the new trellis by the shed.',
    chatty:
      'we moved the trellis, so could you update the beans bit on Garden Plan to say Beans climb the new trellis by the shed.?',
    withoutValue: 'edit a paragraph on the garden plan',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    const paper = await followLink(page, 'welcome-visitors', 'Garden Plan', 'garden-plan')
    const area = await editParagraph(paper, 'Beans climb the old trellis')
    await area.fill('Beans climb the new trellis by the shed.')
    const edited = saved(page, 'garden-plan')
    await leaveEditor(paper)
    await edited
  },
  key: {
    target: ACTION('garden-plan'),
    inputs: [
      {
        recorded: 'Beans climb the new trellis by the shed.',
        changed: ['Beans go in the north bed this year.', 'No beans this year, peas instead.'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const id = 'f607182930415263'
      await putAction(app, session, 'garden-plan', {
        type: 'edit',
        id,
        item: { type: 'paragraph', id, text: 'Beans go in the north bed this year.' },
      })
      mustPass(
        await editParagraphText.key.check(app, { status: 'succeeded', result: 'ok' }, session, [
          'Beans go in the north bed this year.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const page = await readPage(app, 'garden-plan')
      if (!page) return 'the Garden Plan page is gone'
      const item = page.story.find((i) => i.id === 'f607182930415263')
      if (!item) return 'the beans paragraph is gone'
      if (item.text !== String(used[0])) return `the beans paragraph says "${item.text ?? ''}"`
      const seeded = PAGES.find((p) => p.slug === 'garden-plan')!.story
      if (seeded.some((s) => !page.story.some((i) => i.id === s.id)))
        return 'a seeded paragraph of Garden Plan was lost'
      return null
    },
  },
}

/** Tool Shed → double-click the broken rake paragraph → empty it → click away: it is removed. */
export const removeParagraph: Workflow = {
  id: 'remove_paragraph',
  intent: 'remove the paragraph about the broken rake from the Tool Shed page',
  rewordings: {
    terse: 'tool shed: delete broken rake line',
    chatty:
      'the rake got its new handle, so please take the broken rake paragraph off the Tool Shed page',
    withoutValue: 'remove a paragraph from a page',
  },
  startPath: '/view/welcome-visitors',
  signedIn: true,
  async play(page) {
    const paper = await followLink(page, 'welcome-visitors', 'Tool Shed', 'tool-shed')
    const area = await editParagraph(paper, 'broken rake')
    await area.fill('')
    const removed = saved(page, 'tool-shed')
    await leaveEditor(paper)
    await removed
    await paper.locator('.item', { hasText: 'broken rake' }).waitFor({ state: 'detached' })
  },
  key: {
    target: ACTION('tool-shed'),
    inputs: [{ recorded: '5263748596071829', changed: ['4152637485960718', '3041526374859607'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await putAction(app, session, 'tool-shed', { type: 'remove', id: '4152637485960718' })
      mustPass(
        await removeParagraph.key.check(app, { status: 'succeeded', result: 'ok' }, session, [
          '4152637485960718',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const page = await readPage(app, 'tool-shed')
      if (!page) return 'the Tool Shed page is gone'
      const ids = page.story.map((i) => i.id)
      if (ids.includes(String(used[0]))) return `the paragraph ${String(used[0])} is still there`
      if (!ids.includes('5263748596071829'))
        return 'the recorded paragraph (broken rake) was removed'
      return null
    },
  },
}
