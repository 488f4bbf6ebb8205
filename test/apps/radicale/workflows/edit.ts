/**
 * Radicale workflows that change a collection picked from the list by its title; the request
 * names it by the id (`/alice/<uuid>/`) the list gave for that title.
 * - Edit → Save is a `PROPPATCH` that writes the whole form back: components, title, color and
 *   description, the untouched ones as the list showed them (the form is filled from the list's
 *   answer), so a tool must send the picked collection's own values, not the recorded one's.
 * - Delete → Yes is a `DELETE` of the collection with everything in it.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import {
  COLLECTION_PATH,
  LIST_COLLECTIONS,
  collectionById,
  editCalendarBody,
  mustPass,
  proppatch,
  storedColor,
} from '../keys'
import { deleteCollection, recolorCollection, renameCollection, signInWithForm } from '../person'
import { collectionPath, seeded, type SeedCollection } from '../seed'

const PROPPATCH = { method: 'PROPPATCH', path: COLLECTION_PATH }

/** Null when `c`'s listed title, description and color are as `want`, else what differs. */
async function differs(
  app: AppInstance,
  session: StorageState,
  c: SeedCollection,
  want: { title: string; description: string; color: string },
): Promise<string | null> {
  const listed = await collectionById(app, session, c.id)
  if (!listed) return `${c.title} (${c.id}) is gone`
  if (listed.title !== want.title)
    return `${c.title} is titled "${listed.title}", not "${want.title}"`
  if (listed.description !== want.description)
    return `${c.title}'s description is "${listed.description}", not "${want.description}"`
  if (listed.color.toLowerCase() !== storedColor(want.color))
    return `${c.title}'s color is ${listed.color}, not ${storedColor(want.color)}`
  return null
}

/** The values a seeded collection shows until a workflow changes it. */
const asSeeded = (c: SeedCollection) => ({
  title: c.title,
  description: c.description,
  color: c.color,
})

/** Signs in, Edit on Gym → Title "Fitness" → Save. */
export const renameCalendar: Workflow = {
  id: 'rename_collection',
  intent: 'rename my Radicale calendar Gym to Fitness',
  rewordings: {
    terse: 'rename Gym to Fitness',
    chatty:
      'I do more than weights these days, so could you rename the Gym calendar on Radicale to Fitness? Keep everything else as it is.',
    withoutValue: 'rename one of my Radicale calendars',
  },
  startPath: '/.web/',
  signedIn: true,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: true })
    await renameCollection(page, app, 'Gym', 'Fitness')
  },
  key: {
    target: PROPPATCH,
    inputs: [
      { recorded: 'Gym', changed: ['Garden', 'Volunteering'] },
      { recorded: 'Fitness', changed: ['Allotment', 'Charity work'] },
    ],
    // The id, and the description, color and components the form writes back, come from it.
    dependencies: [LIST_COLLECTIONS],
    mutating: true,
    async replayByHand(app, session) {
      const [title, newTitle] = ['Garden', 'Allotment']
      const c = await collectionById(app, session, seeded(title).id)
      if (!c) throw new Error(`the list has no ${title}`)
      await proppatch(app, session, c.href, editCalendarBody({ ...c, title: newTitle }))
      mustPass(
        await renameCalendar.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          newTitle,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [title, newTitle] = used.map(String) as [string, string]
      const c = seeded(title)
      return (
        (await differs(app, session, c, { ...asSeeded(c), title: newTitle })) ??
        (await differs(app, session, seeded('Gym'), asSeeded(seeded('Gym'))))
      )
    },
  },
}

/** Signs in, Edit on Family → Color #f4511e → Save. */
export const recolorCalendar: Workflow = {
  id: 'recolor_calendar',
  intent: 'change the color of my Family calendar in Radicale to #f4511e',
  rewordings: {
    terse: 'Family calendar color #f4511e',
    chatty:
      'The green of the Family calendar is too close to another one on my phone, can you switch it to that deep orange, #f4511e, in Radicale?',
    withoutValue: "change a calendar's color in Radicale",
  },
  startPath: '/.web/',
  signedIn: true,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: true })
    await recolorCollection(page, app, 'Family', '#f4511e')
  },
  key: {
    target: PROPPATCH,
    inputs: [
      { recorded: 'Family', changed: ['Book Club', 'Birthdays'] },
      { recorded: '#f4511e', changed: ['#00897b', '#6d4c41'] },
    ],
    dependencies: [LIST_COLLECTIONS],
    mutating: true,
    async replayByHand(app, session) {
      const [title, color] = ['Book Club', '#00897b']
      const c = await collectionById(app, session, seeded(title).id)
      if (!c) throw new Error(`the list has no ${title}`)
      await proppatch(app, session, c.href, editCalendarBody({ ...c, color: storedColor(color) }))
      mustPass(
        await recolorCalendar.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          color,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [title, color] = used.map(String) as [string, string]
      const c = seeded(title)
      return (
        (await differs(app, session, c, { ...asSeeded(c), color })) ??
        (await differs(app, session, seeded('Family'), asSeeded(seeded('Family'))))
      )
    },
  },
}

/** Signs in, Delete on the address book Old contacts → Yes. */
export const deleteAddressBook: Workflow = {
  id: 'delete_collection',
  intent: 'delete the address book Old contacts from Radicale',
  rewordings: {
    terse: 'delete Old contacts',
    chatty:
      "I've moved everyone I still need out of Old contacts, so please delete that address book from Radicale.",
    withoutValue: 'delete one of my address books in Radicale',
  },
  startPath: '/.web/',
  signedIn: true,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: true })
    await deleteCollection(page, app, 'Old contacts')
  },
  key: {
    target: { method: 'DELETE', path: COLLECTION_PATH },
    inputs: [{ recorded: 'Old contacts', changed: ['Newsletter', 'Archive 2019'] }],
    dependencies: [LIST_COLLECTIONS],
    mutating: true,
    async replayByHand(app, session) {
      const title = 'Newsletter'
      const path = collectionPath(seeded(title))
      const res = await app.fetch(path, { method: 'DELETE', session })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`DELETE ${path} answered ${res.status}`)
      mustPass(
        await deleteAddressBook.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const title = String(used[0])
      const c = seeded(title)
      if (await collectionById(app, session, c.id)) return `${title} is still listed`
      const res = await app.fetch(collectionPath(c), { session })
      await res.arrayBuffer()
      if (res.status !== 404) return `GET ${title}'s path answered ${res.status}, not 404`
      const kept = seeded('Old contacts')
      return (await collectionById(app, session, kept.id)) ? null : 'Old contacts was deleted too'
    },
  },
}
