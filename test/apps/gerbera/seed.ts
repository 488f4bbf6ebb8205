/**
 * The deterministic content of every Gerbera instance: its `config.xml` (web UI and accounts on,
 * SQLite in the instance dir, the builtin virtual layout), the account the workflows sign in as,
 * and a small media library of tiny valid MP3, JPEG and text files under `/srv/media` (the
 * instance's own dir, bound there in the server's private mount namespace, see server.ts). The
 * files are added to the database one by one in a fixed order at start, so every object gets the
 * same id on every start.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The account of `config.xml` (Gerbera 1.1.0 has exactly the accounts its config lists). */
export const ACCOUNT = { name: 'curator', password: 'Sitecall-Gerbera-2026' }

/** Where the library is, as the server sees it (its mount namespace binds the instance's `srv/`). */
export const MEDIA_ROOT = '/srv/media'

/** The port and address Gerbera listens on inside its private network namespace. */
export const INNER_PORT = 49152
export const INNER_ADDRESS = '127.0.0.2'

/** Fixed file times (2026-05-14 09:30 UTC), so what Gerbera reads from a file is the same. */
const FILE_TIME = new Date('2026-05-14T09:30:00Z')

/** A seeded song: where it is under the media root and the ID3 tags it carries. */
export interface Song {
  path: string
  title: string
  artist: string
  album: string
  year: string
  genre: string
  track: number
}

/** Years and genres per album (ID3 TYER and TCON). */
const ALBUM_INFO: Record<string, { year: string; genre: string }> = {
  'Northern Lights': { year: '2024', genre: 'Ambient' },
  'Paper Boats': { year: '2022', genre: 'Indie' },
  'Sunday Tapes': { year: '2025', genre: 'Jazz' },
}

/** Songs, by folder: one folder per artist, as people keep their music. */
export const SONGS: Song[] = [
  song('Music/Aurora Lane/01 First Light.mp3', 'First Light', 'Aurora Lane', 'Northern Lights', 1),
  song('Music/Aurora Lane/02 Harbor Song.mp3', 'Harbor Song', 'Aurora Lane', 'Northern Lights', 2),
  song('Music/Aurora Lane/03 Snowfield.mp3', 'Snowfield', 'Aurora Lane', 'Northern Lights', 3),
  song(
    'Music/The Quiet Hours/01 Paper Boats.mp3',
    'Paper Boats',
    'The Quiet Hours',
    'Paper Boats',
    1,
  ),
  song(
    'Music/The Quiet Hours/02 Midnight Tram.mp3',
    'Midnight Tram',
    'The Quiet Hours',
    'Paper Boats',
    2,
  ),
  song('Music/The Quiet Hours/03 Night Bus.mp3', 'Night Bus', 'The Quiet Hours', 'Paper Boats', 3),
  song('Music/Mila Ferro/01 Slow Coffee.mp3', 'Slow Coffee', 'Mila Ferro', 'Sunday Tapes', 1),
  song('Music/Mila Ferro/02 Window Seat.mp3', 'Window Seat', 'Mila Ferro', 'Sunday Tapes', 2),
]

function song(path: string, title: string, artist: string, album: string, track: number): Song {
  const info = ALBUM_INFO[album]!
  return { path, title, artist, album, track, ...info }
}

/** Photos, by folder (the file name without `.jpg` is the title Gerbera shows). */
export const PHOTOS: string[] = [
  'Photos/2026 Lisbon Trip/Tram 28.jpg',
  'Photos/2026 Lisbon Trip/Harbor at Dusk.jpg',
  'Photos/2026 Lisbon Trip/Castle Walls.jpg',
  'Photos/Family/Birthday Cake.jpg',
  'Photos/Family/Picnic.jpg',
  'Photos/Family/Beach Day.jpg',
  'Photos/Garden/Tulips.jpg',
  'Photos/Garden/Apple Tree.jpg',
  'Photos/Winter Hike/Frozen Lake.jpg',
]

/** Plain text files (Gerbera adds them as items of the PC Directory tree only). */
const DOCUMENTS: Record<string, string> = {
  'Documents/Playlist Ideas.txt': 'Road trip: Harbor Song, Night Bus, Window Seat.\n',
  'Documents/Photo Credits.txt': 'Lisbon photos: Ada. Garden photos: Grace.\n',
}

/**
 * Folders that are autoscan directories from the start (timed, added through the UI's own
 * request at start, so they can be removed in the UI), each with one song in it.
 */
export const SEEDED_AUTOSCANS: Array<{ folder: string; interval: number; file: Song }> = [
  {
    folder: 'Concerts',
    interval: 3600,
    file: song(
      'Concerts/Live at the Pier.mp3',
      'Live at the Pier',
      'Aurora Lane',
      'Northern Lights',
      9,
    ),
  },
  {
    folder: 'Audiobooks',
    interval: 7200,
    file: song('Audiobooks/Chapter One.mp3', 'Chapter One', 'Mila Ferro', 'Sunday Tapes', 10),
  },
  {
    folder: 'Ringtones',
    interval: 86400,
    file: song('Ringtones/Bell.mp3', 'Bell', 'The Quiet Hours', 'Paper Boats', 11),
  },
]

/**
 * Files and folders on disk that are NOT in the database at start: what the add-from-filesystem
 * and add-autoscan workflows pick in the Filesystem view.
 */
const INBOX_SONGS: Song[] = [
  song('Inbox/Demo Tape.mp3', 'Demo Tape', 'Mila Ferro', 'Sunday Tapes', 3),
  song('Inbox/Voice Memo.mp3', 'Voice Memo', 'Mila Ferro', 'Sunday Tapes', 4),
  song('Inbox/Rehearsal.mp3', 'Rehearsal', 'The Quiet Hours', 'Paper Boats', 4),
]
/** Empty folders of the inbox, the add-autoscan workflow's choices. */
const INBOX_FOLDERS = ['Inbox/Podcasts', 'Inbox/Radio Shows', 'Inbox/Lectures']

/** Every file Gerbera is given at start with `--add`, in the order it imports them. */
export function startupFiles(): string[] {
  return [
    ...SONGS.map((s) => s.path),
    ...PHOTOS,
    ...Object.keys(DOCUMENTS),
    ...SEEDED_AUTOSCANS.map((a) => a.file.path),
  ].map((p) => `${MEDIA_ROOT}/${p}`)
}

/** An ID3v2.3 text frame (ISO-8859-1; the seeded tags are ASCII). */
function id3Frame(id: string, text: string): Buffer {
  const body = Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')])
  const head = Buffer.alloc(10)
  head.write(id, 0, 'latin1')
  head.writeUInt32BE(body.length, 4)
  return Buffer.concat([head, body])
}

/** A 28-bit "syncsafe" integer, as ID3v2 headers store sizes. */
function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f])
}

/**
 * A tiny valid MP3: an ID3v2.3 tag (title, artist, album, year, genre, track) and four silent
 * MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each), about 0.1 s of audio.
 */
function mp3Bytes(s: Song): Buffer {
  const frames = Buffer.concat([
    id3Frame('TIT2', s.title),
    id3Frame('TPE1', s.artist),
    id3Frame('TALB', s.album),
    id3Frame('TYER', s.year),
    id3Frame('TCON', s.genre),
    id3Frame('TRCK', String(s.track)),
  ])
  const header = Buffer.concat([Buffer.from('ID3\x03\x00\x00', 'latin1'), syncsafe(frames.length)])
  const audio = Buffer.alloc(417 * 4)
  for (let i = 0; i < 4; i++) audio.set([0xff, 0xfb, 0x90, 0x00], i * 417)
  return Buffer.concat([header, frames, audio])
}

/** A 16x16 baseline JPEG (a blue square with a white centre), made once with a canvas. */
const JPEG_BYTES = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAQABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAeEAAABAcAAAAAAAAAAAAAAAAFERITAAEVI0JRYf/EABQBAQAAAAAAAAAAAAAAAAAAAAT/xAAXEQADAQAAAAAAAAAAAAAAAAAAEiJh/9oADAMBAAIRAxEAPwCgKD1Z6+00nBRmfZagNA9JZvuuqwSRF2e4AoxSXrDrqc0kR8nuA0MVZmw00rNRmXJahdNgKE0//9k=',
  'base64',
)

/** Writes `bytes` at `path` under `root` (making its folders) with the fixed file time. */
function put(root: string, path: string, bytes: Buffer | string): void {
  const file = join(root, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, bytes)
  utimesSync(file, FILE_TIME, FILE_TIME)
}

/** Writes the whole library under `mediaDir` (the dir the server sees as {@link MEDIA_ROOT}). */
export function writeMedia(mediaDir: string): void {
  for (const s of [...SONGS, ...SEEDED_AUTOSCANS.map((a) => a.file), ...INBOX_SONGS])
    put(mediaDir, s.path, mp3Bytes(s))
  for (const p of PHOTOS) put(mediaDir, p, JPEG_BYTES)
  for (const [p, text] of Object.entries(DOCUMENTS)) put(mediaDir, p, text)
  for (const f of INBOX_FOLDERS) mkdirSync(join(mediaDir, f), { recursive: true })
}

/**
 * Gerbera's `config.xml`: the web UI with accounts on (one fixed account), a fixed UDN, SQLite in
 * `home`, no transcoding, no online content, the builtin virtual layout (Audio, Photos, ...)
 * with no scripting. Written from scratch so Debian's /etc/gerbera/config.xml is never read.
 */
export function configXml(home: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<config version="2" xmlns="http://mediatomb.cc/config/2">
  <server>
    <ui enabled="yes" show-tooltips="yes">
      <accounts enabled="yes" session-timeout="120">
        <account user="${ACCOUNT.name}" password="${ACCOUNT.password}"/>
      </accounts>
    </ui>
    <name>Sitecall Media</name>
    <udn>uuid:5e7a1f00-0000-4000-8000-00000000ca11</udn>
    <home>${home}</home>
    <webroot>/usr/share/gerbera/web</webroot>
    <alive>1800</alive>
    <storage>
      <sqlite3 enabled="yes">
        <database-file>gerbera.db</database-file>
      </sqlite3>
    </storage>
    <protocolInfo extend="no"/>
  </server>
  <import hidden-files="no">
    <scripting script-charset="UTF-8">
      <virtual-layout type="builtin"/>
    </scripting>
    <mappings>
      <extension-mimetype ignore-unknown="no">
        <map from="mp3" to="audio/mpeg"/>
        <map from="jpg" to="image/jpeg"/>
        <map from="txt" to="text/plain"/>
      </extension-mimetype>
      <mimetype-upnpclass>
        <map from="audio/*" to="object.item.audioItem.musicTrack"/>
        <map from="image/*" to="object.item.imageItem"/>
      </mimetype-upnpclass>
      <mimetype-contenttype>
        <treat mimetype="audio/mpeg" as="mp3"/>
        <treat mimetype="image/jpeg" as="jpg"/>
      </mimetype-contenttype>
    </mappings>
  </import>
  <transcoding enabled="no"/>
</config>
`
}
