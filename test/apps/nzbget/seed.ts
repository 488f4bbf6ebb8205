/**
 * NZBGet's seed: the config file of a private instance (its folders in the temp dir, the web UI
 * from Debian's package, two users, five categories, no news server) and the downloads and
 * history entries added through its own JSON-RPC at start. NZBGet numbers downloads 1, 2, 3...
 * in the order they are added to a fresh queue, and a history entry keeps its download's id, so
 * adding the same list in the same order gives every start the same ids.
 */
import { Buffer } from 'node:buffer'

/**
 * The person the workflows sign in as: NZBGet's restricted user (`RestrictedUsername`). It may
 * do everything the workflows do (edit the queue, add, pause, set the speed limit) except save
 * the settings, and the `config` answer the web UI reads on every page load shows it `***` for
 * the security options. The control user would get them in clear there, its own password among
 * them, which would put the password in every recording (NOTES.md).
 */
export const USER = { name: 'ops', password: 'Grab-the-binaries-9' }

/** The full-rights user (`ControlUsername`): only the seeding calls use it. */
export const CONTROL = { name: 'nzbget', password: 'Seed-only-control-7' }

/** The categories of the config, in its order (the web UI's category menus list them so). */
const CATEGORIES = ['Movies', 'TV', 'Music', 'Audiobooks', 'Software']

/** What a seeded download starts as. */
type SeedState = 'queued' | 'paused'

/** One NZB the seed adds to the queue. */
export interface SeedDownload {
  /** The NZB's name (the file is `<name>.nzb`); the web UI shows it as the download's name. */
  name: string
  category: string
  state: SeedState
  /** NZBGet's priority: -100 very low ... 0 normal ... 100 very high, 900 force. */
  priority: number
  /** Total size in MB, spread over the NZB's files. */
  sizeMb: number
}

/** How a seeded history entry ends. */
type HistoryEnd = 'success' | 'bad' | 'deleted'

/** One download the seed adds and then moves to the history. */
export interface SeedHistory {
  name: string
  category: string
  /** success: marked success (`SUCCESS/MARK`); bad: marked bad (`FAILURE/BAD`); deleted. */
  end: HistoryEnd
  sizeMb: number
}

/**
 * The history, added first (ids 1-8). NZBGet cannot really download here (no news server), so
 * each entry is a download deleted from the queue (`DELETED/MANUAL`), some then marked success
 * or bad, as a person does in the History tab.
 */
export const HISTORY: SeedHistory[] = [
  {
    name: 'Sita Sings the Blues 2008 720p BluRay x264',
    category: 'Movies',
    end: 'success',
    sizeMb: 2150,
  },
  {
    name: 'Elephants Dream 2006 1080p BluRay x264',
    category: 'Movies',
    end: 'success',
    sizeMb: 1840,
  },
  { name: 'Cosmos Laundromat 2015 1080p WEB-DL', category: 'Movies', end: 'bad', sizeMb: 1320 },
  {
    name: 'Caminandes Llamigos 2016 1080p WEB-DL',
    category: 'Movies',
    end: 'success',
    sizeMb: 410,
  },
  { name: 'The Adventures of Superman S01E01 480p', category: 'TV', end: 'deleted', sizeMb: 350 },
  { name: 'Musopen Mozart Requiem FLAC', category: 'Music', end: 'success', sizeMb: 620 },
  {
    name: 'Librivox Sherlock Holmes Adventures MP3',
    category: 'Audiobooks',
    end: 'bad',
    sizeMb: 480,
  },
  { name: 'Debian 12 DVD amd64 ISO', category: 'Software', end: 'deleted', sizeMb: 3900 },
]

/**
 * The queue, added after the history (ids 9-26), in this order (the queue's order). The web UI
 * shows ten rows a page, so the row each workflow records on is on the first page; the two its
 * working check uses instead may be anywhere.
 */
export const QUEUE: SeedDownload[] = [
  // Page 1: the recorded rows of pause, resume, delete, priority, category, move to top...
  dl('Big Buck Bunny 2008 1080p BluRay x264', 'Movies', 'queued', 1450),
  dl('Night of the Living Dead 1968 720p BluRay', 'Movies', 'paused', 2240),
  dl('The Cisco Kid S01E01 480p WEB', 'TV', 'queued', 310),
  dl('Musopen Beethoven Symphony No 9 FLAC', 'Music', 'queued', 540),
  dl('Moby Dick 1956 720p WEB', '', 'paused', 1760),
  dl('Dick Tracy S01E03 480p WEB', 'TV', 'queued', 300),
  // ...and the first changed row of each.
  dl('Sintel 2010 1080p BluRay x264', 'Movies', 'queued', 1210),
  dl('Plan 9 from Outer Space 1957 720p BluRay', 'Movies', 'paused', 1980),
  dl('Bonanza S01E05 480p WEB', 'TV', 'queued', 330),
  dl('Kimiko Ishizaka Bach Goldberg Variations FLAC', 'Music', 'queued', 460),
  // Page 2: the second changed rows (and the first changed rows of category and move to top).
  dl('Librivox Pride and Prejudice MP3', '', 'paused', 420),
  dl('Sherlock Holmes 1954 S01E02 480p WEB', 'TV', 'queued', 340),
  dl('Tears of Steel 2012 1080p WEB-DL', 'Movies', 'queued', 1630),
  dl('His Girl Friday 1940 720p BluRay', 'Movies', 'paused', 2070),
  dl('The Beverly Hillbillies S01E01 480p WEB', 'TV', 'queued', 290),
  dl('Musopen Chopin Nocturnes FLAC', 'Music', 'queued', 390),
  dl('Ubuntu Noble Desktop amd64 ISO', '', 'paused', 5800),
  dl('Flash Gordon 1954 S01E01 480p WEB', 'TV', 'queued', 320),
]

/** A seeded download at normal priority. */
function dl(name: string, category: string, state: SeedState, sizeMb: number): SeedDownload {
  return { name, category, state, priority: 0, sizeMb }
}

/** The NZB the upload workflow picks (not seeded), and the other one its working check sends. */
export const UPLOAD_NAME = 'Valkaama 2010 720p WEB-DL'
export const OTHER_UPLOAD_NAME = 'Route 66 2003 480p DVDRip'

/** Escapes text for XML. */
function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/**
 * A valid NZB (1.1) for `name`: three RAR volumes and a par2 index, each of four segments with
 * fixed message ids and a fixed post date (2024-06-01), adding up to `sizeMb`. Nothing is ever
 * fetched: the message ids live under `example.invalid`.
 */
export function nzbFile(name: string, sizeMb: number): Uint8Array {
  const total = sizeMb * 1024 * 1024
  const parts = [
    { file: `${name}.part01.rar`, share: 0.34 },
    { file: `${name}.part02.rar`, share: 0.34 },
    { file: `${name}.part03.rar`, share: 0.31 },
    { file: `${name}.par2`, share: 0.01 },
  ]
  // Message ids are made of the name without spaces (a message id holds none).
  const slug = name.replace(/[^A-Za-z0-9]+/g, '-')
  const files = parts.map(({ file, share }, i) => {
    const bytes = Math.floor((total * share) / 4)
    const segments = [1, 2, 3, 4]
      .map(
        (n) =>
          `      <segment bytes="${bytes}" number="${n}">${slug}.${i + 1}.${n}@example.invalid</segment>`,
      )
      .join('\n')
    return [
      `  <file poster="uploader &lt;uploader@example.invalid&gt;" date="1717200000" subject="${xml(
        `[${i + 1}/${parts.length}] - "${file}" yEnc (1/4)`,
      )}">`,
      '    <groups><group>alt.binaries.test</group></groups>',
      '    <segments>',
      segments,
      '    </segments>',
      '  </file>',
    ].join('\n')
  })
  const text = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">',
    '<nzb xmlns="http://www.newzbin.com/DTD/2003/nzb">',
    ...files,
    '</nzb>',
    '',
  ].join('\n')
  return new Uint8Array(Buffer.from(text, 'utf8'))
}

/** The upload workflow's file (`Valkaama 2010 720p WEB-DL.nzb`) and the key's other file. */
export const UPLOAD_NZB = nzbFile(UPLOAD_NAME, 1120)
export const OTHER_UPLOAD_NZB = nzbFile(OTHER_UPLOAD_NAME, 690)

/** The instance's folders, all inside its temp dir. */
export interface NzbgetDirs {
  main: string
}

/**
 * `nzbget.conf` for a private instance: every folder in the temp dir, Debian's web UI and config
 * template, the control port on 127.0.0.1, Basic auth (FormAuth off), no news server (nothing
 * is ever downloaded: queued downloads stay QUEUED), no update check, no incoming-folder scan, no
 * disk-space pause, and the log only in memory (the Messages tab) and on the console.
 */
export function nzbgetConfig(dirs: NzbgetDirs, port: number): string {
  const lines = [
    `MainDir=${dirs.main}`,
    'DestDir=${MainDir}/dst',
    'InterDir=${MainDir}/inter',
    'NzbDir=${MainDir}/nzb',
    'QueueDir=${MainDir}/queue',
    'TempDir=${MainDir}/tmp',
    'ScriptDir=${MainDir}/scripts',
    'LockFile=${MainDir}/nzbget.lock',
    'LogFile=${MainDir}/nzbget.log',
    'WebDir=/usr/share/nzbget/webui',
    'ConfigTemplate=/usr/share/nzbget/webui/nzbget.conf',
    'ControlIP=127.0.0.1',
    `ControlPort=${port}`,
    `ControlUsername=${CONTROL.name}`,
    `ControlPassword=${CONTROL.password}`,
    `RestrictedUsername=${USER.name}`,
    `RestrictedPassword=${USER.password}`,
    'AddUsername=',
    'AddPassword=',
    'FormAuth=no',
    'SecureControl=no',
    'AuthorizedIP=',
    'UpdateCheck=none',
    'OutputMode=loggable',
    'WriteLog=none',
    'CrashTrace=no',
    'NzbDirInterval=0',
    'DiskSpace=0',
    'DownloadRate=0',
    'KeepHistory=30',
    'FlushQueue=no',
    'DupeCheck=yes',
    ...CATEGORIES.map((name, i) => `Category${i + 1}.Name=${name}`),
    '',
  ]
  return lines.join('\n')
}
