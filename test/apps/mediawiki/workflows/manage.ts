/** The page-managing workflows: rename (Special:MovePage) and delete (action=delete). */
import type { Workflow } from '../../types'
import { getPage, pageInfo, postForm, urlTitle } from '../http'
import { openPageBySearch, pickPageAction } from '../person'
import { hiddenField } from '../session'

const MAIN = '/index.php/Main_Page'

/** Finds the page, picks More → Move, types the new title and moves it (leaving a redirect). */
export const renamePage: Workflow = {
  id: 'rename_page',
  intent: 'rename the page Meeting Notes to Team Meeting Notes',
  rewordings: {
    terse: 'move Meeting Notes → Team Meeting Notes',
    chatty: "please rename our Meeting Notes wiki page, I'd like it called Team Meeting Notes",
    withoutValue: 'rename a wiki page',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    await openPageBySearch(page, 'Meeting Notes')
    await pickPageAction(page, 'Move')
    const title = page.locator('input[name="wpNewTitleMain"]')
    await title.click()
    await title.press('Control+A')
    await title.pressSequentially('Team Meeting Notes', { delay: 30 })
    await page.getByRole('button', { name: 'Move page' }).click()
    await page.locator('#mw-content-text', { hasText: 'has been moved to' }).waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      operation: { field: 'title', value: 'Special:MovePage' },
    },
    inputs: [
      { recorded: 'Meeting Notes', changed: ['Retro Notes', 'Planning Notes'] },
      { recorded: 'Team Meeting Notes', changed: ['Team Retro Notes', 'Team Planning Notes'] },
    ],
    // The move form holds the session's wpEditToken.
    dependencies: [{ method: 'GET', path: /\/index\.php\/Special:MovePage\/.+/ }],
    mutating: true,
    async replayByHand(app, session) {
      const [from, to] = ['Retro Notes', 'Team Retro Notes']
      const form = await getPage(app, `/index.php/Special:MovePage/${urlTitle(from)}`, session)
      const body = new URLSearchParams({
        wpNewTitleNs: '0',
        wpNewTitleMain: to,
        wpReason: '',
        wpLeaveRedirect: '1',
        wpMove: 'Move page',
        wpOldTitle: hiddenField(form, 'wpOldTitle'),
        wpEditToken: hiddenField(form, 'wpEditToken'),
      })
      const res = await postForm(
        app,
        '/index.php?title=Special:MovePage&action=submit',
        session,
        body,
      )
      if (!res.text.includes('has been moved to')) throw new Error(`not moved (HTTP ${res.status})`)
      const problem = await this.check(app, { status: 'succeeded', result: null }, session, [
        from,
        to,
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, _session, used) {
      const [from = '', to = ''] = used.map(String)
      const moved = await pageInfo(app, to)
      if (moved.missing || moved.redirect) return `no page ${to} after the move`
      const old = await pageInfo(app, from)
      return old.redirect ? null : `${from} is not a redirect to ${to}`
    },
  },
}

/** Finds the page, picks More → Delete and confirms with the reason MediaWiki prefills. */
export const deletePage: Workflow = {
  id: 'delete_page',
  intent: 'delete the page Old Draft',
  rewordings: {
    terse: 'delete Old Draft',
    chatty: "we don't need the Old Draft page any more, can you delete it from the wiki?",
    withoutValue: 'delete a wiki page',
  },
  startPath: MAIN,
  signedIn: true,
  async play(page) {
    await openPageBySearch(page, 'Old Draft')
    await pickPageAction(page, 'Delete')
    await page.getByRole('button', { name: 'Delete page' }).click()
    await page.locator('#mw-content-text', { hasText: 'has been deleted' }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/index.php', operation: { field: 'action', value: 'delete' } },
    inputs: [{ recorded: 'Old Draft', changed: ['Unused Draft', 'Spare Draft'] }],
    // The delete form holds the session's wpEditToken.
    dependencies: [
      { method: 'GET', path: '/index.php', operation: { field: 'action', value: 'delete' } },
    ],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Unused Draft'
      const path = `/index.php?title=${urlTitle(title)}&action=delete`
      const form = await getPage(app, path, session)
      const body = new URLSearchParams({
        wpDeleteReasonList: 'other',
        wpReason: hiddenField(form, 'wpReason'),
        wpConfirmB: 'Delete page',
        wpEditToken: hiddenField(form, 'wpEditToken'),
      })
      const res = await postForm(app, path, session, body)
      if (!res.text.includes('has been deleted'))
        throw new Error(`not deleted (HTTP ${res.status})`)
      const problem = await this.check(app, { status: 'succeeded', result: null }, session, [title])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, _session, used) {
      const title = String(used[0])
      return (await pageInfo(app, title)).missing ? null : `the page ${title} still exists`
    },
  },
}
