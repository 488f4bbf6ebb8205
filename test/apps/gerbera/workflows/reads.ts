/**
 * Gerbera's reads: a folder's items, reached by clicking down the database tree. The classic UI
 * asks `req_type=items&parent_id=<id>&return_type=xml` (XML answer), the new UI the same without
 * `return_type` (JSON answer); every folder's id comes from its parent's `req_type=containers`
 * answer, where the person saw its name.
 */
import type { Workflow } from '../../types'
import { call, containers, itemsAt, mustPass, op, resultText } from '../api'
import { PHOTOS, SONGS } from '../seed'
import { classicReady, itemRow, logInNew, openFolder, openFolderNew, openMenuNew } from './person'

/** The classic UI's "All Audio" folder under Audio: every song the database holds. */
const ALL_AUDIO = ['Audio', 'All Audio']

/** Page load, nothing typed: the classic UI, Audio, All Audio; the list of songs is the answer. */
export const listAllSongs: Workflow = {
  id: 'list_all_songs',
  intent: 'list all the songs in my Gerbera media library',
  rewordings: {
    terse: 'gerbera all songs',
    chatty: "Can you pull up every song that's in the Gerbera media server's library for me?",
    withoutValue: 'show the songs on the media server',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await classicReady(page)
    await openFolder(page, 'Database', ALL_AUDIO)
    await itemRow(page, 'Window Seat').waitFor()
  },
  key: {
    target: op('items'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const id = (await containers(app, session, '7')).find((c) => c.title === 'All Audio')?.id
      if (!id) throw new Error('no All Audio folder under Audio (id 7)')
      const result = await call(app, session, {
        req_type: 'items',
        parent_id: id,
        start: '0',
        count: '25',
      })
      mustPass(await this.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      const text = resultText(run.result)
      const held = (await itemsAt(app, session, ALL_AUDIO)).map((i) => i.title)
      if (held.length < SONGS.length) return `All Audio holds only ${held.length} songs`
      const missing = held.filter((t) => !text.includes(t))
      return missing.length ? `the answer does not list ${missing.join(', ')}` : null
    },
  },
}

/** The photo folders under Photos › Directories and the file names in each. */
function photosIn(folder: string): string[] {
  return PHOTOS.filter((p) => p.split('/')[1] === folder).map((p) => p.split('/').at(-1)!)
}

/**
 * Signed out on the new UI: logs in with the navbar form, opens Database, then Photos,
 * Directories and the folder "2026 Lisbon Trip"; the grid of its photos is the answer.
 */
export const browsePhotoFolder: Workflow = {
  id: 'browse_photo_folder',
  intent: 'show me the photos in the "2026 Lisbon Trip" folder on my Gerbera server',
  rewordings: {
    terse: 'gerbera photos 2026 Lisbon Trip',
    chatty:
      'I want to see which pictures made it into the 2026 Lisbon Trip folder on the media server, can you list them?',
    withoutValue: 'list the photos of one folder on the media server',
  },
  startPath: '/gerbera.html',
  signedIn: false,
  async play(page, app) {
    await logInNew(page, app)
    await openMenuNew(page, 'Database')
    await page.locator('#tree span.folder-title', { hasText: /^Photos$/ }).waitFor()
    await openFolderNew(page, ['Photos', 'Directories', '2026 Lisbon Trip'])
    await page.locator('#datagrid td', { hasText: 'Castle Walls.jpg' }).waitFor()
  },
  key: {
    target: op('items'),
    inputs: [{ recorded: '2026 Lisbon Trip', changed: ['Garden', 'Winter Hike'] }],
    // The folder's id, read from Directories' list of folders by name.
    dependencies: [op('containers')],
    mutating: false,
    async replayByHand(app, session) {
      const folder = 'Garden'
      const id = (await containers(app, session, '114')).find((c) => c.title === folder)?.id
      if (!id) throw new Error(`no folder ${folder} under Photos › Directories (id 114)`)
      const result = await call(app, session, {
        req_type: 'items',
        parent_id: id,
        start: '0',
        count: '25',
      })
      mustPass(await this.check(app, { status: 'succeeded', result }, session, [folder]))
    },
    async check(_app, run, _session, used) {
      const folder = String(used[0])
      const want = photosIn(folder)
      if (!want.length) return `no expectation for the folder ${folder}`
      const text = resultText(run.result)
      const missing = want.filter((p) => !text.includes(p))
      if (missing.length) return `the answer does not list ${missing.join(', ')} of ${folder}`
      const foreign = photosIn('2026 Lisbon Trip').filter((p) => text.includes(p))
      return foreign.length ? `the answer lists ${foreign.join(', ')} of 2026 Lisbon Trip` : null
    },
  },
}

/** The songs of each artist, as Audio › Artists › <artist> › All Songs lists them. */
function songsOf(artist: string): string[] {
  return SONGS.filter((s) => s.artist === artist).map((s) => s.title)
}

/**
 * On the new UI, signed in: Database, then Audio, Artists, Mila Ferro and her All Songs folder;
 * the grid of her songs is the answer.
 */
export const listArtistSongs: Workflow = {
  id: 'list_artist_songs',
  intent: 'which songs by Mila Ferro are on my Gerbera media server?',
  rewordings: {
    terse: 'gerbera songs by Mila Ferro',
    chatty: "I'm making a playlist, could you check which Mila Ferro songs the media server has?",
    withoutValue: "list an artist's songs on the media server",
  },
  startPath: '/gerbera.html',
  signedIn: true,
  async play(page) {
    await openMenuNew(page, 'Database')
    await page.locator('#tree span.folder-title', { hasText: /^Audio$/ }).waitFor()
    await openFolderNew(page, ['Audio', 'Artists', 'Mila Ferro', 'All Songs'])
    await page.locator('#datagrid td', { hasText: 'Window Seat' }).waitFor()
  },
  key: {
    target: op('items'),
    inputs: [{ recorded: 'Mila Ferro', changed: ['Aurora Lane', 'The Quiet Hours'] }],
    // The artist's folder by name under Artists, then its All Songs folder.
    dependencies: [op('containers')],
    mutating: false,
    async replayByHand(app, session) {
      const artist = 'Aurora Lane'
      const artistId = (await containers(app, session, '10')).find((c) => c.title === artist)?.id
      if (!artistId) throw new Error(`no artist ${artist} under Audio › Artists (id 10)`)
      const all = (await containers(app, session, artistId)).find((c) => c.title === 'All Songs')
      if (!all) throw new Error(`no All Songs folder for ${artist}`)
      const result = await call(app, session, {
        req_type: 'items',
        parent_id: all.id,
        start: '0',
        count: '25',
      })
      mustPass(await this.check(app, { status: 'succeeded', result }, session, [artist]))
    },
    async check(_app, run, _session, used) {
      const artist = String(used[0])
      const want = songsOf(artist)
      if (!want.length) return `no expectation for the artist ${artist}`
      const text = resultText(run.result)
      const missing = want.filter((t) => !text.includes(t))
      if (missing.length) return `the answer does not list ${missing.join(', ')} by ${artist}`
      const foreign = songsOf('Mila Ferro').filter((t) => text.includes(t))
      return foreign.length ? `the answer lists ${foreign.join(', ')} by Mila Ferro` : null
    },
  },
}
