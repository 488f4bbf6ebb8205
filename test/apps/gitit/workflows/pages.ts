/**
 * Writing pages. Save in the editor posts `sha1` (the revision the editor was opened on; empty for
 * a new page), `editedText`, `logMsg` (required: the config has no default summary) and the
 * button `update=Save` to the page's own URL, answered 303 to the page. An existing page saved
 * without the sha1 it was opened on fails (Gitit answers 500 "ResourceExists"); a stale one
 * makes a merge. A revert is the editor opened on an old revision (`/_edit/<Title>?revision=
 * <sha>&logMsg=Revert to <sha>`, the text read-only, the sha1 the current one) and saved. Delete
 * is a confirmation page whose form posts `filetodelete=<Title>.page` and `confirm` to
 * `/_delete/<Title>`, answered 303 to the front page.
 */
import type { Workflow } from '../../types'
import {
  mustPass,
  openEditor,
  pageAction,
  pagePath,
  pageText,
  postForm,
  revisions,
  SAVE_PAGE,
} from '../keys'
import { logIn, openPage, pageTab, typeText } from '../person'
import { PAGES } from '../seed'

/** Text as Gitit stores it, compared loosely (a browser posts a textarea's newlines as CRLF). */
const norm = (s: string | null): string => (s ?? '').replace(/\r/g, '').trim()

/**
 * Types the new page's address (`/Printer%20Setup`) in the address bar (Gitit's Go box only
 * searches when no page has the title); on "Create Printer Setup?" clicks "Create the page",
 * types the text and a description, Save.
 */
export const createPage: Workflow = {
  id: 'create_page',
  intent:
    "create a wiki page called 'Printer Setup' that says 'The office printer is on the second floor, next to the kitchen.'",
  rewordings: {
    terse:
      "new page Printer Setup: 'The office printer is on the second floor, next to the kitchen.'",
    chatty:
      "people keep asking where the printer is, can you add a Printer Setup page to the wiki saying 'The office printer is on the second floor, next to the kitchen.'?",
    withoutValue: 'create a new wiki page',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    // Gitit makes a page by opening its address: the Go box only searches for a missing title.
    await page.goto(`${app.origin}/Printer%20Setup`, { waitUntil: 'domcontentloaded' })
    await page.locator('h1.pageTitle', { hasText: 'Create Printer Setup?' }).waitFor()
    await page.getByRole('link', { name: "Create the page 'Printer Setup'" }).click()
    await page.waitForURL(/\/_edit\//)
    await typeText(page, 'The office printer is on the second floor, next to the kitchen.')
    await page.locator('#logMsg').fill('Where the printer is')
    await page.locator('#update').click()
    await page.locator('#wikipage', { hasText: 'next to the kitchen' }).waitFor()
  },
  key: {
    target: SAVE_PAGE,
    inputs: [
      { recorded: 'Printer Setup', changed: ['Parking Rules', 'Fire Drill'] },
      {
        recorded: 'The office printer is on the second floor, next to the kitchen.',
        changed: [
          'Park only in the rows marked for visitors.',
          'Fire drills happen on the first Monday of each quarter.',
        ],
      },
    ],
    // A new page has no revision: the editor's sha1 is empty.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [title, text] = ['Parking Rules', 'Park only in the rows marked for visitors.']
      const res = await postForm(app, session, pagePath(title), {
        sha1: '',
        editedText: text,
        logMsg: 'Parking',
        update: 'Save',
      })
      await res.arrayBuffer()
      if (res.status !== 303) throw new Error(`the save answered ${res.status}`)
      mustPass(
        await createPage.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          text,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [title, text] = [String(used[0]), String(used[1])]
      const saved = await pageText(app, title)
      if (saved === null) return `there is no page ${title}`
      if (!norm(saved).includes(text)) return `the page ${title} says "${norm(saved)}"`
      if ((await pageText(app, 'Printer Setup')) !== null)
        return 'the recorded page Printer Setup was created'
      return null
    },
  },
}

/** Opens All pages → Coffee Machine → edit, replaces the text, types a description, Save. */
export const editPage: Workflow = {
  id: 'edit_page',
  intent:
    "change the Coffee Machine page to say 'The coffee machine is fixed and was descaled on 28 November.'",
  rewordings: {
    terse: "Coffee Machine page: 'The coffee machine is fixed and was descaled on 28 November.'",
    chatty:
      "good news, the coffee machine works again! can you update its wiki page to 'The coffee machine is fixed and was descaled on 28 November.'",
    withoutValue: "replace a wiki page's text",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openPage(page, 'Coffee Machine')
    await pageTab(page, 'edit')
    await page.waitForURL(/\/_edit\//)
    await typeText(page, 'The coffee machine is fixed and was descaled on 28 November.')
    await page.locator('#logMsg').fill('Machine fixed')
    await page.locator('#update').click()
    await page.locator('#wikipage', { hasText: 'descaled on 28 November' }).waitFor()
  },
  key: {
    target: SAVE_PAGE,
    inputs: [
      { recorded: 'Coffee Machine', changed: ['VPN Setup', 'Lunch Options'] },
      {
        recorded: 'The coffee machine is fixed and was descaled on 28 November.',
        changed: ['Use the new VPN profile from the IT portal.', 'The canteen now opens at 11:30.'],
      },
    ],
    // The editor's sha1: the revision the save is made on.
    dependencies: [pageAction('GET', 'edit')],
    mutating: true,
    async replayByHand(app, session) {
      const [title, text] = ['VPN Setup', 'Use the new VPN profile from the IT portal.']
      const { sha1 } = await openEditor(app, session, title)
      const res = await postForm(app, session, pagePath(title), {
        sha1,
        editedText: text,
        logMsg: 'New profile',
        update: 'Save',
      })
      await res.arrayBuffer()
      if (res.status !== 303) throw new Error(`the save answered ${res.status}`)
      mustPass(
        await editPage.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          text,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [title, text] = [String(used[0]), String(used[1])]
      const saved = norm(await pageText(app, title))
      if (!saved.includes(text)) return `the page ${title} says "${saved}"`
      if (saved.includes('<<<<<<<')) return `the page ${title} holds a merge conflict`
      if (norm(await pageText(app, 'Coffee Machine')) !== norm(PAGES['Coffee Machine']![0]![2]))
        return 'the recorded page Coffee Machine was changed'
      return null
    },
  },
}

/** The text of page `title`'s revision before its last, as seeded. */
function previousText(title: string): string {
  const revs = PAGES[title]!
  return revs[revs.length - 2]![2]
}

/**
 * Opens All pages → Team Contacts → history, clicks the revision before the last ("Team phone
 * list"), then the revert tab, and saves the editor it opens (the log message is filled in).
 */
export const revertPage: Workflow = {
  id: 'revert_page',
  intent: 'undo the last change to the Team Contacts page',
  rewordings: {
    terse: 'revert Team Contacts',
    chatty:
      'someone wiped the phone list on Team Contacts, can you put back the version from before that edit?',
    withoutValue: "revert a wiki page's last edit",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openPage(page, 'Team Contacts')
    await pageTab(page, 'history')
    await page.waitForURL(/\/_history\//)
    await page
      .locator('ul.history li')
      .nth(1)
      .getByRole('link', { name: 'Team phone list' })
      .click()
    await page.waitForURL(/[?&]revision=/)
    await pageTab(page, 'revert')
    await page.waitForURL(/\/_edit\/.*revision=/)
    await page.locator('#update').click()
    await page.locator('#wikipage', { hasText: 'extension 201' }).waitFor()
  },
  key: {
    target: SAVE_PAGE,
    inputs: [{ recorded: 'Team Contacts', changed: ['Meeting Notes', 'Holiday Calendar'] }],
    // The revision before the last, from the history; the editor on it gives its text and the
    // current sha1.
    dependencies: [pageAction('GET', 'history'), pageAction('GET', 'edit')],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Meeting Notes'
      const previous = (await revisions(app, title))[1]!
      const { sha1, text } = await openEditor(app, session, title, previous)
      const res = await postForm(app, session, pagePath(title), {
        sha1,
        editedText: text,
        logMsg: `Revert to ${previous}`,
        update: 'Save',
      })
      await res.arrayBuffer()
      if (res.status !== 303) throw new Error(`the save answered ${res.status}`)
      mustPass(
        await revertPage.key.check(app, { status: 'succeeded', result: null }, session, [title]),
      )
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      const saved = norm(await pageText(app, title))
      if (saved !== norm(previousText(title)))
        return `the page ${title} says "${saved.slice(0, 120)}", not its previous version`
      if (norm(await pageText(app, 'Team Contacts')) !== '# Team Contacts\n\nAsk Dana.')
        return 'the recorded page Team Contacts was changed'
      return null
    },
  },
}

/**
 * Starts signed out: logs in from the top of the page, opens All pages → Old Roadmap, "Delete
 * this page" in the sidebar, "Yes, delete it!".
 */
export const deletePage: Workflow = {
  id: 'delete_page',
  intent: 'delete the Old Roadmap page from the wiki',
  rewordings: {
    terse: 'delete page Old Roadmap',
    chatty: 'the Old Roadmap page is two years out of date and confuses people, can you remove it?',
    withoutValue: 'delete a wiki page',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await openPage(page, 'Old Roadmap')
    await page.locator('.pageTools').getByRole('link', { name: 'Delete this page' }).click()
    await page.waitForURL(/\/_delete\//)
    await page.getByRole('button', { name: 'Yes, delete it!' }).click()
    await page.waitForURL((url) => url.pathname === '/')
  },
  key: {
    target: {
      ...pageAction('POST', 'delete'),
      operation: { field: 'confirm', value: 'Yes, delete it!' },
    },
    inputs: [{ recorded: 'Old Roadmap', changed: ['Retired Printers', 'Spring Party 2025'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Retired Printers'
      const res = await postForm(app, session, `/_delete${pagePath(title)}`, {
        filetodelete: `${title}.page`,
        confirm: 'Yes, delete it!',
      })
      await res.arrayBuffer()
      if (res.status !== 303) throw new Error(`the delete answered ${res.status}`)
      mustPass(
        await deletePage.key.check(app, { status: 'succeeded', result: null }, session, [title]),
      )
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      if ((await pageText(app, title)) !== null) return `the page ${title} still exists`
      if ((await pageText(app, 'Old Roadmap')) === null)
        return 'the recorded page Old Roadmap was deleted'
      if ((await pageText(app, 'Onboarding')) === null) return 'the page Onboarding was deleted too'
      return null
    },
  },
}
