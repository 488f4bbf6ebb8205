/**
 * The seed of every mlmmj instance, the same on each start: the web admin's one HTTP Basic user
 * and seven mailing lists on lists.example.org, each made by Debian's `mlmmj-make-ml` (its
 * questions answered on stdin), given its control files (the tunables the web admin edits) and
 * its subscribers through `mlmmj-sub`, as a list admin would on the command line.
 *
 * Which workflow touches which list is chosen so no two workflows write the same list: the live
 * check runs every tool on one instance, and a broken tool must not spoil another's check.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from '../childProcess'

/** The web admin's user (Debian's .htaccess: `AuthUserFile /etc/mlmmj-php-web-admin/htpasswd`). */
export const USER = { name: 'listadmin', password: 'Lists-by-mail-2026' }

/** The mail domain of every seeded list. */
export const DOMAIN = 'lists.example.org'

/** One seeded list: its control files and its subscribers. */
export interface SeedList {
  name: string
  /** Boolean tunables switched on (an empty file `control/<name>` each). */
  flags: string[]
  /** Text tunables (one line) and list tunables (one value a line), `control/<name>`. */
  values: Record<string, string>
  subscribers: string[]
}

/** The seven lists, in the order the index shows them (alphabetical, mlmmj's `scandir`). */
const LISTS: SeedList[] = [
  {
    // allow_non_subscribers unticks subonlypost here.
    name: 'board',
    flags: ['closedlist', 'subonlypost', 'notifymod'],
    values: {
      owner: 'chair@example.org',
      prefix: '[Board]',
      moderators: 'chair@example.org\nsecretary@example.org',
      footer: 'Board business is confidential. Please do not forward.',
      memorymailsize: '32768',
    },
    subscribers: ['chair@example.org', 'secretary@example.org', 'treasurer@example.org'],
  },
  {
    // set_prefix changes the prefix here; list_subscribers reads its subscribers.
    name: 'book-club',
    flags: ['notmetoo'],
    values: {
      owner: 'olivia.hart@example.com',
      prefix: '[book-club]',
      footer: 'Next meeting: the first Tuesday of the month, 7 pm, at the library.',
      customheaders: 'Reply-To: book-club@lists.example.org',
      delheaders: 'Reply-To:',
    },
    subscribers: [
      'olivia.hart@example.com',
      'samir.khan@example.com',
      'tess.lund@example.com',
      'victor.moss@example.com',
    ],
  },
  {
    // set_max_mail_size changes maxmailsize here.
    name: 'choir',
    flags: ['moderated', 'modnonsubposts'],
    values: {
      owner: 'director@example.org',
      prefix: '[Choir]',
      moderators: 'director@example.org',
      maxmailsize: '1048576',
      footer: 'Rehearsals on Thursdays at 19:30 in the parish hall.',
    },
    subscribers: [
      'alma.reyes@example.com',
      'bruno.sato@example.com',
      'clara.vidal@example.com',
      'dario.weiss@example.com',
      'edith.young@example.com',
    ],
  },
  {
    // subscribe_address adds and remove_subscriber removes here.
    name: 'garden-club',
    flags: ['nosubconfirm'],
    values: {
      owner: 'anna.berg@example.com',
      prefix: '[Garden]',
      footer: 'Seed swap every spring at the community garden.',
      digestinterval: '604800',
    },
    subscribers: [
      'anna.berg@example.com',
      'kevin.ng@example.com',
      'lucia.ortiz@example.com',
      'nadia.petrov@example.com',
      'omar.quinn@example.com',
      'priya.rao@example.com',
    ],
  },
  {
    // moderate_list is recorded here (its runs use orchestra and youth-group).
    name: 'hiking',
    flags: ['tocc', 'notmetoo'],
    values: {
      owner: 'guide@example.org',
      prefix: '[Hiking]',
      moderators: 'guide@example.org',
      customheaders: 'Reply-To: hiking@lists.example.org',
      footer: 'Trail conditions change: check the forecast before every hike.',
    },
    subscribers: [
      'ben.carter@example.com',
      'chloe.dubois@example.com',
      'dmitri.egorov@example.com',
      'elena.fischer@example.com',
    ],
  },
  {
    name: 'orchestra',
    flags: ['subonlypost', 'notmetoo'],
    values: {
      owner: 'conductor@example.org',
      prefix: '[Orchestra]',
      moderators: 'conductor@example.org\nlibrarian@example.org',
      footer: 'Bring your own music stand.',
      maxmailsize: '2097152',
    },
    subscribers: ['felix.garcia@example.com', 'greta.holm@example.com', 'hana.ito@example.com'],
  },
  {
    name: 'youth-group',
    flags: ['closedlistsub', 'subonlypost'],
    values: {
      owner: 'leader@example.org',
      prefix: '[Youth]',
      moderators: 'leader@example.org',
      footer: 'Parents: permission slips are due a week before each trip.',
      customheaders: 'X-Group: youth',
    },
    subscribers: ['ivan.jones@example.com', 'jade.kim@example.com', 'liam.lopez@example.com'],
  },
]

/** The seeded list named `name`. */
export function seedList(name: string): SeedList {
  const list = LISTS.find((l) => l.name === name)
  if (!list) throw new Error(`no seeded list ${name}`)
  return list
}

/**
 * Makes every seeded list under `spool` with `mlmmj-make-ml` (answering its questions: the
 * domain, the owner, the texts' language), writes its control files and subscribes its members
 * silently (`mlmmj-sub -f -q -s`: no confirmation, no mail to the owner or the subscriber).
 */
export async function seedLists(spool: string): Promise<void> {
  mkdirSync(spool, { recursive: true })
  for (const list of LISTS) {
    const owner = list.values.owner ?? `postmaster@${DOMAIN}`
    await runCommand('/usr/bin/mlmmj-make-ml', ['-L', list.name, '-s', spool], {
      input: `${DOMAIN}\n${owner}\nen\n`,
    })
    const control = join(spool, list.name, 'control')
    for (const flag of list.flags) writeFileSync(join(control, flag), '', { mode: 0o644 })
    for (const [name, value] of Object.entries(list.values))
      writeFileSync(join(control, name), `${value}\n`, { mode: 0o644 })
    for (const address of list.subscribers)
      await runCommand('/usr/bin/mlmmj-sub', [
        ...['-L', join(spool, list.name), '-a', address],
        ...['-f', '-q', '-s'],
      ])
  }
}
