/**
 * The deterministic content of every Deluge instance: the config files of the daemon and of the
 * web UI (password, the one daemon in the host list, everything that would reach the network
 * off), and the torrents added through the web UI's own JSON-RPC API at start: some seeding
 * (their small files are written into the download folder first), some stalled at 0 %, some
 * paused, two magnets without metadata. Same names, same info hashes on every start.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildTorrent, fileContent, magnetLink, type BuiltTorrent } from './torrent'

/** The web UI's password (Deluge's web UI has one password and no user names). */
export const PASSWORD = 'Sitecall-Deluge-2026'
/** The name Deluge gives every web session (`login: 'admin'` in web.conf's sessions). */
export const USER_NAME = 'admin'

/** What a seeded torrent is doing when the instance is ready. */
type SeedState = 'Seeding' | 'Downloading' | 'Paused'

/** A seeded .torrent: with `dataSize` its file is written to the download folder and seeds. */
interface SeedTorrent {
  name: string
  state: SeedState
  /** Bytes of the file on disk (a seeding torrent), or the made-up size of a stalled one. */
  size: number
}

/** The seeded .torrent files, in the order they are added (their queue order). */
const SEED_TORRENTS: SeedTorrent[] = [
  { name: 'big-buck-bunny-1080p.mp4', state: 'Seeding', size: 160 * 1024 },
  { name: 'sintel-trailer-720p.mp4', state: 'Seeding', size: 96 * 1024 },
  { name: 'elephants-dream-1080p.mp4', state: 'Seeding', size: 128 * 1024 },
  { name: 'cosmos-laundromat-1080p.mp4', state: 'Seeding', size: 112 * 1024 },
  { name: 'moby-dick-gutenberg.epub', state: 'Seeding', size: 48 * 1024 },
  { name: 'beethoven-symphony-9-musopen.flac', state: 'Seeding', size: 200 * 1024 },
  { name: 'ubuntu-24.04-desktop-amd64.iso', state: 'Downloading', size: 6_114_656_256 },
  { name: 'debian-12.5.0-amd64-netinst.iso', state: 'Downloading', size: 659_554_304 },
  { name: 'fedora-workstation-40-x86_64.iso', state: 'Downloading', size: 2_295_853_056 },
  { name: 'archlinux-2024.06.01-x86_64.iso', state: 'Downloading', size: 1_181_937_664 },
  { name: 'linuxmint-21.3-cinnamon-64bit.iso', state: 'Paused', size: 3_115_438_080 },
  { name: 'opensuse-leap-15.6-dvd-x86_64.iso', state: 'Paused', size: 4_596_957_184 },
  { name: 'elementaryos-7.1-stable.iso', state: 'Paused', size: 2_961_178_624 },
  { name: 'kali-linux-2024.2-installer-amd64.iso', state: 'Paused', size: 4_119_855_104 },
]

/** The seeded magnet links (no metadata ever arrives: they stay "Downloading" at 0 %). */
const SEED_MAGNETS = ['wikipedia_en_all_nopic_2024-06.zim', 'openstreetmap-planet-240603.osm.pbf']

/** The .torrent file a person uploads in `upload_torrent` (not seeded). */
export const UPLOAD_TORRENT = buildTorrent('tears-of-steel-1080p.mkv', 1_213_464_576)
/** Another .torrent, the one the upload's working check and replay call the tool with. */
export const OTHER_UPLOAD_TORRENT = buildTorrent('caminandes-llamigos-1080p.mp4', 318_767_104)

/** Magnet links a person adds in `add_magnet` (the recorded one, then the two changed ones). */
export const NEW_MAGNETS = [
  magnetLink('librivox-moby-dick-audiobook-mp3'),
  magnetLink('nasa-apollo-11-mission-audio'),
  magnetLink('prelinger-archives-duck-and-cover-1951'),
]

/** The seeded torrent `name`, built (its bytes and info hash). */
function seedTorrent(name: string): BuiltTorrent {
  const spec = SEED_TORRENTS.find((t) => t.name === name)
  if (!spec) throw new Error(`no seeded torrent ${name}`)
  return spec.state === 'Seeding'
    ? buildTorrent(spec.name, spec.size, fileContent(spec.name, spec.size))
    : buildTorrent(spec.name, spec.size)
}

/** The info hash (Deluge's torrent id) of a seeded torrent. */
const seedHash = (name: string): string => seedTorrent(name).hash

/** A Deluge config file: its version header object, then the values (two JSON objects in a row). */
function configFile(fileVersion: number, values: object): string {
  return `${JSON.stringify({ file: fileVersion, format: 1 }, null, 4)}${JSON.stringify(values, null, 4)}`
}

/** A fixed host id of the one daemon in the web UI's host list (Deluge makes a uuid4 hex). */
const HOST_ID = 'a11ce5eedde1a9e0000000000000c0de'
/** The daemon's password for the `localclient` account the web UI connects with. */
const LOCALCLIENT_PASSWORD = 'f0e1d2c3b4a5968778695a4b3c2d1e0f00112233'
/** The salt of the web password (web.conf keeps salt and sha1(salt + password)). */
const WEB_SALT = '5175ca11dd0e11e9e0000000000000000000b0b0'

/** The paths an instance keeps its state in, all under its temp dir. */
export interface DelugeDirs {
  daemonConfig: string
  webConfig: string
  downloads: string
  /** The web server's TMPDIR: where `POST /upload` saves uploaded .torrent files. */
  tmp: string
}

/**
 * Writes the daemon's and the web UI's config dirs: the daemon listens for BitTorrent on
 * loopback only with DHT, LSD, UPnP, NAT-PMP and peer exchange off, no queue limit that would
 * turn stalled torrents into "Queued"; the web UI has the seeded password, is past its first
 * login, and has the daemon as default host, so it connects by itself at start and a person
 * never sees the Connection Manager.
 */
export function writeConfigs(
  dirs: DelugeDirs,
  ports: { daemon: number; bittorrent: number },
): void {
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true })
  const core = {
    download_location: dirs.downloads,
    move_completed_path: dirs.downloads,
    torrentfiles_location: dirs.downloads,
    daemon_port: ports.daemon,
    allow_remote: false,
    listen_interface: '127.0.0.1',
    listen_ports: [ports.bittorrent, ports.bittorrent],
    random_port: false,
    outgoing_interface: '',
    dht: false,
    lsd: false,
    upnp: false,
    natpmp: false,
    utpex: false,
    new_release_check: false,
    send_info: false,
    max_active_limit: 100,
    max_active_downloading: 100,
    max_active_seeding: 100,
    max_download_speed: -1,
    max_upload_speed: -1,
  }
  writeFileSync(join(dirs.daemonConfig, 'core.conf'), configFile(1, core))
  writeFileSync(join(dirs.daemonConfig, 'auth'), `localclient:${LOCALCLIENT_PASSWORD}:10\n`)
  const pwdSha1 = createHash('sha1')
    .update(WEB_SALT + PASSWORD)
    .digest('hex')
  const web = {
    default_daemon: HOST_ID,
    pwd_salt: WEB_SALT,
    pwd_sha1: pwdSha1,
    first_login: false,
    interface: '127.0.0.1',
    enabled_plugins: [],
    language: 'en',
    show_session_speed: false,
  }
  writeFileSync(join(dirs.webConfig, 'web.conf'), configFile(2, web))
  const hosts = {
    hosts: [[HOST_ID, '127.0.0.1', ports.daemon, 'localclient', LOCALCLIENT_PASSWORD]],
  }
  writeFileSync(join(dirs.webConfig, 'hostlist.conf'), configFile(3, hosts))
}

/** Writes the files of the seeding torrents into the download folder. */
export function writeSeedData(downloads: string): void {
  for (const t of SEED_TORRENTS)
    if (t.state === 'Seeding') writeFileSync(join(downloads, t.name), fileContent(t.name, t.size))
}

/** Calls one JSON-RPC method of the web UI with a session cookie; throws on an RPC error. */
export type RpcCall = (method: string, params: unknown[]) => Promise<unknown>

/**
 * Adds the seed through the web UI's JSON-RPC (what the Add dialog ends in, minus the dialog):
 * every .torrent with `core.add_torrent_file`, the magnets with `core.add_torrent_magnet`, one
 * at a time so the queue order is the list's order; then pauses the paused ones and waits until
 * the seeding ones have finished checking their files.
 */
export async function seedTorrents(call: RpcCall): Promise<void> {
  for (const spec of SEED_TORRENTS) {
    const t = seedTorrent(spec.name)
    await call('core.add_torrent_file', [`${spec.name}.torrent`, t.bytes.toString('base64'), {}])
  }
  for (const name of SEED_MAGNETS) await call('core.add_torrent_magnet', [magnetLink(name), {}])
  const paused = SEED_TORRENTS.filter((t) => t.state === 'Paused').map((t) => seedHash(t.name))
  await call('core.pause_torrent', [paused])
  const want = new Map(SEED_TORRENTS.map((t) => [seedHash(t.name), t.state]))
  const deadline = Date.now() + 60_000
  for (;;) {
    const status = (await call('core.get_torrents_status', [{}, ['state']])) as Record<
      string,
      { state: string }
    >
    const wrong = [...want].filter(([hash, state]) => status[hash]?.state !== state)
    if (!wrong.length) return
    if (Date.now() > deadline)
      throw new Error(
        `seed torrents not settled: ${wrong.map(([h]) => `${h}=${status[h]?.state}`).join(', ')}`,
      )
    await new Promise((r) => setTimeout(r, 250))
  }
}
