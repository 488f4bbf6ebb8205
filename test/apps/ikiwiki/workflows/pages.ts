/**
 * ikiwiki workflows that write pages through its CGI. Every signed-in form carries `sid` (the
 * session id, which ikiwiki compares with the session cookie) and posts back to /ikiwiki.cgi:
 * the edit form as multipart with `do=edit|create`, the page, the text and `rcsinfo` (the file's
 * git revision when the editor opened); the rename and remove forms as urlencoded posts with
 * `do=rename|remove`. The edit form's Rename and Remove buttons post the edit form, and ikiwiki
 * answers them with the rename or remove form.
 */
import type { Page } from 'playwright-core'
import type { RequestKey, Workflow } from '../../types'
import { mustPass, openForm, pageSource, postForm, renderedPage, savePage, sidOf } from '../keys'

const CGI = '/ikiwiki.cgi'
/** The Save Page button of the edit form (editing an existing page). */
const SAVE_EDIT: RequestKey = {
  method: 'POST',
  path: CGI,
  operation: [
    { field: 'do', value: 'edit' },
    { field: '_submit', value: 'Save Page' },
  ],
}
/** The edit form of a page: its sid and rcsinfo. */
const EDIT_FORM: RequestKey = {
  method: 'GET',
  path: CGI,
  operation: { field: 'do', value: 'edit' },
}

/** Replaces the text of the open editor the way a person does: select all, then type. */
async function typeText(page: Page, text: string): Promise<void> {
  const area = page.locator('#editcontent')
  await area.click()
  await area.press('ControlOrMeta+a')
  await area.pressSequentially(text, { delay: 10 })
}

/** The page name ikiwiki makes of a typed title: spaces become underscores. */
function titlePage(title: string): string {
  return title.replace(/ /g, '_')
}

/**
 * Not signed in: from the front page, opens the team status page and clicks Edit; ikiwiki asks
 * for a sign-in first, then shows the editor; types the new text and saves.
 */
export const editPage: Workflow = {
  id: 'edit_page',
  intent: "change the wiki page team_status to say 'Status: amber'",
  rewordings: {
    terse: "team_status: 'Status: amber'",
    chatty:
      "hey, could you update the team_status page on our wiki so it just says 'Status: amber' now?",
    withoutValue: 'change the text of a wiki page',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await page.getByRole('link', { name: 'Team status' }).click()
    await page.waitForURL(/\/team_status\/$/)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    // Not signed in: ikiwiki answers the Edit link with its sign-in form, then the editor.
    await page.locator('#name').fill(app.user.name)
    await page.locator('#password').fill(app.user.password)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.locator('#editcontent').waitFor()
    await typeText(page, 'Status: amber')
    await page.getByRole('button', { name: 'Save Page' }).click()
    await page.waitForURL(/\/team_status\/\?updated$/)
    await page.getByText('Status: amber').waitFor()
  },
  key: {
    target: SAVE_EDIT,
    inputs: [
      // The page the person named: in the editor's query (page=) and in the saved form's body.
      { recorded: 'team_status', changed: ['onboarding', 'holiday_calendar'] },
      { recorded: 'Status: amber', changed: ['Status: red, waiting on the vendor', 'Closed.'] },
    ],
    // The editor's rcsinfo (the page's last commit; a stale one makes ikiwiki merge). Signed
    // out, this GET answered the sign-in form and the sign-in post answered the editor; with a
    // saved login it answers the editor itself.
    dependencies: [EDIT_FORM],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['onboarding', 'Status: red, waiting on the vendor']
      await savePage(app, session, used[0]!, used[1]!)
      mustPass(await editPage.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [page, text] = [String(used[0]), String(used[1])]
      const source = (await pageSource(app, session, page))?.trim()
      if (source !== text.trim()) return `${page} reads ${JSON.stringify(source)}`
      // The recorded page must not have been written instead (or as well).
      if (page !== 'team_status' && (await pageSource(app, session, 'team_status'))?.includes(text))
        return `team_status got the text meant for ${page}`
      return null
    },
  },
}

/**
 * On the meeting notes page (a blog-style inline with a "new post" box), types a title, clicks
 * the box's Edit button (a GET `do=blog` that answers the editor for `notes/<Title>`), types the
 * text and saves: a multipart post with `do=create`.
 */
export const createNote: Workflow = {
  id: 'create_note',
  intent:
    "add a meeting note titled 'Quarterly Plan' saying 'We agreed on three goals for the quarter.'",
  rewordings: {
    terse: "new note 'Quarterly Plan': 'We agreed on three goals for the quarter.'",
    chatty:
      "can you post a new meeting note on the wiki called 'Quarterly Plan' with the text 'We agreed on three goals for the quarter.'?",
    withoutValue: 'add a new meeting note to the wiki',
  },
  startPath: '/notes/',
  signedIn: true,
  async play(page) {
    await page.locator('input[name=title]').fill('Quarterly Plan')
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.locator('#editcontent').waitFor()
    await typeText(page, 'We agreed on three goals for the quarter.')
    await page.getByRole('button', { name: 'Save Page' }).click()
    await page.waitForURL(/\/notes\/Quarterly_Plan\/\?updated$/)
    await page.getByText('three goals').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: CGI,
      operation: [
        { field: 'do', value: 'create' },
        { field: '_submit', value: 'Save Page' },
      ],
    },
    inputs: [
      // Typed as a title; ikiwiki makes the page name notes/<Title with underscores>.
      { recorded: 'Quarterly Plan', changed: ['Vendor Review', 'Hiring Update'] },
      {
        recorded: 'We agreed on three goals for the quarter.',
        changed: ['The vendor review moves to January.', 'Two engineers join in spring.'],
      },
    ],
    // The new-post box's GET (do=blog&title=...) answers the editor with the sid and the page
    // name made of the title.
    dependencies: [{ method: 'GET', path: CGI, operation: { field: 'do', value: 'blog' } }],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Vendor Review', 'The vendor review moves to January.']
      const html = await openForm(app, session, {
        do: 'blog',
        from: 'notes',
        subpage: '1',
        title: used[0]!,
      })
      const res = await postForm(
        app,
        session,
        [
          ['_submitted', '1'],
          ['do', 'create'],
          ['sid', sidOf(html)],
          ['from', 'notes'],
          ['rcsinfo', ''],
          ['page', `notes/${titlePage(used[0]!)}`],
          ['type', 'mdwn'],
          ['editcontent', used[1]!],
          ['editmessage', ''],
          ['_submit', 'Save Page'],
        ],
        true,
      )
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`creating answered ${res.status}`)
      mustPass(
        await createNote.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const title = titlePage(String(used[0]))
      // The editor offers the name as typed and lower-cased; either is the person's page.
      for (const name of [title, title.toLowerCase()]) {
        const source = await pageSource(app, session, `notes/${name}`)
        if (source !== null)
          return source.includes(String(used[1]))
            ? null
            : `notes/${name} reads ${JSON.stringify(source)}`
      }
      return `there is no page notes/${title}`
    },
  },
}

/** The seeded text of the draft pages (a rename keeps it). */
const DRAFT_TEXT: Record<string, string> = {
  'drafts/budget_draft': 'Budget 2027: travel stays flat',
  'drafts/offsite_draft': 'Offsite in March',
  'drafts/roadmap_draft': 'Roadmap: search in Q1',
}

/**
 * From the front page, clicks the budget draft, Edit, then the editor's Rename button; in the
 * rename form replaces the proposed name ("drafts/budget draft") and clicks Rename; ikiwiki
 * answers with the editor of the renamed page, saying what it renamed.
 */
export const renamePage: Workflow = {
  id: 'rename_page',
  intent: "rename the wiki page drafts/budget_draft to 'drafts/budget 2027'",
  rewordings: {
    terse: "rename drafts/budget_draft → 'drafts/budget 2027'",
    chatty:
      "the budget draft isn't a draft anymore: could you rename drafts/budget_draft on the wiki to 'drafts/budget 2027'?",
    withoutValue: 'rename a page of the wiki',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Budget draft' }).click()
    await page.waitForURL(/\/drafts\/budget_draft\/$/)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByRole('button', { name: 'Rename', exact: true }).click()
    const name = page.locator('#new_name')
    await name.waitFor()
    await name.fill('drafts/budget 2027')
    await page.getByRole('button', { name: 'Rename', exact: true }).click()
    // Renamed from the editor, ikiwiki goes back to the editor of the renamed page and says so.
    await page.getByText('Successfully renamed drafts/budget_draft.mdwn').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: CGI,
      operation: [
        { field: 'do', value: 'rename' },
        { field: '_submit', value: 'Rename' },
      ],
    },
    inputs: [
      // The page picked by its link (the rename form's hidden `page`) and the typed new name.
      {
        recorded: 'drafts/budget_draft',
        changed: ['drafts/offsite_draft', 'drafts/roadmap_draft'],
      },
      { recorded: 'drafts/budget 2027', changed: ['drafts/offsite 2027', 'drafts/roadmap 2027'] },
    ],
    // The rename form's only token is the sid, the session cookie's value: nothing to read.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['drafts/offsite_draft', 'drafts/offsite 2027']
      const html = await openForm(app, session, { do: 'edit', page: used[0]! })
      const res = await postForm(
        app,
        session,
        [
          ['_submitted_rename', '2'],
          ['do', 'rename'],
          ['page', used[0]!],
          ['attachment', '0'],
          ['sid', sidOf(html)],
          ['new_name', used[1]!],
          ['type', 'mdwn'],
          ['_submit', 'Rename'],
        ],
        false,
      )
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`renaming answered ${res.status}`)
      mustPass(
        await renamePage.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const [from, to] = [String(used[0]), titlePage(String(used[1]))]
      const moved = await pageSource(app, session, to)
      if (moved === null) return `there is no page ${to}`
      if (!moved.includes(DRAFT_TEXT[from] ?? '\u0000')) return `${to} does not hold ${from}'s text`
      if ((await pageSource(app, session, from)) !== null) return `${from} still exists`
      return null
    },
  },
}

/**
 * From the front page, clicks the 2024 retro in the archive, Edit, then the editor's Remove
 * button, and confirms with Remove in the form ikiwiki asks with.
 */
export const removePage: Workflow = {
  id: 'remove_page',
  intent: 'delete the wiki page archive/2024_retro',
  rewordings: {
    terse: 'remove archive/2024_retro',
    chatty:
      'the 2024 retro page (archive/2024_retro) is obsolete, could you delete it from the wiki?',
    withoutValue: 'delete a page from the wiki',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: '2024 retro' }).click()
    await page.waitForURL(/\/archive\/2024_retro\/$/)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByRole('button', { name: 'Remove', exact: true }).click()
    await page.locator('#remove').waitFor()
    await page.getByRole('button', { name: 'Remove', exact: true }).click()
    // ikiwiki sends the person to the front page, whose link to the page is now a "?" link.
    await page.waitForURL((url) => url.pathname === '/' && !url.search)
  },
  key: {
    target: {
      method: 'POST',
      path: CGI,
      operation: [
        { field: 'do', value: 'remove' },
        { field: '_submit', value: 'Remove' },
      ],
    },
    inputs: [
      { recorded: 'archive/2024_retro', changed: ['archive/2025_q3_plan', 'archive/2025_q4_plan'] },
    ],
    // The remove form's only token is the sid, the session cookie's value: nothing to read.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const page = 'archive/2025_q3_plan'
      const html = await openForm(app, session, { do: 'edit', page })
      const res = await postForm(
        app,
        session,
        [
          ['_submitted_remove', '2'],
          ['do', 'remove'],
          ['page', page],
          ['sid', sidOf(html)],
          ['attachment', '0'],
          ['_submit', 'Remove'],
        ],
        false,
      )
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`removing answered ${res.status}`)
      mustPass(
        await removePage.key.check(app, { status: 'succeeded', result: null }, session, [page]),
      )
    },
    async check(app, _run, session, used) {
      const page = String(used[0])
      if ((await pageSource(app, session, page)) !== null) return `${page} still exists`
      if ((await renderedPage(app, page)) !== null) return `${page} is still served`
      return null
    },
  },
}
