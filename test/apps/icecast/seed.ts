/**
 * The seed of the Icecast instance: one `icecast.xml` and two htpasswd files written fresh for
 * every start, and the live streams the feeder (`feeder.ts`) connects in a fixed order: twelve
 * MP3 mounts of a made-up station, "Kestrel Radio", each with a fixed stream name, genre and song
 * title, ten listeners with fixed user agents, and the listener accounts of the two mounts that
 * ask listeners for a login. The connection order fixes the ids Icecast gives the listeners (a
 * counter of accepted connections), so the same listener has the same id on every start.
 */

/** The admin account (`<admin-user>`/`<admin-password>`): HTTP Basic on every `/admin/` page. */
export const USER = { name: 'admin', password: 'Kestrel-admin-42' } as const

/** The password every source client gives (user `source`, `<source-password>`). */
export const SOURCE_PASSWORD = 'Kestrel-source-7'

/** The mount whose listener accounts the delete workflow manages (htpasswd login). */
export const MEMBERS_MOUNT = '/members.mp3'

/** The mount whose listener accounts the add workflow manages (htpasswd login too). */
export const VIP_MOUNT = '/vip.mp3'

/** One listener the feeder keeps connected: its user agent, and its login on the members mount. */
export interface SeedListener {
  userAgent: string
  account?: string
}

/** One live mount: what its source client says about it, and who listens. */
export interface SeedMount {
  mount: string
  /** `Ice-Name`: the "Stream Name" of the status page. */
  name: string
  description: string
  genre: string
  /** The song title the source sets right after connecting (admin `metadata`, mode `updinfo`). */
  title: string
  listeners: SeedListener[]
}

/**
 * The mounts, in the order the feeder connects them (Icecast lists them sorted by name). Which
 * workflow uses which (see NOTES.md): `/live.mp3` is the one the workflows record on; the others
 * are the changed values of the checks, chosen so no two write workflows touch the same mount's
 * listeners.
 */
export const MOUNTS: SeedMount[] = [
  {
    mount: '/live.mp3',
    name: 'Kestrel FM Live',
    description: 'The main Kestrel FM programme',
    genre: 'Variety',
    title: 'Bonobo - Kerala',
    listeners: [
      { userAgent: 'VLC/3.0.18 LibVLC/3.0.18' },
      { userAgent: 'Winamp/5.9' },
      { userAgent: 'foobar2000/2.1' },
    ],
  },
  {
    mount: '/jazz.mp3',
    name: 'Kestrel Jazz',
    description: 'Jazz around the clock',
    genre: 'Jazz',
    title: 'Dave Brubeck - Take Five',
    listeners: [{ userAgent: 'iTunes/12.12' }, { userAgent: 'Rhythmbox/3.4.7' }],
  },
  {
    mount: '/news.mp3',
    name: 'Kestrel News',
    description: 'News and weather every half hour',
    genre: 'News',
    title: 'Headlines at the top of the hour',
    listeners: [{ userAgent: 'RadioDroid2/0.86' }],
  },
  {
    mount: '/lofi.mp3',
    name: 'Kestrel Lo-Fi',
    description: 'Beats to study to',
    genre: 'Lo-Fi',
    title: 'Rainy Window - Study Beats',
    listeners: [{ userAgent: 'Lavf/59.27.100' }],
  },
  {
    mount: '/talk.mp3',
    name: 'Kestrel Talk',
    description: 'Phone-ins and interviews',
    genre: 'Talk',
    title: 'The Garden Hour, episode 12',
    listeners: [{ userAgent: 'Audacious/4.2' }, { userAgent: 'mpv 0.35.1' }],
  },
  {
    mount: '/chill.mp3',
    name: 'Kestrel Chill',
    description: 'Downtempo for late nights',
    genre: 'Chillout',
    title: 'Air - Alone in Kyoto',
    listeners: [],
  },
  {
    mount: '/classics.mp3',
    name: 'Kestrel Classics',
    description: 'Classical music all day',
    genre: 'Classical',
    title: 'Vivaldi - Spring',
    listeners: [],
  },
  {
    mount: '/studio-b.mp3',
    name: 'Studio B rehearsal',
    description: 'Rehearsal feed from studio B',
    genre: 'Internal',
    title: 'Rehearsal take 3',
    listeners: [],
  },
  {
    mount: '/soundcheck.mp3',
    name: 'Soundcheck',
    description: 'Test tone for the outside broadcast van',
    genre: 'Internal',
    title: '1 kHz test tone',
    listeners: [],
  },
  {
    mount: '/old-feed.mp3',
    name: 'Old backup feed',
    description: 'The retired backup encoder',
    genre: 'Internal',
    title: 'Backup loop',
    listeners: [],
  },
  {
    mount: MEMBERS_MOUNT,
    name: 'Kestrel Members',
    description: 'Ad-free stream for supporters',
    genre: 'Variety',
    title: 'Members-only live session',
    listeners: [{ userAgent: 'Clementine 1.4.0', account: 'alice' }],
  },
  {
    mount: VIP_MOUNT,
    name: 'Kestrel VIP',
    description: 'Early previews for patrons',
    genre: 'Variety',
    title: 'Patron preview: the new album',
    listeners: [],
  },
]

/** The seeded mount at `mount`; throws for an unknown one (a typo in a key). */
export function seededMount(mount: string): SeedMount {
  const found = MOUNTS.find((m) => m.mount === mount)
  if (!found) throw new Error(`no seeded mount ${mount}`)
  return found
}

/** One listener account of an authenticated mount. */
export interface SeedAccount {
  name: string
  password: string
}

/**
 * The mounts whose listeners must log in (each its own `<authentication type="htpasswd">` and
 * file) and their accounts, in file order. Two files, so the add and the delete workflows never
 * write the same one (see NOTES.md: Icecast misses a second write to a file within one second).
 */
export const AUTH_MOUNTS: Record<string, SeedAccount[]> = {
  [MEMBERS_MOUNT]: [
    { name: 'alice', password: 'alice-listens-1' },
    { name: 'bob', password: 'bob-listens-2' },
    { name: 'carol', password: 'carol-listens-3' },
    { name: 'dave', password: 'dave-listens-4' },
    { name: 'hana', password: 'hana-listens-5' },
  ],
  [VIP_MOUNT]: [
    { name: 'ines', password: 'ines-listens-1' },
    { name: 'jonas', password: 'jonas-listens-2' },
  ],
}

/** The htpasswd file name of an authenticated mount (`/vip.mp3` → `vip.htpasswd`). */
export function htpasswdName(mount: string): string {
  return `${mount.slice(1).replace(/\.mp3$/, '')}.htpasswd`
}

/**
 * The htpasswd file of `mount`. Icecast 2.4's own format (not Apache's): one
 * `name:<MD5 of the password, lowercase hex>` a line, the way its Manage Authentication page
 * writes new users.
 */
export function htpasswd(mount: string, md5Hex: (text: string) => string): string {
  return (AUTH_MOUNTS[mount] ?? []).map((a) => `${a.name}:${md5Hex(a.password)}\n`).join('')
}

/** Where an instance keeps its files, and the port it listens on. */
export interface IcecastPaths {
  port: number
  /** The instance's temp dir (config, htpasswd, pid file). */
  dir: string
  /** Where Icecast writes `error.log` and `access.log`. */
  logDir: string
}

/** Debian's stylesheets and static files, used read-only. */
const WEBROOT = '/usr/share/icecast2/web'
const ADMINROOT = '/usr/share/icecast2/admin'

/** The `<mount>` section of an authenticated mount: its htpasswd file in the temp dir. */
function authMount(mount: string, paths: IcecastPaths): string {
  return `    <mount type="normal">
        <mount-name>${mount}</mount-name>
        <authentication type="htpasswd">
            <option name="filename" value="${paths.dir}/${htpasswdName(mount)}"/>
            <option name="allow_duplicate_users" value="1"/>
        </authentication>
    </mount>
`
}

/**
 * The whole `icecast.xml` of an instance: 127.0.0.1 only, the admin and source passwords, room
 * for the eleven sources, `/` as an alias of the status page (as Debian's minimal config has),
 * Debian's web and admin stylesheets, logs and pid file in the temp dir, no chroot, no user
 * switch (the server is started as `nobody` already when run as root), no directory (YP)
 * listing, and the two mounts with an htpasswd login.
 */
export function icecastConfig(paths: IcecastPaths): string {
  return `<icecast>
    <location>Kestrel Radio, Aberdeen</location>
    <admin>studio@kestrel.example</admin>
    <hostname>127.0.0.1</hostname>
    <limits>
        <clients>100</clients>
        <sources>${MOUNTS.length + 4}</sources>
        <queue-size>524288</queue-size>
        <client-timeout>30</client-timeout>
        <header-timeout>15</header-timeout>
        <source-timeout>10</source-timeout>
        <burst-size>0</burst-size>
    </limits>
    <authentication>
        <source-password>${SOURCE_PASSWORD}</source-password>
        <admin-user>${USER.name}</admin-user>
        <admin-password>${USER.password}</admin-password>
    </authentication>
    <listen-socket>
        <port>${paths.port}</port>
        <bind-address>127.0.0.1</bind-address>
    </listen-socket>
    <fileserve>1</fileserve>
${Object.keys(AUTH_MOUNTS)
  .map((mount) => authMount(mount, paths))
  .join('')}    <paths>
        <basedir>${paths.dir}</basedir>
        <logdir>${paths.logDir}</logdir>
        <pidfile>${paths.dir}/icecast.pid</pidfile>
        <webroot>${WEBROOT}</webroot>
        <adminroot>${ADMINROOT}</adminroot>
        <alias source="/" destination="/status.xsl"/>
    </paths>
    <logging>
        <accesslog>access.log</accesslog>
        <errorlog>error.log</errorlog>
        <loglevel>3</loglevel>
        <logsize>10000</logsize>
    </logging>
    <security>
        <chroot>0</chroot>
    </security>
</icecast>
`
}
