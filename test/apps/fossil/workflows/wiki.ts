/**
 * Fossil workflows that write wiki pages. The wiki editor (`/wikiedit?name=`) is a script page:
 * it loads the page with `GET /wikiajax/fetch?page=` and saves with an XHR multipart post to
 * `/wikiajax/save` (fields `page`, `mimetype`, `isnew`, `content`), answered with the saved page
 * as JSON. No token: the /wikiajax/ routes check only that the Referer is of the same origin.
 * Creating a page starts at `/wikinew`, whose form post only redirects to the editor.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import type { StorageState } from '../../../../src/shared/trace'
import { mustPass, refererFrom, wikiPage } from '../keys'

const SAVE = { method: 'POST', path: '/wikiajax/save' }

/** Replaces the editor's text the way a person does (select all, type), then clicks Save. */
async function typeAndSave(page: Page, text: string): Promise<void> {
  const area = page.locator('textarea:visible').first()
  await area.click()
  await area.press('ControlOrMeta+a')
  await area.press('Delete')
  await area.pressSequentially(text, { delay: 10 })
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page
    .getByText(/Saved page/)
    .first()
    .waitFor()
}

/** The editor's save by hand: the multipart post its script sends. */
async function saveWiki(
  app: AppInstance,
  session: StorageState,
  name: string,
  content: string,
  isNew: boolean,
): Promise<void> {
  const form = new FormData()
  form.append('page', name)
  form.append('mimetype', 'text/x-markdown')
  form.append('isnew', isNew ? '1' : '0')
  form.append('content', content)
  const res = await app.fetch('/wikiajax/save', {
    method: 'POST',
    session,
    headers: refererFrom(app, `/wikiedit?name=${encodeURIComponent(name)}`),
    body: form,
  })
  const answer = (await res.json()) as { error?: string; name?: string }
  if (answer.error || answer.name !== name)
    throw new Error(`/wikiajax/save answered ${res.status}: ${answer.error ?? 'another page'}`)
}

/** A write's check: the page `name` exists and holds `text`. */
async function pageHolds(
  app: AppInstance,
  session: StorageState,
  name: string,
  text: string,
): Promise<string | null> {
  const page = await wikiPage(app, session, name)
  if (!page) return `the wiki page "${name}" does not exist`
  return page.content.trim() === text.trim()
    ? null
    : `the wiki page "${name}" reads ${JSON.stringify(page.content)}`
}

const NEW_PAGE = 'Roadmap 2026'
const NEW_TEXT = 'Milestones: CSV export in March, pass alerts in June.'

/** Wiki, the page list, New, types the name, Create, types the text in the editor, Save. */
export const createWikiPage: Workflow = {
  id: 'create_wiki_page',
  intent: `create the wiki page "${NEW_PAGE}" with the text "${NEW_TEXT}"`,
  rewordings: {
    terse: `new wiki page ${NEW_PAGE}: ${NEW_TEXT}`,
    chatty: `Could you start a wiki page called "${NEW_PAGE}" in Orbit Tracker that says "${NEW_TEXT}"?`,
    withoutValue: 'create a new wiki page with some text',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await page.locator('.mainmenu').getByRole('link', { name: 'Wiki' }).click()
    await page.locator('.submenu').getByRole('link', { name: 'List' }).click()
    await page.locator('.submenu').getByRole('link', { name: 'New' }).click()
    await page.waitForURL('**/wikinew')
    await page.locator('input[name=name]').fill(NEW_PAGE)
    await page.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL('**/wikiedit?**')
    await typeAndSave(page, NEW_TEXT)
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: NEW_PAGE, changed: ['Launch Plan', 'Station Survey'] },
      {
        recorded: NEW_TEXT,
        changed: [
          'The launch window opens on 12 May; Ada runs the countdown.',
          'We visit Lisbon and Madrid in April to check the antennas.',
        ],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      await saveWiki(app, session, used[0]!, used[1]!, true)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      return pageHolds(app, session, String(used[0]), String(used[1]))
    },
  },
}

const EDITED_PAGE = 'Release Checklist'
const EDITED_TEXT = 'Run the tests, update the changelog, then tag the release.'

/** Wiki, the page list, clicks the page, Edit, replaces the text, Save. */
export const editWikiPage: Workflow = {
  id: 'edit_wiki_page',
  intent: `change the wiki page "${EDITED_PAGE}" to say "${EDITED_TEXT}"`,
  rewordings: {
    terse: `${EDITED_PAGE} wiki: ${EDITED_TEXT}`,
    chatty: `Our "${EDITED_PAGE}" wiki page is out of date, can you replace its text with "${EDITED_TEXT}"?`,
    withoutValue: 'rewrite the text of a wiki page',
  },
  startPath: '/home',
  signedIn: true,
  async play(page) {
    await page.locator('.mainmenu').getByRole('link', { name: 'Wiki' }).click()
    await page.locator('.submenu').getByRole('link', { name: 'List' }).click()
    await page.getByRole('link', { name: EDITED_PAGE, exact: true }).click()
    await page.locator('.submenu').getByRole('link', { name: 'Edit' }).click()
    await page.waitForURL('**/wikiedit?**')
    // The editor fills its text area once /wikiajax/fetch answered.
    await page.waitForFunction(() => {
      const area = document.querySelector<HTMLTextAreaElement>('textarea')
      return !!area && area.value.includes('Tag the release')
    })
    await typeAndSave(page, EDITED_TEXT)
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: EDITED_PAGE, changed: ['Ground Stations', 'Coding Style'] },
      {
        recorded: EDITED_TEXT,
        changed: [
          'Berlin and Lisbon are active; Madrid joins in May.',
          'Use four spaces and type hints; run black before each commit.',
        ],
      },
    ],
    // The save names the page and replaces its text: nothing to read first.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      await saveWiki(app, session, used[0]!, used[1]!, false)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      return pageHolds(app, session, String(used[0]), String(used[1]))
    },
  },
}
