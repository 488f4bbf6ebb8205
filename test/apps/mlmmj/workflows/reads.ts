/**
 * The reads: a list's Subscribers page and a list's Config page, each opened by clicking its link
 * under the list's name on the list index (the list is a `list` query field). The app has no
 * search box anywhere: a person finds a list by its name on the index.
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { CONFIG_PAGE, mustPass, SUBSCRIBERS_PAGE } from '../keys'
import { answerLoginPrompt, openIndexSignedIn, openListPage } from '../person'
import { seedList } from '../seed'

/** Answers the login prompt, then Subscribers under book-club. */
export const listSubscribers: Workflow = {
  id: 'list_subscribers',
  intent: 'show me who is subscribed to the book-club mailing list',
  rewordings: {
    terse: 'book-club subscribers',
    chatty: "I'm sending out the reading list, who's actually on the book-club list right now?",
    withoutValue: 'list the subscribers of a mailing list',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await answerLoginPrompt(page, app)
    await openListPage(page, 'book-club', 'Subscribers')
    await page.getByText('samir.khan@example.com').waitFor()
  },
  key: {
    target: SUBSCRIBERS_PAGE,
    inputs: [{ recorded: 'book-club', changed: ['hiking', 'choir'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/subscribers.php?list=hiking', { session })
      const html = await res.text()
      mustPass(
        await listSubscribers.key.check(app, { status: 'succeeded', result: html }, session, [
          'hiking',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const list = seedList(String(used[0]))
      for (const address of list.subscribers)
        if (!text.includes(address)) return `the answer does not list ${address} (${list.name})`
      if (text.includes('samir.khan@example.com'))
        return "the answer lists book-club's samir.khan@example.com: the recorded list was read"
      return null
    },
  },
}

/** Signed in, Config under choir. */
export const viewListSettings: Workflow = {
  id: 'view_list_settings',
  intent: 'show me the settings of the choir mailing list',
  rewordings: {
    terse: 'choir list config',
    chatty:
      'can you pull up how the choir list is set up? I want to check who owns it and what its footer says',
    withoutValue: "show a mailing list's settings",
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'choir', 'Config')
  },
  key: {
    target: CONFIG_PAGE,
    inputs: [{ recorded: 'choir', changed: ['hiking', 'garden-club'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/edit.php?list=hiking', { session })
      const html = await res.text()
      mustPass(
        await viewListSettings.key.check(app, { status: 'succeeded', result: html }, session, [
          'hiking',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const text = resultText(run.result)
      const list = seedList(String(used[0]))
      // The text areas' contents (the page's own text; a text box's value is an attribute).
      for (const tunable of ['footer', 'owner']) {
        const value = list.values[tunable]!
        if (!text.includes(value))
          return `the answer does not show ${list.name}'s ${tunable} ${value}`
      }
      if (text.includes(seedList('choir').values.footer!))
        return "the answer shows choir's footer: the recorded list was read"
      return null
    },
  },
}
