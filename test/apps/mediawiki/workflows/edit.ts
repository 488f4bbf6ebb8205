/** The page-writing workflows: edit a page's text, create a new page. */
import type { Page } from 'playwright-core'
import type { StorageState } from '../../../../src/shared/trace'
import type { AnswerKey, AppInstance, Workflow } from '../../types'
import { getPage, hiddenFieldsOf, postForm, rawText, urlTitle } from '../http'
import { focusSearchBox, openPageBySearch } from '../person'

const MAIN = '/index.php/Main_Page'

/**
 * Saves `text` as the whole of page `title` the way the edit form does: GET action=edit for the
 * form's hidden fields (wpEditToken, wpStarttime, wpEdittime, editRevId, wpUnicodeCheck, ...),
 * then POST action=submit. MediaWiki answers a saved edit with a 302 to the page.
 */
async function editByHand(
  app: AppInstance,
  session: StorageState,
  title: string,
  text: string,
): Promise<void> {
  const form = await getPage(app, `/index.php?title=${urlTitle(title)}&action=edit`, session)
  const fields = hiddenFieldsOf(form, 'editform')
  const body = new URLSearchParams({
    ...fields,
    wpTextbox1: text,
    wpSummary: '',
    wpSave: 'Save changes',
  })
  const res = await postForm(
    app,
    `/index.php?title=${urlTitle(title)}&action=submit`,
    session,
    body,
  )
  if (res.status !== 302) throw new Error(`the edit of ${title} was not saved (HTTP ${res.status})`)
}

/** A write's check: page `title` now holds exactly `text`. */
async function pageHolds(app: AppInstance, title: string, text: string): Promise<string | null> {
  const raw = await rawText(app, title)
  if (raw === null) return `the page ${title} does not exist`
  return raw.trim() === text.trim() ? null : `the page ${title} holds ${JSON.stringify(raw)}`
}

/** Replaces everything in the edit box with `text` and saves, as a person would. */
async function typeAndSave(page: Page, text: string): Promise<void> {
  const box = page.locator('#wpTextbox1')
  await box.click()
  await box.press('Control+A')
  await box.press('Delete')
  await box.pressSequentially(text, { delay: 15 })
  await page.locator('#wpSave').click()
}

/** The key of an edit-form save, the same for an existing page and a new one. */
function editKey(
  title: { recorded: string; changed: [string, string] },
  text: { recorded: string; changed: [string, string] },
): AnswerKey {
  return {
    target: { method: 'POST', path: '/index.php', operation: { field: 'action', value: 'submit' } },
    inputs: [title, text],
    // The edit form carries the session's wpEditToken and the page's wpEdittime/editRevId.
    dependencies: [
      { method: 'GET', path: '/index.php', operation: { field: 'action', value: 'edit' } },
    ],
    mutating: true,
    async replayByHand(app, session) {
      await editByHand(app, session, title.changed[0], text.changed[0])
      const problem = await this.check(app, { status: 'succeeded', result: null }, session, [
        title.changed[0],
        text.changed[0],
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, _session, used) {
      return pageHolds(app, String(used[0]), String(used[1]))
    },
  }
}

/** Finds the page with the search box, opens Edit, replaces the text and saves. */
export const editPage: Workflow = {
  id: 'edit_page',
  intent: 'change the text of the page Book Club to "We meet on Fridays at 6pm."',
  rewordings: {
    terse: 'set Book Club text: We meet on Fridays at 6pm.',
    chatty:
      'hey, can you update our Book Club wiki page so it just says "We meet on Fridays at 6pm."?',
    withoutValue: 'replace the text of a wiki page',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    await openPageBySearch(page, 'Book Club')
    await page.locator('#ca-edit a').click()
    await typeAndSave(page, 'We meet on Fridays at 6pm.')
    await page.locator('#mw-content-text', { hasText: 'We meet on Fridays at 6pm.' }).waitFor()
  },
  key: editKey(
    { recorded: 'Book Club', changed: ['Garden Tools', 'Kitchen Supplies'] },
    {
      recorded: 'We meet on Fridays at 6pm.',
      changed: ['Spade, rake and a new wheelbarrow.', 'Coffee, tea and oat milk only.'],
    },
  ),
}

/**
 * Searches for a title no page has; the results page offers to create it; the person follows
 * that link, types the text and saves.
 */
export const createPage: Workflow = {
  id: 'create_page',
  intent: 'create a page called Picnic Plan that says "Bring blankets and lemonade."',
  rewordings: {
    terse: 'new page Picnic Plan: Bring blankets and lemonade.',
    chatty:
      'could you start a new wiki page named Picnic Plan with the line "Bring blankets and lemonade."?',
    withoutValue: 'create a new wiki page with some text',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    const box = await focusSearchBox(page)
    await box.pressSequentially('Picnic Plan', { delay: 30 })
    await box.press('Enter')
    await page.locator('.mw-search-createlink a').click()
    await typeAndSave(page, 'Bring blankets and lemonade.')
    await page.locator('#firstHeading', { hasText: 'Picnic Plan' }).waitFor()
    await page.locator('#mw-content-text', { hasText: 'Bring blankets and lemonade.' }).waitFor()
  },
  key: editKey(
    { recorded: 'Picnic Plan', changed: ['Winter Party', 'Reading List'] },
    {
      recorded: 'Bring blankets and lemonade.',
      changed: ['Mulled wine at seven.', 'Start with Middlemarch.'],
    },
  ),
}
