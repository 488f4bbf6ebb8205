/**
 * Radicale workflows that only read: the list of collections the web UI loads right after its
 * login form (`PROPFIND /alice/`, depth 1, an XML body naming the properties it shows), and a
 * calendar downloaded whole by clicking its URL link (`GET /alice/<id>/`, the id picked from
 * that list by the calendar's title).
 */
import type { Workflow } from '../../types'
import {
  COLLECTION_PATH,
  LIST_BODY,
  LIST_COLLECTIONS,
  collectionText,
  mustPass,
  parseCollections,
  resultText,
} from '../keys'
import { downloadCollection, signInWithForm } from '../person'
import { COLLECTIONS, OTHER_USER, USER, collectionPath, seeded } from '../seed'

/** The seeded collections of alice's that no workflow changes: any list must show them. */
const STEADY = ['Work', 'Travel', 'Conferences', 'Friends', 'Clients'].map((t) => seeded(t))

/** Signs in at the login form; the list the page then loads is the answer. */
export const listCollections: Workflow = {
  id: 'list_collections',
  intent: 'list my calendars and address books in Radicale',
  rewordings: {
    terse: 'radicale list collections',
    chatty:
      "I can never remember which calendars and address books I've got on our Radicale server, can you list them all for me?",
    withoutValue: 'show what collections I have in Radicale',
  },
  startPath: '/.web/',
  signedIn: false,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: false })
  },
  key: {
    target: LIST_COLLECTIONS,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(`/${USER.name}/`, {
        method: 'PROPFIND',
        session,
        headers: { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
        body: LIST_BODY,
      })
      const text = await res.text()
      if (res.status !== 207) throw new Error(`PROPFIND /${USER.name}/ answered ${res.status}`)
      if (parseCollections(text, `/${USER.name}/`).length < STEADY.length)
        throw new Error('the list holds fewer collections than were seeded')
      mustPass(
        await listCollections.key.check(app, { status: 'succeeded', result: text }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      for (const c of STEADY) {
        if (!text.includes(c.title)) return `the answer does not name ${c.title}`
        if (!text.includes(collectionPath(c))) return `the answer does not hold ${c.title}'s path`
      }
      const others = COLLECTIONS.filter((c) => c.owner === OTHER_USER.name)
      if (others.some((c) => text.includes(c.id))) return `the answer lists ${OTHER_USER.name}'s`
      return null
    },
  },
}

/** The events of a seeded calendar, by summary. */
const summaries = (title: string): string[] => (seeded(title).events ?? []).map((e) => e.summary)

/** Signs in, clicks the URL link of the Work calendar: the browser downloads Work.ics. */
export const exportCalendar: Workflow = {
  id: 'export_calendar',
  intent: 'download my Work calendar from Radicale as an .ics file',
  rewordings: {
    terse: 'export calendar Work',
    chatty:
      "I'd like a copy of everything in my Work calendar, could you grab the whole thing from Radicale as an .ics file?",
    withoutValue: 'export one of my calendars from Radicale',
  },
  startPath: '/.web/',
  signedIn: true,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: true })
    await downloadCollection(page, 'Work')
  },
  key: {
    target: { method: 'GET', path: COLLECTION_PATH },
    // Picked by title; the request names the calendar by the id the list gave for it.
    inputs: [{ recorded: 'Work', changed: ['Travel', 'Conferences'] }],
    dependencies: [LIST_COLLECTIONS],
    mutating: false,
    async replayByHand(app, session) {
      const text = await collectionText(app, session, collectionPath(seeded('Travel')))
      mustPass(
        await exportCalendar.key.check(app, { status: 'succeeded', result: text }, session, [
          'Travel',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const title = String(used[0])
      const text = resultText(run.result)
      if (!text.includes('BEGIN:VCALENDAR')) return 'the answer is no iCalendar file'
      for (const s of summaries(title))
        if (!text.includes(s)) return `the answer lacks ${title}'s event "${s}"`
      for (const s of summaries('Work'))
        if (text.includes(s)) return `the answer holds Work's event "${s}"`
      return null
    },
  },
}
