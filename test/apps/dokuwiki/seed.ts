/**
 * The deterministic content of every DokuWiki instance: its configuration (ACL on, plain-file
 * users), three users with fixed passwords, and a few namespaces of pages and one media file. The
 * same ids, titles and texts on every start, so stored traces stay valid.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** A seeded account: login name, password, full name (DokuWiki shows the login name by default). */
export interface SeedUser {
  name: string
  password: string
  fullName: string
}

/** The user the workflows sign in as. */
export const MAIN_USER: SeedUser = {
  name: 'ada',
  password: 'Sitecall-Doku-2026',
  fullName: 'Ada Lovelace',
}

/** Two more users, so a login tool can be called with other credentials than the recorded ones. */
const OTHER_USERS: [SeedUser, SeedUser] = [
  { name: 'grace', password: 'grace-Hopper-1906', fullName: 'Grace Hopper' },
  { name: 'linus', password: 'linus-Pauling-1901', fullName: 'Linus Pauling' },
]

/**
 * bcrypt hashes of the passwords above, made once with PHP's `password_hash(..., PASSWORD_BCRYPT)`
 * and kept here so a start needs no PHP run to hash them (DokuWiki's authplain checks `$2y$`).
 */
const HASHES: Record<string, string> = {
  ada: '$2y$10$n3GL5YgfIb257GfvZyRy0eY60ffYYSR7qlkRTSiGMW9P4xe0RAX..',
  grace: '$2y$10$X.lvkTApqBYOvyvf0poVLuAyhn3uHat2hQw2uWDxkNoHALfpoosRa',
  linus: '$2y$10$iNWgNZOCKNAVwnzZiYIZ7O6aMiH2IubVBrHdV9n7xwWGSgZmFvf5.',
}

/** The wiki's title, shown in the header and in every page's <title>. */
const WIKI_TITLE = 'Team Wiki'

/** Seeded pages by id (namespaces separated by `:`), with their wiki text. */
const PAGES: Record<string, string> = {
  start: [
    '====== Team Wiki ======',
    '',
    'Welcome to the team wiki. Start here:',
    '',
    '  * [[meetings:2026-11-13|Meeting notes of 13 November]]',
    '  * [[projects:website_relaunch|Website relaunch]]',
    '  * [[team:status|Team status]]',
    '',
  ].join('\n'),
  'meetings:2026-11-06': [
    '====== Meeting notes 2026-11-06 ======',
    '',
    'Attendees: Ada, Grace, Linus',
    '',
    '  * The quarterly budget review moves to December.',
    '  * Grace presents the new onboarding checklist.',
    '',
  ].join('\n'),
  'meetings:2026-11-13': [
    '====== Meeting notes 2026-11-13 ======',
    '',
    'Attendees: Ada, Linus',
    '',
    '  * The website relaunch slips by one week.',
    '  * Linus orders new chairs for the office move.',
    '',
  ].join('\n'),
  'meetings:2026-11-20': [
    '====== Meeting notes 2026-11-20 ======',
    '',
    'Attendees: Ada, Grace, Linus',
    '',
    '  * Budget approved for the relaunch campaign.',
    '',
  ].join('\n'),
  'projects:website_relaunch': [
    '====== Website relaunch ======',
    '',
    'Owner: Ada. Launch date: 2027-01-15.',
    '',
    'The new site moves the blog to the main domain and drops the old forum.',
    '',
  ].join('\n'),
  'projects:budget_review': [
    '====== Budget review ======',
    '',
    'The quarterly budget review compares spending against the plan per team.',
    '',
  ].join('\n'),
  'projects:office_move': [
    '====== Office move ======',
    '',
    'We move to the third floor on 2026-12-01. Linus keeps the floor plan.',
    '',
  ].join('\n'),
  'team:status': 'Status: green\n',
  // Pages only the delete workflow and its changed runs remove, so no other workflow needs them.
  'archive:2024-retro': '====== Retro 2024 ======\n\nWhat went well in 2024.\n',
  'archive:2025-q3-plan': '====== Plan Q3 2025 ======\n\nGoals of the third quarter.\n',
  'archive:2025-q4-plan': '====== Plan Q4 2025 ======\n\nGoals of the fourth quarter.\n',
  'team:contacts': [
    '====== Contacts ======',
    '',
    '  * Ada Lovelace: engineering',
    '  * Grace Hopper: operations',
    '  * Linus Pauling: facilities',
    '',
  ].join('\n'),
}

/** The bytes of a minimal PDF (DokuWiki checks an upload's extension, not its content). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

/**
 * Seeded media files: the media manager's tree lists only namespaces that hold media, so one file
 * in `meetings` lets the person pick that namespace for an upload.
 */
const MEDIA_IDS = ['projects:floorplan.pdf', 'meetings:agenda-template.pdf']

/** The data directories DokuWiki expects under its savedir. */
const DATA_DIRS = [
  'attic',
  'cache',
  'index',
  'locks',
  'log',
  'media',
  'media_attic',
  'media_meta',
  'meta',
  'pages',
  'tmp',
]

/** A page or media id (`a:b:c`) as a path under a data dir, with DokuWiki's default file names. */
function idPath(id: string, ext: string): string {
  return join(...id.split(':')) + ext
}

/**
 * Writes the instance's own conf dir: a `local.php` that overrides Debian's defaults (which this
 * conf dir copies), the users and the ACL. `confDir` and `dataDir` are absolute.
 */
export function writeConfig(confDir: string, dataDir: string): void {
  const local = [
    '<?php',
    `$conf['title'] = '${WIKI_TITLE}';`,
    `$conf['savedir'] = '${dataDir}';`,
    "$conf['useacl'] = 1;",
    "$conf['authtype'] = 'authplain';",
    "$conf['passcrypt'] = 'bcrypt';",
    "$conf['superuser'] = '@admin';",
    // No self-registration: the users are the seeded ones.
    "$conf['disableactions'] = 'register';",
    // Offline: no update check, no reverse DNS of the client.
    "$conf['updatecheck'] = 0;",
    "$conf['dnslookups'] = 0;",
    "$conf['license'] = 'cc-by-sa';",
    '',
  ].join('\n')
  writeFileSync(join(confDir, 'local.php'), local)
  const users = [
    '# users.auth.php',
    '# <?php exit()?>',
    ...[MAIN_USER, ...OTHER_USERS].map(
      (u) => `${u.name}:${HASHES[u.name]}:${u.fullName}:${u.name}@example.org:user`,
    ),
    '',
  ].join('\n')
  writeFileSync(join(confDir, 'users.auth.php'), users)
  // Everybody reads; signed-in users may create, edit, upload and delete (16 = AUTH_DELETE).
  const acl = ['# acl.auth.php', '# <?php exit()?>', '*\t@ALL\t1', '*\t@user\t16', ''].join('\n')
  writeFileSync(join(confDir, 'acl.auth.php'), acl)
}

/** Writes the data dir: the empty dirs DokuWiki needs, the pages and the media files. */
export function writeData(dataDir: string): void {
  for (const d of DATA_DIRS) mkdirSync(join(dataDir, d), { recursive: true })
  for (const [id, text] of Object.entries(PAGES)) {
    const file = join(dataDir, 'pages', idPath(id, '.txt'))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
  for (const id of MEDIA_IDS) {
    const media = join(dataDir, 'media', idPath(id, ''))
    mkdirSync(dirname(media), { recursive: true })
    writeFileSync(media, PDF_BYTES)
  }
}
