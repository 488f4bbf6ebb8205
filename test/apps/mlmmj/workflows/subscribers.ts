/**
 * The Subscribers page of garden-club: "Add subscribers" (a text area, one address a line,
 * posted as `tosubscribe` with `submit=Add` to `subscribers.php?list=garden-club`; the page runs
 * `mlmmj-sub` for each) and a row's Remove (each row is its own form posting the row's address
 * as `email` with `delete=Remove`; the page runs `mlmmj-unsub`). Both answer 200 with the page
 * again, an error (if any) in a `<pre>` above the table.
 */
import type { Workflow } from '../../types'
import { ADD_SUBSCRIBERS, mustPass, REMOVE_SUBSCRIBER } from '../keys'
import { openIndexSignedIn, openListPage } from '../person'
import { postForm, readSubscribers } from '../session'

const GARDEN = '/subscribers.php?list=garden-club'

/** Signed in, Subscribers under garden-club, types one address into "Add subscribers", Add. */
export const subscribeAddress: Workflow = {
  id: 'subscribe_address',
  intent: 'subscribe maria.lopez@example.org to the garden-club mailing list',
  rewordings: {
    terse: 'add maria.lopez@example.org to garden-club',
    chatty:
      'Maria signed up at the plant sale, can you put maria.lopez@example.org on the garden club list?',
    withoutValue: 'subscribe someone to the garden-club list',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'garden-club', 'Subscribers')
    const box = page.locator('textarea[name="tosubscribe"]')
    await box.click()
    await box.pressSequentially('maria.lopez@example.org', { delay: 30 })
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator('#subscribers td', { hasText: /^maria\.lopez@example\.org$/ }).waitFor()
  },
  key: {
    target: ADD_SUBSCRIBERS,
    inputs: [
      {
        recorded: 'maria.lopez@example.org',
        changed: ['sam.wu@example.org', 'tina.vogel@example.org'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, GARDEN, [
        ['tosubscribe', 'sam.wu@example.org'],
        ['submit', 'Add'],
      ])
      const html = await res.text()
      if (res.status !== 200 || !html.includes('<pre></pre>'))
        throw new Error(`adding answered ${res.status}: ${html.slice(0, 300)}`)
      mustPass(
        await subscribeAddress.key.check(app, { status: 'succeeded', result: null }, session, [
          'sam.wu@example.org',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const subscribers = await readSubscribers(app, 'garden-club')
      if (!subscribers.includes(String(used[0])))
        return `${String(used[0])} is not subscribed to garden-club`
      if (subscribers.includes('maria.lopez@example.org'))
        return 'the recorded maria.lopez@example.org was subscribed'
      if (!subscribers.includes('anna.berg@example.com'))
        return 'anna.berg@example.com is no longer subscribed'
      return null
    },
  },
}

/** Signed in, Subscribers under garden-club, Remove on kevin.ng@example.com's row. */
export const removeSubscriber: Workflow = {
  id: 'remove_subscriber',
  intent: 'remove kevin.ng@example.com from the garden-club mailing list',
  rewordings: {
    terse: 'unsubscribe kevin.ng@example.com from garden-club',
    chatty:
      'Kevin moved away and asked to stop getting the garden club mails, please take kevin.ng@example.com off',
    withoutValue: 'remove a subscriber from the garden-club list',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openIndexSignedIn(page, app)
    await openListPage(page, 'garden-club', 'Subscribers')
    const row = page.locator('#subscribers tr').filter({ hasText: 'kevin.ng@example.com' })
    await row.getByRole('button', { name: 'Remove' }).click()
    await page.getByRole('heading', { name: 'garden-club subscribers' }).waitFor()
    await page
      .locator('#subscribers td', { hasText: /^kevin\.ng@example\.com$/ })
      .waitFor({ state: 'detached' })
  },
  key: {
    target: REMOVE_SUBSCRIBER,
    inputs: [
      {
        recorded: 'kevin.ng@example.com',
        changed: ['lucia.ortiz@example.com', 'omar.quinn@example.com'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const res = await postForm(app, session, GARDEN, [
        ['email', 'lucia.ortiz@example.com'],
        ['delete', 'Remove'],
      ])
      const html = await res.text()
      if (res.status !== 200 || !html.includes('<pre></pre>'))
        throw new Error(`removing answered ${res.status}: ${html.slice(0, 300)}`)
      mustPass(
        await removeSubscriber.key.check(app, { status: 'succeeded', result: null }, session, [
          'lucia.ortiz@example.com',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const subscribers = await readSubscribers(app, 'garden-club')
      if (subscribers.includes(String(used[0])))
        return `${String(used[0])} is still subscribed to garden-club`
      if (!subscribers.includes('kevin.ng@example.com'))
        return 'the recorded kevin.ng@example.com was removed'
      if (!subscribers.includes('anna.berg@example.com'))
        return 'anna.berg@example.com was removed too'
      return null
    },
  },
}
