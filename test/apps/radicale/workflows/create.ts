/**
 * Radicale workflows that make a new collection. The web UI names it itself: its Create form and
 * its Upload both pick a fresh random UUID in the page (`random_uuid()` in fn.js) and send the
 * collection to `/alice/<uuid>/`:
 * - Create: extended `MKCOL` (RFC 5689) with an XML body setting the resource type, the
 *   components of the chosen type, the title, the color (`#rrggbbff`) and the description.
 * - Upload: `PUT` of the chosen .ics file itself as the body, `If-None-Match: *`; Radicale makes
 *   a calendar of it and takes its title from the file's `X-WR-CALNAME`.
 */
import { randomUUID } from 'node:crypto'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { COLLECTION_PATH, collectionText, listCollections, mustPass, storedColor } from '../keys'
import { createCollection, signInWithForm, uploadCalendar } from '../person'
import {
  COLLECTIONS,
  OTHER_UPLOAD_CALENDAR,
  UPLOAD_CALENDAR,
  USER,
  mkcolBody,
  type CalendarFile,
} from '../seed'

/** Sends the Create form's `MKCOL` for a new collection at a fresh id; throws unless 201. */
async function mkcol(app: AppInstance, session: StorageState, body: string): Promise<void> {
  const path = `/${USER.name}/${randomUUID()}/`
  const res = await app.fetch(path, {
    method: 'MKCOL',
    session,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body,
  })
  const text = await res.text()
  if (res.status !== 201) throw new Error(`MKCOL ${path} answered ${res.status} ${text}`)
}

const seededIds = new Set(COLLECTIONS.map((c) => c.id))

/** Create → Title, Description, Type "calendar", Color → Create. */
export const createCalendar: Workflow = {
  id: 'create_calendar',
  intent:
    'create a calendar called Piano lessons in Radicale, described as "Tuesdays with Mr. Kim", in the color #ff7043',
  rewordings: {
    terse: 'new calendar Piano lessons, "Tuesdays with Mr. Kim", #ff7043',
    chatty:
      'My daughter just started piano, could you set up a new calendar named Piano lessons on Radicale? Put "Tuesdays with Mr. Kim" as the description and make it orange, #ff7043.',
    withoutValue: 'make a new calendar in Radicale',
  },
  startPath: '/.web/',
  signedIn: true,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: true })
    await createCollection(page, app, {
      title: 'Piano lessons',
      description: 'Tuesdays with Mr. Kim',
      type: 'calendar',
      color: '#ff7043',
    })
  },
  key: {
    target: { method: 'MKCOL', path: COLLECTION_PATH },
    inputs: [
      { recorded: 'Piano lessons', changed: ['Spanish class', 'Choir rehearsals'] },
      {
        recorded: 'Tuesdays with Mr. Kim',
        changed: ['Mondays at the library', 'Wednesday evenings in the hall'],
      },
      { recorded: '#ff7043', changed: ['#26c6da', '#9ccc65'] },
    ],
    // The id is made up in the page; the principal is the saved login's user.
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [title, description, color] = ['Spanish class', 'Mondays at the library', '#26c6da']
      await mkcol(
        app,
        session,
        mkcolBody({ kind: 'calendar', title, description, color }, ['VEVENT']),
      )
      mustPass(
        await createCalendar.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          description,
          color,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [title, description, color] = used.map(String) as [string, string, string]
      const found = (await listCollections(app, session)).filter((c) => c.title === title)
      if (found.length !== 1) return `${found.length} collections are titled ${title}, not 1`
      const c = found[0]!
      if (seededIds.has(c.id)) return `${title} is a seeded collection, not a new one`
      if (c.kind !== 'calendar') return `${title} is an ${c.kind}, not a calendar`
      if (c.components.join(',') !== 'VEVENT')
        return `${title} holds ${c.components.join(', ')}, not only events (type "calendar")`
      if (c.description !== description) return `${title} is described as "${c.description}"`
      if (c.color.toLowerCase() !== storedColor(color)) return `${title}'s color is ${c.color}`
      return null
    },
  },
}

/** Signs in at the login form, Create → Title, Description, Type "addressbook" → Create. */
export const createAddressBook: Workflow = {
  id: 'create_address_book',
  intent:
    'create an address book called Neighbours in Radicale with the description "People on Elm Street"',
  rewordings: {
    terse: 'new address book Neighbours "People on Elm Street"',
    chatty:
      'We just moved and I want to keep the neighbours\' numbers separate, can you add an address book named Neighbours to Radicale, description "People on Elm Street"?',
    withoutValue: 'add an address book to Radicale',
  },
  startPath: '/.web/',
  signedIn: false,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: false })
    await createCollection(page, app, {
      title: 'Neighbours',
      description: 'People on Elm Street',
      type: 'addressbook',
    })
  },
  key: {
    target: { method: 'MKCOL', path: COLLECTION_PATH },
    inputs: [
      { recorded: 'Neighbours', changed: ['Colleagues', 'School parents'] },
      { recorded: 'People on Elm Street', changed: ['Team at the studio', 'Class 3B parents'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const [title, description] = ['Colleagues', 'Team at the studio']
      // The form proposes a random color; the person kept it.
      await mkcol(
        app,
        session,
        mkcolBody({ kind: 'addressbook', title, description, color: '#3a7bd5' }),
      )
      mustPass(
        await createAddressBook.key.check(app, { status: 'succeeded', result: null }, session, [
          title,
          description,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [title, description] = used.map(String) as [string, string]
      const found = (await listCollections(app, session)).filter((c) => c.title === title)
      if (found.length !== 1) return `${found.length} collections are titled ${title}, not 1`
      const c = found[0]!
      if (seededIds.has(c.id)) return `${title} is a seeded collection, not a new one`
      if (c.kind !== 'addressbook') return `${title} is a ${c.kind}, not an address book`
      if (c.description !== description) return `${title} is described as "${c.description}"`
      return null
    },
  },
}

/** The uploaded calendars a check has already counted, per instance. */
const countedUploads = new WeakMap<AppInstance, Set<string>>()

/**
 * The calendars made by uploads since the last check on this instance: not seeded, titled as one
 * of the two files, holding every event of that file.
 */
async function newUploads(app: AppInstance, session: StorageState): Promise<string[]> {
  const counted = countedUploads.get(app) ?? new Set<string>()
  countedUploads.set(app, counted)
  const files: CalendarFile[] = [UPLOAD_CALENDAR, OTHER_UPLOAD_CALENDAR]
  const fresh: string[] = []
  for (const c of await listCollections(app, session)) {
    const file = files.find((f) => f.title === c.title)
    if (!file || c.kind !== 'calendar' || seededIds.has(c.id) || counted.has(c.href)) continue
    const text = await collectionText(app, session, c.href)
    if (file.events.every((e) => text.includes(`UID:${e.uid}`))) fresh.push(c.href)
  }
  for (const href of fresh) counted.add(href)
  return fresh
}

/** Signs in at the login form, Upload → picks team-offsite.ics. */
export const uploadCalendarFile: Workflow = {
  id: 'upload_calendar',
  intent: 'upload the calendar file team-offsite.ics to Radicale as a new calendar',
  rewordings: {
    terse: 'import team-offsite.ics into radicale',
    chatty:
      'I exported the offsite schedule from my work calendar as team-offsite.ics, could you import it into Radicale so it shows up as its own calendar?',
    withoutValue: 'import an .ics file into Radicale',
  },
  startPath: '/.web/',
  signedIn: false,
  async play(page, app) {
    await signInWithForm(page, app, { savedLogin: false })
    await uploadCalendar(page, app, UPLOAD_CALENDAR)
  },
  key: {
    target: { method: 'PUT', path: COLLECTION_PATH },
    // The file is the only thing the person chose; nothing typed.
    inputs: [],
    dependencies: [],
    mutating: true,
    file: OTHER_UPLOAD_CALENDAR.bytes,
    async replayByHand(app, session) {
      const path = `/${USER.name}/${randomUUID()}/`
      const res = await app.fetch(path, {
        method: 'PUT',
        session,
        headers: { 'content-type': 'text/calendar', 'if-none-match': '*' },
        body: Buffer.from(OTHER_UPLOAD_CALENDAR.bytes),
      })
      const text = await res.text()
      if (res.status !== 201) throw new Error(`PUT ${path} answered ${res.status} ${text}`)
      mustPass(
        await uploadCalendarFile.key.check(app, { status: 'succeeded', result: null }, session, []),
      )
    },
    async check(app, _run, session) {
      // Each run uploads once (the recording's tool its recorded file, the HAR's `file`): a
      // new, complete calendar must have appeared since the last check.
      const fresh = await newUploads(app, session)
      return fresh.length > 0 ? null : 'no new calendar holds the uploaded file'
    },
  },
}
