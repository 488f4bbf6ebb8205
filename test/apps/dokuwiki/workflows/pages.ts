/**
 * DokuWiki workflows that write pages. All three post the edit form (`do[save]=1`) to
 * `/doku.php?id=<id>&do=edit` with the per-session `sectok`; editing and deleting also echo the
 * page's `date` (its mtime when the editor opened), or DokuWiki answers with a conflict and saves
 * nothing. Deleting a page is saving it empty: DokuWiki has no other delete for pages.
 */
import type { Page } from 'playwright-core'
import type { RequestKey, Workflow } from '../../types'
import { mustPass, rawPage, savePage } from '../keys'

const SAVE: RequestKey = {
  method: 'POST',
  path: '/doku.php',
  operation: { field: 'do[save]', value: '1' },
}
/** The editor page: the sectok and the page's date a save must echo. */
const EDITOR: RequestKey = {
  method: 'GET',
  path: '/doku.php',
  operation: { field: 'do', value: 'edit' },
}

/** Replaces the whole text of the open editor the way a person does: select all, then type. */
async function typeText(page: Page, text: string): Promise<void> {
  const area = page.locator('#wiki__text')
  await area.click()
  await area.press('ControlOrMeta+a')
  if (text) await area.pressSequentially(text, { delay: 15 })
  else await area.press('Delete')
}

/** Clicks Save and waits until DokuWiki redirected back to the page view. */
async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click()
  await page.waitForURL((url) => !url.search.includes('do='))
}

/** From the start page: clicks the link to the team status page, edits its text, saves. */
export const editPage: Workflow = {
  id: 'edit_page',
  intent: "change the team status page to say 'Status: amber'",
  rewordings: {
    terse: 'team status: Status: amber',
    chatty:
      "hey, can you update our team status page on the wiki so it just says 'Status: amber' now?",
    withoutValue: 'update the text of the team status page',
  },
  startPath: '/doku.php?id=start',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Team status' }).click()
    await page.waitForURL(/id=team:status/)
    await page.getByRole('link', { name: 'Edit this page' }).first().click()
    await typeText(page, 'Status: amber')
    await save(page)
    await page.getByText('Status: amber').waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      {
        recorded: 'Status: amber',
        changed: ['Status: red, waiting on the vendor', 'Status: green again'],
      },
    ],
    dependencies: [EDITOR],
    mutating: true,
    async replayByHand(app, session) {
      const text = 'Status: red, waiting on the vendor'
      await savePage(app, session, 'team:status', text)
      mustPass(
        await editPage.key.check(app, { status: 'succeeded', result: null }, session, [text]),
      )
    },
    async check(app, _run, _session, used) {
      const text = (await rawPage(app, 'team:status')).trim()
      return text === String(used[0]).trim() ? null : `team:status reads ${JSON.stringify(text)}`
    },
  },
}

/** Opens the address of a page that does not exist yet, clicks "Create this page", types, saves. */
export const createPage: Workflow = {
  id: 'create_page',
  intent:
    "create the wiki page projects:mobile_app with the text 'Plan for the mobile app: first release in March.'",
  rewordings: {
    terse: "new page projects:mobile_app: 'Plan for the mobile app: first release in March.'",
    chatty:
      "could you start a new page called projects:mobile_app on our wiki that says 'Plan for the mobile app: first release in March.'?",
    withoutValue: 'create a new wiki page with some text',
  },
  startPath: '/doku.php?id=projects:mobile_app',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Create this page' }).first().click()
    await typeText(page, 'Plan for the mobile app: first release in March.')
    await save(page)
    await page.getByText('Plan for the mobile app').waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      {
        recorded: 'projects:mobile_app',
        changed: ['projects:data_warehouse', 'projects:hiring_plan'],
      },
      {
        recorded: 'Plan for the mobile app: first release in March.',
        changed: [
          'Plan for the data warehouse: load the sales tables first.',
          'Hiring plan: two engineers in spring.',
        ],
      },
    ],
    // Any page viewed signed in carries the sectok in its forms; a new page has no date to echo.
    dependencies: [{ method: 'GET', path: '/doku.php' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = [
        'projects:data_warehouse',
        'Plan for the data warehouse: load the sales tables first.',
      ]
      await savePage(app, session, used[0]!, used[1]!, 'created')
      mustPass(
        await createPage.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, _session, used) {
      const id = String(used[0])
      const text = (await rawPage(app, id)).trim()
      return text === String(used[1]).trim() ? null : `${id} reads ${JSON.stringify(text)}`
    },
  },
}

/** Opens a page, clicks "Edit this page", empties the text and saves: DokuWiki deletes the page. */
export const deletePage: Workflow = {
  id: 'delete_page',
  intent: 'delete the wiki page archive:2024-retro',
  rewordings: {
    terse: 'delete archive:2024-retro',
    chatty:
      'the page archive:2024-retro is outdated now, could you please remove it from our wiki?',
    withoutValue: 'delete a page from the wiki',
  },
  startPath: '/doku.php?id=archive:2024-retro',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Edit this page' }).first().click()
    await typeText(page, '')
    await save(page)
    // A page saved empty is gone: DokuWiki shows its "deleted" notice in its place.
    await page.getByText('This page does not exist anymore').first().waitFor()
  },
  key: {
    target: SAVE,
    inputs: [
      { recorded: 'archive:2024-retro', changed: ['archive:2025-q3-plan', 'archive:2025-q4-plan'] },
    ],
    dependencies: [EDITOR],
    mutating: true,
    async replayByHand(app, session) {
      const id = 'archive:2025-q3-plan'
      await savePage(app, session, id, '')
      mustPass(
        await deletePage.key.check(app, { status: 'succeeded', result: null }, session, [id]),
      )
    },
    async check(app, _run, _session, used) {
      const text = await rawPage(app, String(used[0]))
      return text === '' ? null : `${String(used[0])} still exists`
    },
  },
}
