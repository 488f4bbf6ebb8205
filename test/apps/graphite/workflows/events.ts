/**
 * Events, kept through Django's admin site (`/admin/events/event/`), signed in as the seeded staff
 * user. The add form posts `csrfmiddlewaretoken` (printed in the form, matched against the
 * `csrftoken` cookie), the date and time in two fields (`when_0`, `when_1`), `what`, `data`,
 * `tags` (space-separated) and the submit button `_save`, answered 302 to the list. Deleting
 * ticks rows (`_selected_action=<id>`), picks the action `delete_selected` and Go, which answers a
 * confirmation page; its "Yes, I'm sure" posts the same with `post=yes`.
 */
import type { Workflow } from '../../types'
import { allEvents, mustPass } from '../keys'
import { tickAdminRow } from '../person'
import { djangoForm } from '../../sessionFetch'
import { postForm } from '../session'

const EVENTS = '/admin/events/event/'
const ADD = '/admin/events/event/add/'

/** Admin → Events → Add, types what and tags, Today and Now for the time, Save. */
export const createEvent: Workflow = {
  id: 'create_event',
  intent: "record a Graphite event 'Deploy checkout v2.4' tagged deploy",
  rewordings: {
    terse: 'new event Deploy checkout v2.4, tag deploy',
    chatty:
      "we just shipped checkout 2.4, could you add an event 'Deploy checkout v2.4' with the deploy tag so it shows on the graphs?",
    withoutValue: 'add an event to graphite',
  },
  startPath: EVENTS,
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Add event' }).click()
    await page.waitForURL(/\/add\/$/)
    await page.locator('.datetime a', { hasText: 'Today' }).click()
    await page.locator('.datetime a', { hasText: 'Now' }).click()
    await page.locator('#id_what').fill('Deploy checkout v2.4')
    await page.locator('#id_tags').fill('deploy')
    await page.locator('input[name=_save]').click()
    await page.locator('.messagelist .success').waitFor()
  },
  key: {
    target: { method: 'POST', path: ADD },
    inputs: [
      {
        recorded: 'Deploy checkout v2.4',
        changed: ['Deploy search v1.9', 'Rollback checkout v2.3'],
      },
      { recorded: 'deploy', changed: ['release', 'rollback'] },
    ],
    dependencies: [{ method: 'GET', path: ADD }],
    mutating: true,
    async replayByHand(app, session) {
      const form = await djangoForm(app, session, ADD)
      const now = new Date()
      const res = await postForm(app, form.session, ADD, [
        ['csrfmiddlewaretoken', form.token],
        ['when_0', now.toISOString().slice(0, 10)],
        ['when_1', now.toISOString().slice(11, 19)],
        ['what', 'Deploy search v1.9'],
        ['data', ''],
        ['tags', 'release'],
        ['_save', 'Save'],
      ])
      await res.arrayBuffer()
      if (res.status !== 302) throw new Error(`the add form answered ${res.status}`)
      mustPass(
        await createEvent.key.check(app, { status: 'succeeded', result: null }, session, [
          'Deploy search v1.9',
          'release',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const events = await allEvents(app)
      const made = events.find((e) => e.what === String(used[0]))
      if (!made) return `there is no event "${String(used[0])}"`
      if (!made.tags.includes(String(used[1])))
        return `"${made.what}" is tagged ${made.tags.join(' ')}, not ${String(used[1])}`
      if (events.some((e) => e.what === 'Deploy checkout v2.4'))
        return 'the recorded event Deploy checkout v2.4 was added'
      return null
    },
  },
}

/** Admin → Events, ticks "Test event please ignore", Delete selected events, Go, Yes. */
export const deleteEvent: Workflow = {
  id: 'delete_event',
  intent: "delete the Graphite event 'Test event please ignore'",
  rewordings: {
    terse: 'delete event Test event please ignore',
    chatty: 'someone left a test event on our graphs, please remove "Test event please ignore"',
    withoutValue: 'delete one of the events',
  },
  startPath: EVENTS,
  signedIn: true,
  async play(page) {
    await tickAdminRow(page, 'Test event please ignore')
    await page.locator('select[name=action]').selectOption('delete_selected')
    await page.locator('button[name=index]').click()
    // The confirmation page's submit button reads "Yes, I’m sure".
    await page.locator('input[type=submit][value^="Yes"]').click()
    await page.locator('.messagelist .success').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: EVENTS,
      operation: [
        { field: 'action', value: 'delete_selected' },
        { field: 'post', value: 'yes' },
      ],
    },
    inputs: [
      {
        recorded: 'Test event please ignore',
        changed: ['Load balancer restart', 'Kernel patch web01'],
      },
    ],
    dependencies: [{ method: 'GET', path: EVENTS }],
    mutating: true,
    async replayByHand(app, session) {
      const form = await djangoForm(app, session, EVENTS)
      const id = (await allEvents(app)).find((e) => e.what === 'Load balancer restart')?.id
      if (!id) throw new Error('no event Load balancer restart')
      const res = await postForm(app, form.session, EVENTS, [
        ['csrfmiddlewaretoken', form.token],
        ['action', 'delete_selected'],
        ['_selected_action', String(id)],
        ['post', 'yes'],
      ])
      await res.arrayBuffer()
      mustPass(
        await deleteEvent.key.check(app, { status: 'succeeded', result: null }, session, [
          'Load balancer restart',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const what = (await allEvents(app)).map((e) => e.what)
      if (what.includes(String(used[0]))) return `the event "${String(used[0])}" is still there`
      if (!what.includes('Test event please ignore'))
        return 'the recorded event Test event please ignore was deleted'
      if (!what.includes('Deploy checkout v2.3')) return 'Deploy checkout v2.3 was deleted too'
      return null
    },
  },
}
