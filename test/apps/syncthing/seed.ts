/**
 * The deterministic content of every Syncthing instance: a fixed device identity (so the device
 * ID, and with it the GUI's cookie and header names, is the same on every start), a GUI user with
 * a bcrypt password hash, fifteen folders with fixed ids, labels and relative paths, three remote
 * devices that never connect, and the options that keep the instance off the network.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The GUI user the workflows sign in as (HTTP Basic auth in 1.19). */
export const USER = { name: 'ada', password: 'Sitecall-Sync-2026' }

/**
 * bcrypt hash of {@link USER}'s password, made once with `syncthing generate --gui-password` and
 * kept here, so a start hashes nothing.
 */
const PASSWORD_HASH = '$2a$10$Y92rQLiA2Ymcew4NnoldI.72hbO4N.oJ8v7fst5N6FxFral3dYHba'

/** A fixed API key: Syncthing would otherwise write a random one into the config it serves. */
export const API_KEY = 'sitecall-syncthing-corpus-key'

/**
 * This instance's certificate and key, made once with `syncthing generate` for this corpus only
 * (a throwaway identity that never leaves 127.0.0.1). Syncthing derives the device ID from the
 * certificate, and the GUI names its CSRF cookie and header after the ID's first five
 * characters (`CSRF-Token-UDANZ`, `X-CSRF-Token-UDANZ`): a fresh key per start would rename them
 * and stored recordings would no longer fit a new instance.
 */
const IDENTITY = {
  cert: [
    '-----BEGIN CERTIFICATE-----',
    'MIICHDCCAaKgAwIBAgIIayYW2FPuaFEwCgYIKoZIzj0EAwIwSjESMBAGA1UEChMJ',
    'U3luY3RoaW5nMSAwHgYDVQQLExdBdXRvbWF0aWNhbGx5IEdlbmVyYXRlZDESMBAG',
    'A1UEAxMJc3luY3RoaW5nMB4XDTI2MTEyODAwMDAwMFoXDTQ2MTEyMzAwMDAwMFow',
    'SjESMBAGA1UEChMJU3luY3RoaW5nMSAwHgYDVQQLExdBdXRvbWF0aWNhbGx5IEdl',
    'bmVyYXRlZDESMBAGA1UEAxMJc3luY3RoaW5nMHYwEAYHKoZIzj0CAQYFK4EEACID',
    'YgAEscJ7K83JT4M4qfIP8vv3Oue0o28Gg1cDqykyuKOmPj/RROhh07kDjPeZ+kDa',
    'JXcK909FE1QbQMIPaNmuA9LYjTIUeTz9es0rQtR9M8Zkr4QsDNqxgvqUutB8F+uY',
    'p/YIo1UwUzAOBgNVHQ8BAf8EBAMCBaAwHQYDVR0lBBYwFAYIKwYBBQUHAwEGCCsG',
    'AQUFBwMCMAwGA1UdEwEB/wQCMAAwFAYDVR0RBA0wC4IJc3luY3RoaW5nMAoGCCqG',
    'SM49BAMCA2gAMGUCMFwI121JP+KSpRsHMsLT4zXrL2vVg5Ghd9X1qY8u72yZn9Gi',
    '/21a/SnkTJ4zsDxgrQIxANPjEN1Ud0SmNtY3U1gp5o4jlZinfptbSvcMo6bSvG4X',
    'ts+GG1KOKaoK0Jpv4fRNCg==',
    '-----END CERTIFICATE-----',
    '',
  ].join('\n'),
  key: [
    '-----BEGIN EC PRIVATE KEY-----',
    'MIGkAgEBBDC38TCgbHBs98SC3oNmtao/ercEfhWdfD3ivu6Y3d+1yclpb08ite+X',
    '1UbrQi6bgvqgBwYFK4EEACKhZANiAASxwnsrzclPgzip8g/y+/c657SjbwaDVwOr',
    'KTK4o6Y+P9FE6GHTuQOM95n6QNoldwr3T0UTVBtAwg9o2a4D0tiNMhR5PP16zStC',
    '1H0zxmSvhCwM2rGC+pS60HwX65in9gg=',
    '-----END EC PRIVATE KEY-----',
    '',
  ].join('\n'),
}

/** The device ID {@link IDENTITY} gives (what `syncthing serve --device-id` prints). */
export const MY_ID = 'UDANZS5-YQK45H6-ZLNLGAD-CTFY77O-DPHJIEH-6UKJOYN-S4ZTGUD-RHGZVQZ'
/** The first five characters of {@link MY_ID}: the suffix of the GUI's cookie and header names. */
const SHORT_ID = MY_ID.slice(0, 5)
/** The cookie Syncthing sets the CSRF token in; the GUI echoes it in {@link CSRF_HEADER}. */
export const CSRF_COOKIE = `CSRF-Token-${SHORT_ID}`
export const CSRF_HEADER = `X-CSRF-Token-${SHORT_ID}`
/** This device's name as seeded (Settings > General > Device Name). */
const MY_NAME = 'workstation'

/** A remote device: valid device IDs (made by `syncthing generate`, keys thrown away). */
export interface SeedDevice {
  id: string
  name: string
}

/** The remote devices of the seed; none is ever reachable (no discovery, dynamic addresses). */
export const DEVICES = {
  laptop: { id: 'DCKN7PW-SFYX3LO-WBLGXN5-QQV75CL-H4TAYGE-CN4FFIE-LCHW4KR-QIW2TQV', name: 'Laptop' },
  phone: { id: '67JD5MI-KY67ZXF-ZJDQ34T-W7HHN2V-LIZYGJM-HCE27TT-3EDFX3B-GBNVAQV', name: 'Phone' },
  nas: { id: 'LGZIB5N-KDRAH4T-TN57CGS-UVGERJ5-TN5ZZBY-DTINRVC-ESGULZF-6LQNGQT', name: 'NAS' },
} satisfies Record<string, SeedDevice>

/** Valid device IDs that are not in the seed: the add-device workflow adds them. */
export const NEW_DEVICE_IDS = [
  'KIIMOJ7-YB3YYVA-5CY3HOM-B3KT72E-6ITGT5P-XGUF2E2-RL22KRK-R3N4VAU',
  'QTTBO6K-4GZ2TJD-ZITBMGN-NHUHGZH-5G3Z5PR-KZPYWCL-3SUCQY2-CGVHVAG',
  'AUIL2IG-IF27NFB-5UWNMUD-TJYU34K-XLN7I5V-TXRTOKV-WHHGQOD-3WUNYQW',
] as const

/** A seeded folder: fixed id (Syncthing's `xxxxx-xxxxx` shape), label, files, ignore patterns. */
export interface SeedFolder {
  id: string
  label: string
  /** Remote devices (keys of {@link DEVICES}) the folder is shared with. */
  sharedWith: Array<keyof typeof DEVICES>
  /** Lines of the folder's `.stignore`, when it has one. */
  ignore?: string[]
  /** File names with their text. */
  files: Record<string, string>
}

/** Where folders live: relative to the instance dir (the server's cwd), see {@link folderPath}. */
const SYNC_DIR = 'Sync'

/**
 * A folder's path as the config holds it. Relative paths are resolved against Syncthing's
 * working directory (the instance dir), so the config, and every request body that carries it,
 * is the same on every start; an absolute temp path would differ per instance.
 */
export function folderPath(label: string): string {
  return `${SYNC_DIR}/${label}`
}

/**
 * The seeded folders, in the GUI's order (by label). Groups by the workflow that uses them, so
 * no workflow touches a folder another one reads or changes: reads (Photos, Documents, Music),
 * pause (Camera Uploads, Screenshots, Videos), rename (Projects, Notes, Wallpapers), rescan
 * interval (Invoices 2026, Receipts, Taxes), remove (Old Backups, Archive 2024, Temp Exports).
 */
export const FOLDERS: SeedFolder[] = [
  {
    id: 'k3m9x-pd2qa',
    label: 'Photos',
    sharedWith: ['phone', 'nas'],
    ignore: ['*.tmp', '(?d).DS_Store', 'Thumbs.db'],
    files: { 'beach.txt': 'Photo of the beach, 2026-07-14.\n' },
  },
  {
    id: 'w7c4t-hn5ve',
    label: 'Documents',
    sharedWith: ['laptop'],
    ignore: ['~$*', '*.bak', '/drafts'],
    files: { 'letter.txt': 'Dear landlord,\n', 'drafts/todo.txt': 'call the bank\n' },
  },
  {
    id: 'b2r8z-yq6mj',
    label: 'Music',
    sharedWith: ['laptop', 'nas'],
    ignore: ['*.m3u', '/Podcasts'],
    files: { 'playlist.txt': 'Side A\n' },
  },
  {
    id: 'p6v2c-mz8rt',
    label: 'Camera Uploads',
    sharedWith: ['phone'],
    files: { 'IMG_0001.txt': 'camera\n' },
  },
  { id: 'x4n7q-bw3ke', label: 'Screenshots', sharedWith: ['laptop'], files: { 's1.txt': 'x\n' } },
  { id: 'r9d3m-vc5yh', label: 'Videos', sharedWith: ['nas'], files: { 'v1.txt': 'v\n' } },
  {
    id: 'j5t8w-kq2pn',
    label: 'Projects',
    sharedWith: ['laptop'],
    files: { 'README.txt': 'projects\n' },
  },
  { id: 'c7h2f-zn9ud', label: 'Notes', sharedWith: ['laptop', 'phone'], files: { 'n.txt': 'n\n' } },
  { id: 'e3q6y-tm4sa', label: 'Wallpapers', sharedWith: [], files: { 'w.txt': 'w\n' } },
  {
    id: 'g8k1v-rd7wb',
    label: 'Invoices 2026',
    sharedWith: ['nas'],
    files: { 'INV-0001.txt': 'Invoice 1\n' },
  },
  { id: 'u2m5c-hx8jq', label: 'Receipts', sharedWith: ['nas'], files: { 'r.txt': 'r\n' } },
  { id: 'y6b9n-pe3lf', label: 'Taxes', sharedWith: ['nas'], files: { 't.txt': 't\n' } },
  { id: 'm4j7p-xc2dh', label: 'Old Backups', sharedWith: ['nas'], files: { 'b.txt': 'b\n' } },
  { id: 'q8s3k-ue9fb', label: 'Archive 2024', sharedWith: [], files: { 'a.txt': 'a\n' } },
  { id: 'h1d5w-rt7no', label: 'Temp Exports', sharedWith: [], files: { 'e.txt': 'e\n' } },
]

/** The seeded folder with this label; throws when there is none (a typo in a workflow). */
export function seededFolder(label: string): SeedFolder {
  const folder = FOLDERS.find((f) => f.label === label)
  if (!folder) throw new Error(`no seeded folder is labelled ${label}`)
  return folder
}

/** Folder settings every seeded folder shares (the rest take Syncthing's defaults). */
const RESCAN_INTERVAL_S = 3600

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function deviceXml(d: SeedDevice): string {
  return [
    `    <device id="${d.id}" name="${esc(d.name)}" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">`,
    '        <address>dynamic</address>',
    '        <paused>false</paused>',
    '        <autoAcceptFolders>false</autoAcceptFolders>',
    '    </device>',
  ].join('\n')
}

function folderXml(f: SeedFolder): string {
  const members = [MY_ID, ...f.sharedWith.map((k) => DEVICES[k].id)]
  return [
    // No filesystem watcher and a long rescan interval: a folder is scanned once at start and
    // then only when asked, so the instance stays quiet and a rescan is visible in the events.
    `    <folder id="${f.id}" label="${esc(f.label)}" path="${esc(folderPath(f.label))}" type="sendreceive" rescanIntervalS="${RESCAN_INTERVAL_S}" fsWatcherEnabled="false" fsWatcherDelayS="10" ignorePerms="false" autoNormalize="true">`,
    '        <filesystemType>basic</filesystemType>',
    ...members.map(
      (id) =>
        `        <device id="${id}" introducedBy=""><encryptionPassword></encryptionPassword></device>`,
    ),
    '        <minDiskFree unit="%">1</minDiskFree>',
    '        <paused>false</paused>',
    '        <markerName>.stfolder</markerName>',
    '    </folder>',
  ].join('\n')
}

/**
 * The whole `config.xml` (config version 36, Syncthing 1.19): GUI on `guiAddress` with the user
 * and password hash; sync protocol on a loopback port the kernel picks; no global or local
 * discovery, relays, NAT, STUN, usage or crash reports, upgrade checks; no notices waiting.
 */
function configXml(guiAddress: string): string {
  return [
    '<configuration version="36">',
    ...FOLDERS.map(folderXml),
    [
      `    <device id="${MY_ID}" name="${MY_NAME}" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">`,
      '        <address>dynamic</address>',
      '        <paused>false</paused>',
      '    </device>',
    ].join('\n'),
    ...Object.values(DEVICES).map(deviceXml),
    '    <gui enabled="true" tls="false" debugging="false">',
    `        <address>${guiAddress}</address>`,
    `        <user>${USER.name}</user>`,
    `        <password>${PASSWORD_HASH}</password>`,
    `        <apikey>${API_KEY}</apikey>`,
    '        <theme>default</theme>',
    '    </gui>',
    '    <ldap></ldap>',
    '    <options>',
    '        <listenAddress>tcp://127.0.0.1:0</listenAddress>',
    '        <globalAnnounceServer>default</globalAnnounceServer>',
    '        <globalAnnounceEnabled>false</globalAnnounceEnabled>',
    '        <localAnnounceEnabled>false</localAnnounceEnabled>',
    '        <relaysEnabled>false</relaysEnabled>',
    '        <startBrowser>false</startBrowser>',
    '        <natEnabled>false</natEnabled>',
    // -1: the person declined usage reporting, so the GUI asks nothing on load.
    '        <urAccepted>-1</urAccepted>',
    '        <urSeen>3</urSeen>',
    '        <urURL>http://127.0.0.1:9/newdata</urURL>',
    '        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>',
    '        <releasesURL>http://127.0.0.1:9/meta.json</releasesURL>',
    '        <crashReportingURL>http://127.0.0.1:9/newcrash</crashReportingURL>',
    '        <crashReportingEnabled>false</crashReportingEnabled>',
    '        <stunKeepaliveStartS>0</stunKeepaliveStartS>',
    '        <stunKeepaliveMinS>0</stunKeepaliveMinS>',
    '        <setLowPriority>false</setLowPriority>',
    '        <announceLANAddresses>false</announceLANAddresses>',
    '    </options>',
    '    <defaults>',
    // The Add Folder dialog fills the path from this and the label ("Sync/<label>").
    `        <folder id="" label="" path="${SYNC_DIR}" type="sendreceive" rescanIntervalS="${RESCAN_INTERVAL_S}" fsWatcherEnabled="false" fsWatcherDelayS="10" ignorePerms="false" autoNormalize="true">`,
    '            <filesystemType>basic</filesystemType>',
    `            <device id="${MY_ID}" introducedBy=""><encryptionPassword></encryptionPassword></device>`,
    '            <minDiskFree unit="%">1</minDiskFree>',
    '            <markerName>.stfolder</markerName>',
    '        </folder>',
    '        <device id="" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">',
    '            <address>dynamic</address>',
    '        </device>',
    '        <ignores></ignores>',
    '    </defaults>',
    '</configuration>',
    '',
  ].join('\n')
}

/**
 * Writes the instance's home dir: identity, config, and the folders (each with its `.stfolder`
 * marker, without which Syncthing refuses to run a folder, its files and its `.stignore`).
 * `home` is Syncthing's `--home`; `dir` is its working directory, which holds `Sync/`.
 */
export function writeSeed(home: string, dir: string, guiAddress: string): void {
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, 'cert.pem'), IDENTITY.cert)
  writeFileSync(join(home, 'key.pem'), IDENTITY.key, { mode: 0o600 })
  // The GUI's own HTTPS certificate (unused: the GUI speaks plain HTTP) would otherwise be
  // generated on every start.
  writeFileSync(join(home, 'https-cert.pem'), IDENTITY.cert)
  writeFileSync(join(home, 'https-key.pem'), IDENTITY.key, { mode: 0o600 })
  writeFileSync(join(home, 'config.xml'), configXml(guiAddress), { mode: 0o600 })
  for (const f of FOLDERS) {
    const root = join(dir, folderPath(f.label))
    mkdirSync(join(root, '.stfolder'), { recursive: true })
    for (const [name, text] of Object.entries(f.files)) {
      mkdirSync(join(root, name, '..'), { recursive: true })
      writeFileSync(join(root, name), text)
    }
    if (f.ignore) writeFileSync(join(root, '.stignore'), `${f.ignore.join('\n')}\n`)
  }
}
