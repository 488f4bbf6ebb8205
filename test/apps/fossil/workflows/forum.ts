/**
 * Posting a new forum thread. `/forumnew` shows a form posting to `/forume1`; its Submit button
 * stays disabled until the person previewed (`preview=Preview`), then `submit=Submit` posts the
 * same fields (`title`, `mimetype`, `content`) and Fossil answers 302 to the new post. No token:
 * Fossil checks only that the Referer is of the same origin.
 */
import type { Workflow } from '../../types'
import { getPage, mustPass, postForm, resultText } from '../keys'
import { logInFromHeader } from './tickets'

const TITLE = 'Pass alerts by e-mail?'
const TEXT = 'Could the tracker mail me an hour before each pass over Berlin?'

/**
 * Signed out on the forum: logs in, back to Forum, New Thread, types title and text, Preview,
 * Submit.
 */
export const postForumThread: Workflow = {
  id: 'post_forum_thread',
  intent: `start a forum thread "${TITLE}" saying "${TEXT}"`,
  rewordings: {
    terse: `forum post: ${TITLE} / ${TEXT}`,
    chatty: `Can you sign in to the Orbit Tracker forum and ask "${TITLE}" with the text "${TEXT}"?`,
    withoutValue: 'post a new thread to the forum',
  },
  startPath: '/forum',
  signedIn: false,
  async play(page, app) {
    await logInFromHeader(page, app)
    await page.locator('.mainmenu').getByRole('link', { name: 'Forum' }).click()
    await page.locator('.submenu').getByRole('link', { name: 'New Thread' }).click()
    await page.waitForURL('**/forumnew')
    await page.locator('input[name=title]').fill(TITLE)
    await page.locator('textarea[name=content]').fill(TEXT)
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByRole('button', { name: 'Submit' }).click()
    await page.waitForURL('**/forumpost/**')
    await page.getByText(TEXT).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/forume1', operation: { field: 'submit', value: 'Submit' } },
    inputs: [
      {
        recorded: TITLE,
        changed: ['Tracking the ISS from Lisbon', 'Export to KML for Google Earth'],
      },
      {
        recorded: TEXT,
        changed: [
          'Which elevation mask do you use for the ISS passes over Lisbon?',
          'Has anybody written a KML exporter for the predicted ground tracks?',
        ],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const res = await postForm(
        app,
        session,
        '/forume1',
        { title: used[0]!, mimetype: 'text/x-markdown', content: used[1]!, submit: 'Submit' },
        '/forume1',
      )
      if (res.status !== 302 || !res.location.includes('/forumpost/'))
        throw new Error(`POST /forume1 answered ${res.status} ${res.location}`)
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, text] = used.map(String)
      const list = resultText(await getPage(app, session, '/forum'))
      const link = new RegExp(`href="(/forumpost/[0-9a-f]+)"[^>]*>\\s*${escapeRegExp(title!)}\\s*<`)
      const post = link.exec(list)?.[1]
      if (!post) return `the forum lists no thread "${title}"`
      const thread = resultText(await getPage(app, session, post))
      return thread.includes(text!) ? null : `the thread "${title}" does not say "${text}"`
    },
  },
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
