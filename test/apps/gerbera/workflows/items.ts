/**
 * Gerbera's writes on items, all in the classic UI (the new UI only reads), all GET calls of
 * `/content/interface` with `return_type=xml`:
 * - add a file from the Filesystem view: `req_type=add&object_id=<hex of the path>` (the row's
 *   add icon); Gerbera imports it in a background task;
 * - remove an item picked in a folder: `req_type=remove&object_id=<id>&all=0`;
 * - edit an item: the edit icon loads the form (`req_type=edit_load`), Update posts every
 *   enabled field back (`req_type=edit_save&object_id=&title=&class=&description=&mime-type=`);
 * - add an item to the database root: add Item, a type, the fields, Add
 *   (`req_type=add_object&parent_id=0&obj_type=external_url&title=&location=&...`).
 */
import type { Workflow } from '../../types'
import { call, editLoad, eventually, files, folderId, items, itemsAt, mustPass, op } from '../api'
import { MEDIA_ROOT } from '../seed'
import { classicReady, folderAction, frame, itemRow, openFolder, switchView } from './person'

/** Where an inbox file lands in the database once added (its folder chain is created). */
const INBOX_IN_DB = ['PC Directory', 'srv', 'media', 'Inbox']

/**
 * The Filesystem view: srv, media, Inbox; the add icon in the row of "Demo Tape.mp3". The UI
 * shows nothing more (the import runs in the background), so the person waits for the answer.
 */
export const addFileFromInbox: Workflow = {
  id: 'add_file_from_inbox',
  intent: 'add the file "Demo Tape.mp3" from my Inbox folder to the Gerbera media library',
  rewordings: {
    terse: 'gerbera add Inbox/Demo Tape.mp3',
    chatty:
      "There's a new recording called Demo Tape.mp3 sitting in my Inbox folder, could you add it to the media server's library?",
    withoutValue: 'add a file from the disk to the media library',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await switchView(page, 'Filesystem')
    await openFolder(page, 'Filesystem', ['srv', 'media', 'Inbox'])
    const added = page.waitForResponse((res) => new URL(res.url()).search.includes('req_type=add&'))
    await itemRow(page, 'Demo Tape.mp3').getByRole('link', { name: 'add', exact: true }).click()
    await added
  },
  key: {
    target: op('add'),
    inputs: [{ recorded: 'Demo Tape.mp3', changed: ['Voice Memo.mp3', 'Rehearsal.mp3'] }],
    // The file's id (the hex of its path) from the folder's file list, by name.
    dependencies: [op('files')],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Voice Memo.mp3'
      const file = (await files(app, session, `${MEDIA_ROOT}/Inbox`)).find((f) => f.title === name)
      if (!file) throw new Error(`the Inbox folder lists no ${name}`)
      await call(app, session, { req_type: 'add', object_id: file.id })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [name]))
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const inDb = async () => {
        const id = await folderId(app, session, INBOX_IN_DB)
        return id === null ? [] : (await items(app, session, id)).map((i) => i.title)
      }
      const problem = await eventually(async () =>
        (await inDb()).includes(name) ? null : `the library has no ${name} in Inbox`,
      )
      if (problem) return problem
      return (await inDb()).includes('Demo Tape.mp3')
        ? 'the recorded file Demo Tape.mp3 was added'
        : null
    },
  },
}

/** The Family folder of the photos, under the PC Directory tree. */
const FAMILY = ['PC Directory', 'srv', 'media', 'Photos', 'Family']

/** The Database view: PC Directory down to Photos › Family; "remove this" in Picnic.jpg's row. */
export const removePhoto: Workflow = {
  id: 'remove_photo',
  intent: 'remove the photo Picnic.jpg from the Family folder of my Gerbera library',
  rewordings: {
    terse: 'gerbera remove Family/Picnic.jpg',
    chatty:
      "Please take Picnic.jpg out of the Family photos on the media server, I don't want it shown on the TV anymore.",
    withoutValue: 'remove a photo from the media library',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await openFolder(page, 'Database', FAMILY)
    await itemRow(page, 'Picnic.jpg').getByRole('link', { name: 'remove this' }).click()
    await itemRow(page, 'Picnic.jpg').waitFor({ state: 'detached' })
  },
  key: {
    target: op('remove'),
    inputs: [{ recorded: 'Picnic.jpg', changed: ['Beach Day.jpg', 'Birthday Cake.jpg'] }],
    // The photo's id from the folder's item list, by name.
    dependencies: [op('items')],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Beach Day.jpg'
      const photo = (await itemsAt(app, session, FAMILY)).find((i) => i.title === name)
      if (!photo) throw new Error(`the Family folder holds no ${name}`)
      await call(app, session, { req_type: 'remove', object_id: photo.id, all: '0' })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [name]))
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const held = async () => (await itemsAt(app, session, FAMILY)).map((i) => i.title)
      const problem = await eventually(async () =>
        (await held()).includes(name) ? `the Family folder still holds ${name}` : null,
      )
      if (problem) return problem
      return (await held()).includes('Picnic.jpg')
        ? null
        : 'the recorded photo Picnic.jpg was removed'
    },
  },
}

/** The album folder of the edited songs (Audio › Albums › Paper Boats). */
const ALBUM = ['Audio', 'Albums', 'Paper Boats']
/** What Gerbera's import writes in a song's description: artist, album, title, year, genre. */
const seededDescription = (title: string) => `The Quiet Hours, Paper Boats, ${title}, 2022, Indie`
const NEW_DESCRIPTION = 'Recorded live at the Lisbon session'

/**
 * The Database view: Audio › Albums › Paper Boats; the edit icon in Midnight Tram's row; the
 * person replaces the Description and clicks "Update item...".
 */
export const editSongDescription: Workflow = {
  id: 'edit_song_description',
  intent: `set the description of the song Midnight Tram in Gerbera to "${NEW_DESCRIPTION}"`,
  rewordings: {
    terse: `gerbera Midnight Tram description: ${NEW_DESCRIPTION}`,
    chatty: `The Midnight Tram track is actually the live take, could you change its description on the media server to "${NEW_DESCRIPTION}"?`,
    withoutValue: "change a song's description on the media server",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await openFolder(page, 'Database', ALBUM)
    await itemRow(page, 'Midnight Tram').getByRole('link', { name: 'edit' }).click()
    const right = frame(page, 'rightF')
    const description = right.locator('form[name="addEditItem"] input[name="description"]')
    await description.fill(NEW_DESCRIPTION)
    await right.getByRole('button', { name: 'Update item...' }).click()
    await itemRow(page, 'Night Bus').waitFor()
  },
  key: {
    target: op('edit_save'),
    inputs: [
      { recorded: 'Midnight Tram', changed: ['Night Bus', 'Paper Boats'] },
      {
        recorded: NEW_DESCRIPTION,
        changed: ['Acoustic take from the 2022 tour', 'Demo from the first rehearsal'],
      },
    ],
    // The song's id from the album's item list by name, and its edit form: the save sends
    // every field back (title, class, mime type), and a field left out is emptied.
    dependencies: [op('items'), op('edit_load')],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [title, description] = used as [string, string]
      const song = (await itemsAt(app, session, ALBUM)).find((i) => i.title === title)
      if (!song) throw new Error(`the album holds no ${title}`)
      const form = await editLoad(app, session, song.id)
      await call(app, session, {
        req_type: 'edit_save',
        object_id: song.id,
        title: form['title']!,
        class: form['class']!,
        description,
        'mime-type': form['mime-type']!,
      })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, description] = used.map(String) as [string, string]
      const album = await itemsAt(app, session, ALBUM)
      const song = album.find((i) => i.title === title)
      if (!song) return `the album holds no song titled ${title} anymore`
      const form = await editLoad(app, session, song.id)
      if (form['description'] !== description)
        return `${title}'s description is ${JSON.stringify(form['description'])}`
      if (
        form['class'] !== 'object.item.audioItem.musicTrack' ||
        form['mime-type'] !== 'audio/mpeg'
      )
        return `${title}'s class or mime type changed (${form['class']}, ${form['mime-type']})`
      const recorded = album.find((i) => i.title === 'Midnight Tram')
      if (!recorded) return 'the recorded song Midnight Tram was renamed'
      const before = (await editLoad(app, session, recorded.id))['description']
      return before === seededDescription('Midnight Tram')
        ? null
        : `the recorded song Midnight Tram's description changed to ${JSON.stringify(before)}`
    },
  },
}

/** The stream link the person adds, and what the changed runs add instead. */
const STREAM = {
  title: 'Radio Lisboa Jazz',
  url: 'http://127.0.0.1:8000/lisboa-jazz.mp3',
  description: 'Jazz stream for Sunday mornings',
}

/**
 * The Database view, its top folder selected as the page opens: add Item, type "External Link
 * (URL)", then title, URL, description and mime type; "Add item..." and the new row.
 */
export const addStreamLink: Workflow = {
  id: 'add_stream_link',
  intent: `add an internet radio link "${STREAM.title}" with URL ${STREAM.url} and description "${STREAM.description}" to my Gerbera library`,
  rewordings: {
    terse: `gerbera new link ${STREAM.title} ${STREAM.url} "${STREAM.description}"`,
    chatty: `I'd like the TV to play my favourite station: could you add a link called ${STREAM.title} pointing at ${STREAM.url}, described as "${STREAM.description}", to the media server?`,
    withoutValue: 'add a web radio link to the media server',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await frame(page, 'toprightF').locator('span.contText', { hasText: '/Database/' }).waitFor()
    await folderAction(page, 'add Item')
    const right = frame(page, 'rightF')
    const form = right.locator('form[name="addEditItem"]')
    await form.locator('select[name="obj_type"]').selectOption({ label: 'External Link (URL)' })
    await form.locator('input[name="title"]').fill(STREAM.title)
    await form.locator('input[name="location"]').fill(STREAM.url)
    await form.locator('input[name="description"]').fill(STREAM.description)
    await form.locator('input[name="mime-type"]').fill('audio/mpeg')
    await right.getByRole('button', { name: 'Add item...' }).click()
    await itemRow(page, STREAM.title).waitFor()
  },
  key: {
    target: op('add_object'),
    inputs: [
      { recorded: STREAM.title, changed: ['Night Owl FM', 'Harbor Radio'] },
      {
        recorded: STREAM.url,
        changed: ['http://127.0.0.1:8000/night-owl.mp3', 'http://127.0.0.1:8000/harbor.mp3'],
      },
      {
        recorded: STREAM.description,
        changed: ['Late night talk and soul', 'News and weather from the harbour'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const [title, location, description] = used as [string, string, string]
      await call(app, session, {
        req_type: 'add_object',
        parent_id: '0',
        obj_type: 'external_url',
        title,
        location,
        protocol: 'http-get',
        class: 'object.item',
        description,
        'mime-type': 'audio/mpeg',
      })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, session, used) {
      const [title, location, description] = used.map(String) as [string, string, string]
      const top = await items(app, session, '0')
      const link = top.find((i) => i.title === title)
      if (!link) return `the library's top folder has no item ${title}`
      const form = await editLoad(app, session, link.id)
      if (form['obj_type'] !== 'external_url') return `${title} is a ${form['obj_type']}`
      if (form['location'] !== location) return `${title} points at ${form['location']}`
      if (form['description'] !== description)
        return `${title}'s description is ${JSON.stringify(form['description'])}`
      return top.some((i) => i.title === STREAM.title)
        ? `the recorded link ${STREAM.title} was added`
        : null
    },
  },
}
