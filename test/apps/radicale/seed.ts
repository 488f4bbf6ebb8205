/**
 * The seed of a Radicale instance: two users in an htpasswd file, and their calendars and address
 * books with fixed ids (UUID-like, as the web UI makes them), titles, descriptions and colors,
 * each holding a few events or contacts with fixed UIDs and dates. Everything but the htpasswd
 * file is created at start through Radicale's own WebDAV API (see `server.ts`), so every start
 * serves the same collections at the same paths.
 */

/** One account of the htpasswd file. */
export interface SeedUser {
  name: string
  password: string
  /** The htpasswd line's hash: MD5-APR1 with a fixed salt, htpasswd's default method. */
  hash: string
}

/** The user every workflow signs in as. */
export const USER: SeedUser = {
  name: 'alice',
  password: 'Calendars-4-all',
  hash: '$apr1$SiteCal1$cHTP1EDGoJSUNqFEh0k77.',
}

/** A second user, so a check can see that nobody else's collections changed. */
export const OTHER_USER: SeedUser = {
  name: 'bob',
  password: 'Bob-cards-22',
  hash: '$apr1$SiteCal2$ksST5yI.526NI8zDs2lxh0',
}

/** The realm of Radicale's 401 (the config's `[auth] realm`, its default). */
const REALM = 'Radicale - Password Required'

/** One event of a seeded calendar: fixed UID and times (UTC). */
export interface SeedEvent {
  uid: string
  summary: string
  /** `YYYYMMDDTHHMMSSZ` */
  start: string
  end: string
}

/** One contact of a seeded address book. */
export interface SeedContact {
  uid: string
  name: string
  email: string
}

/** One seeded collection, at `/<owner>/<id>/`. */
export interface SeedCollection {
  id: string
  owner: string
  kind: 'calendar' | 'addressbook'
  title: string
  description: string
  /** `#rrggbb`, as the web UI's color box gives it (it stores `#rrggbbff`). */
  color: string
  events?: SeedEvent[]
  contacts?: SeedContact[]
}

const event = (uid: string, summary: string, start: string, end: string): SeedEvent => ({
  uid,
  summary,
  start,
  end,
})

const contact = (uid: string, name: string, email: string): SeedContact => ({ uid, name, email })

/**
 * Every seeded collection: alice's calendars (of the web UI's default type, "calendar, journal and
 * tasks") with a few events, her address books with a few contacts, and one of each of bob's.
 * The workflows touch disjoint ones (see `workflows/index.ts`), so none changes what another
 * reads.
 */
export const COLLECTIONS: SeedCollection[] = [
  {
    id: '3f2a9c1e-7b4d-4e21-9a6f-1c0d5e8b7a01',
    owner: 'alice',
    kind: 'calendar',
    title: 'Work',
    description: 'Meetings and deadlines',
    color: '#1e88e5',
    events: [
      event('work-sprint-planning', 'Sprint planning', '20270104T090000Z', '20270104T103000Z'),
      event('work-quarterly-review', 'Quarterly review', '20270115T140000Z', '20270115T160000Z'),
    ],
  },
  {
    id: '8c41d0b7-2e5f-4a93-b1c8-6d7e9f0a2b02',
    owner: 'alice',
    kind: 'calendar',
    title: 'Family',
    description: 'Birthdays and school events',
    color: '#43a047',
    events: [
      event(
        'family-emma-birthday',
        "Emma's birthday party",
        '20270212T150000Z',
        '20270212T180000Z',
      ),
      event('family-parents-evening', 'Parents evening', '20270303T170000Z', '20270303T183000Z'),
    ],
  },
  {
    id: 'b5e07f3a-9d12-4c6b-8e4f-2a1b3c4d5e03',
    owner: 'alice',
    kind: 'calendar',
    title: 'Gym',
    description: 'Training plan',
    color: '#e53935',
    events: [event('gym-leg-day', 'Leg day', '20270105T063000Z', '20270105T073000Z')],
  },
  {
    id: '1d9e4b6c-3a7f-4f08-a2d5-7e6f8a9b0c04',
    owner: 'alice',
    kind: 'calendar',
    title: 'Travel',
    description: 'Trips and flights',
    color: '#fb8c00',
    events: [
      event('travel-lisbon-flight', 'Flight to Lisbon', '20270410T071500Z', '20270410T094000Z'),
      event('travel-lisbon-hotel', 'Hotel Alfama check-in', '20270410T140000Z', '20270410T150000Z'),
    ],
  },
  {
    id: 'e7a2c5d8-6b3f-4d1e-9c0a-8f7e6d5c4b05',
    owner: 'alice',
    kind: 'calendar',
    title: 'Book Club',
    description: 'First Thursday of the month',
    color: '#8e24aa',
    events: [event('book-hobbit', 'Discuss The Hobbit', '20270107T190000Z', '20270107T210000Z')],
  },
  {
    id: '4b8f1a2c-0d9e-4a7b-b6c3-9e8d7c6b5a06',
    owner: 'alice',
    kind: 'calendar',
    title: 'Garden',
    description: 'Planting and watering',
    color: '#7cb342',
    events: [event('garden-tomatoes', 'Plant tomatoes', '20270415T080000Z', '20270415T093000Z')],
  },
  {
    id: 'c2d6e9f0-1a4b-4c8d-a7e2-0b9c8d7e6f07',
    owner: 'alice',
    kind: 'calendar',
    title: 'Volunteering',
    description: 'Food bank shifts',
    color: '#00acc1',
    events: [
      event('volunteer-food-bank', 'Food bank shift', '20270109T090000Z', '20270109T130000Z'),
    ],
  },
  {
    id: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c08',
    owner: 'alice',
    kind: 'calendar',
    title: 'Birthdays',
    description: 'Friends and relatives',
    color: '#f06292',
    events: [
      event('birthday-grandma', "Grandma's birthday", '20270522T120000Z', '20270522T140000Z'),
    ],
  },
  {
    id: '6e5d4c3b-2a19-4f08-b7e6-d5c4b3a29f09',
    owner: 'alice',
    kind: 'calendar',
    title: 'Conferences',
    description: 'Talks and travel for events',
    color: '#5e35b1',
    events: [
      event('conf-fosdem', 'FOSDEM in Brussels', '20270206T080000Z', '20270206T170000Z'),
      event('conf-pycon', 'PyCon talk rehearsal', '20270318T160000Z', '20270318T170000Z'),
    ],
  },
  {
    id: '0f1e2d3c-4b5a-4968-a7b6-c5d4e3f2a110',
    owner: 'alice',
    kind: 'addressbook',
    title: 'Friends',
    description: 'People I know',
    color: '#fdd835',
    contacts: [
      contact('friend-maria', 'Maria Lopez', 'maria.lopez@example.org'),
      contact('friend-tom', 'Tom Becker', 'tom.becker@example.org'),
    ],
  },
  {
    id: '7a6b5c4d-3e2f-4a1b-9c8d-e7f6a5b4c311',
    owner: 'alice',
    kind: 'addressbook',
    title: 'Clients',
    description: 'Customers of the studio',
    color: '#3949ab',
    contacts: [contact('client-jane', 'Jane Doe', 'jane.doe@acme.example')],
  },
  {
    id: 'd4c3b2a1-0f9e-4d8c-b7a6-5f4e3d2c1b12',
    owner: 'alice',
    kind: 'addressbook',
    title: 'Old contacts',
    description: 'From the previous phone',
    color: '#757575',
    contacts: [contact('old-peter', 'Peter Hall', 'peter.hall@example.net')],
  },
  {
    id: '2b3c4d5e-6f70-4819-a2b3-c4d5e6f7a813',
    owner: 'alice',
    kind: 'addressbook',
    title: 'Newsletter',
    description: 'Readers of the newsletter',
    color: '#26a69a',
    contacts: [contact('news-lena', 'Lena Fischer', 'lena.fischer@example.com')],
  },
  {
    id: 'a8b9c0d1-e2f3-4a4b-95c6-d7e8f9a0b114',
    owner: 'alice',
    kind: 'addressbook',
    title: 'Archive 2019',
    description: 'Contacts from the 2019 project',
    color: '#8d6e63',
    contacts: [contact('archive-sam', 'Sam Carter', 'sam.carter@example.com')],
  },
  {
    id: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e15',
    owner: 'bob',
    kind: 'calendar',
    title: 'Work',
    description: "Bob's shifts",
    color: '#6d4c41',
    events: [event('bob-shift', 'Early shift', '20270104T060000Z', '20270104T140000Z')],
  },
  {
    id: 'f0e1d2c3-b4a5-4968-8776-655443322116',
    owner: 'bob',
    kind: 'addressbook',
    title: 'Contacts',
    description: "Bob's address book",
    color: '#546e7a',
    contacts: [contact('bob-anna', 'Anna Schmidt', 'anna.schmidt@example.de')],
  },
]

/** alice's seeded collection titled `title` (titles are unique per user); throws when none. */
export function seeded(title: string, owner = USER.name): SeedCollection {
  const found = COLLECTIONS.find((c) => c.owner === owner && c.title === title)
  if (!found) throw new Error(`no seeded collection ${title} of ${owner}`)
  return found
}

/** The path of a seeded collection: `/<owner>/<id>/`. */
export function collectionPath(c: SeedCollection): string {
  return `/${c.owner}/${c.id}/`
}

/** The htpasswd file: one `user:hash` line per user. */
export function htpasswd(): string {
  return [USER, OTHER_USER].map((u) => `${u.name}:${u.hash}\n`).join('')
}

/**
 * The whole config file of an instance (nothing comes from `/etc/radicale`: `--config` replaces
 * the default paths). No failed-login delay (a wrong password is answered at once), owner-only
 * rights, the internal web UI, warnings only in the log.
 */
export function radicaleConfig(options: { port: number; dir: string }): string {
  return [
    '[server]',
    `hosts = 127.0.0.1:${options.port}`,
    '',
    '[auth]',
    'type = htpasswd',
    `htpasswd_filename = ${options.dir}/users`,
    'htpasswd_encryption = md5',
    `realm = ${REALM}`,
    'delay = 0',
    '',
    '[rights]',
    'type = owner_only',
    '',
    '[storage]',
    `filesystem_folder = ${options.dir}/collections`,
    '',
    '[web]',
    'type = internal',
    '',
    '[logging]',
    'level = warning',
    '',
  ].join('\n')
}

/** The iCalendar object of one event, as a client PUTs it (fixed DTSTAMP, so ETags repeat). */
export function eventIcs(e: SeedEvent): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sitecall corpus//Radicale seed//EN',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    'DTSTAMP:20261101T000000Z',
    `DTSTART:${e.start}`,
    `DTEND:${e.end}`,
    `SUMMARY:${e.summary}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n')
}

/** The vCard of one contact. */
export function contactVcf(c: SeedContact): string {
  const [given, ...rest] = c.name.split(' ')
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `UID:${c.uid}`,
    `FN:${c.name}`,
    `N:${rest.join(' ')};${given};;;`,
    `EMAIL;TYPE=INTERNET:${c.email}`,
    'END:VCARD',
    '',
  ].join('\r\n')
}

/**
 * The extended MKCOL body (RFC 5689) that creates `c`, the properties the web UI's Create form
 * sends, in its order: resource type, a calendar's components (by default events, journals and
 * tasks: the form's default type), title, color (`#rrggbbff`) and description.
 */
export function mkcolBody(
  c: Pick<SeedCollection, 'kind' | 'title' | 'description' | 'color'>,
  components: string[] = ['VEVENT', 'VJOURNAL', 'VTODO'],
): string {
  const color = `${c.color}ff`
  const comps = components.map((name) => `<C:comp name="${name}" />`).join('')
  const props =
    c.kind === 'addressbook'
      ? '<resourcetype><collection /><CR:addressbook /></resourcetype>' +
        `<displayname>${xmlText(c.title)}</displayname>` +
        `<INF:addressbook-color>${color}</INF:addressbook-color>` +
        `<CR:addressbook-description>${xmlText(c.description)}</CR:addressbook-description>`
      : '<resourcetype><collection /><C:calendar /></resourcetype>' +
        `<C:supported-calendar-component-set>${comps}</C:supported-calendar-component-set>` +
        `<displayname>${xmlText(c.title)}</displayname>` +
        `<I:calendar-color>${color}</I:calendar-color>` +
        `<C:calendar-description>${xmlText(c.description)}</C:calendar-description>`
  return (
    '<?xml version="1.0" encoding="UTF-8" ?>' +
    '<mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" ' +
    'xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:I="http://apple.com/ns/ical/" ' +
    'xmlns:INF="http://inf-it.com/ns/ab/">' +
    `<set><prop>${props}</prop></set></mkcol>`
  )
}

/** `s` escaped for XML text. */
export function xmlText(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** A whole calendar as one .ics file (what the web UI's Upload sends), with its title. */
export interface CalendarFile {
  fileName: string
  title: string
  description: string
  events: SeedEvent[]
  bytes: Uint8Array
}

function calendarFile(
  fileName: string,
  title: string,
  description: string,
  events: SeedEvent[],
): CalendarFile {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sitecall corpus//Radicale upload//EN',
    `X-WR-CALNAME:${title}`,
    `X-WR-CALDESC:${description}`,
  ]
  for (const e of events)
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      'DTSTAMP:20261101T000000Z',
      `DTSTART:${e.start}`,
      `DTEND:${e.end}`,
      `SUMMARY:${e.summary}`,
      'END:VEVENT',
    )
  lines.push('END:VCALENDAR', '')
  return {
    fileName,
    title,
    description,
    events,
    bytes: new Uint8Array(Buffer.from(lines.join('\r\n'), 'utf8')),
  }
}

/** The .ics file the person uploads (an export from another calendar app). */
export const UPLOAD_CALENDAR = calendarFile(
  'team-offsite.ics',
  'Team offsite',
  'Offsite in Porto, spring 2027',
  [
    event('offsite-arrival', 'Arrival and dinner', '20270419T170000Z', '20270419T210000Z'),
    event('offsite-workshop', 'Roadmap workshop', '20270420T080000Z', '20270420T160000Z'),
    event('offsite-boat', 'Douro boat trip', '20270421T090000Z', '20270421T130000Z'),
  ],
)

/** Another .ics file: what the working check uploads with a tool whose HAR kept no bytes. */
export const OTHER_UPLOAD_CALENDAR = calendarFile(
  'school-term.ics',
  'School term',
  'Term dates 2027',
  [
    event('term-start', 'Spring term starts', '20270111T080000Z', '20270111T150000Z'),
    event('term-half', 'Half-term break', '20270215T080000Z', '20270219T150000Z'),
  ],
)
