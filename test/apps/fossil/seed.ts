/**
 * The deterministic content of every Fossil instance: a repository made with Fossil's own CLI
 * (`fossil init`, `fossil user`, check-ins with fixed dates and users, so their hashes are the
 * same on every start), plus tickets, wiki pages and forum posts written as Fossil artifacts with
 * fixed dates and ticket ids and put into the repository with `fossil test-content-put` (the CLI's
 * `ticket add` and `wiki create` would stamp them with the current time and a random ticket id).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Debian's fossil binary. */
export const FOSSIL = '/usr/bin/fossil'

/** A seeded account. */
export interface SeedUser {
  name: string
  password: string
}

/** The admin, the user the workflows sign in as. */
export const MAIN_USER: SeedUser = { name: 'ada', password: 'Sitecall-Fossil-2026' }

/** A developer who commits and writes tickets too (Fossil's capability letters). */
const OTHER_USER: SeedUser & { caps: string } = {
  name: 'grace',
  password: 'grace-Hopper-1906',
  caps: 'bcdefhijkmnrstw234',
}

const PROJECT_NAME = 'Orbit Tracker'
/**
 * The project code, normally random: Fossil names its login cookie after it
 * (`fossil-<first 16 hex>`), so a fixed code gives every instance the same cookie name.
 */
const PROJECT_CODE = '5a7e11c0de0b17a5eed0f0551c0a11ba57e0f0ce'
/** The login cookie's name, from {@link PROJECT_CODE}. */
export const LOGIN_COOKIE = `fossil-${PROJECT_CODE.slice(0, 16)}`

/** A seeded ticket: a fixed 40-hex id and its fields as Fossil's default ticket setup names them. */
export interface SeedTicket {
  uuid: string
  title: string
  type: string
  status: string
  severity: string
  priority: string
  comment: string
  date: string
  user: string
}

/**
 * Fixed ticket ids (40 hex, as Fossil makes them), made from a counter so they are the same on
 * every start and differ in their first digits (the UI shows and links 10-digit prefixes).
 */
const tid = (n: number): string => createHash('sha1').update(`orbit-ticket-${n}`).digest('hex')

export const TICKETS: SeedTicket[] = [
  {
    uuid: tid(1),
    title: 'Export to CSV drops the header row',
    type: 'Code_Defect',
    status: 'Open',
    severity: 'Important',
    priority: 'High',
    comment: 'The exported passes.csv starts with the first data row; the header row is missing.',
    date: '2026-01-21T10:15:00',
    user: 'grace',
  },
  {
    uuid: tid(2),
    title: 'Pass times are off by one hour in CET',
    type: 'Code_Defect',
    status: 'Open',
    severity: 'Severe',
    priority: 'High',
    comment: 'Predicted pass times for Berlin are one hour late since the clocks changed.',
    date: '2026-01-23T08:40:00',
    user: 'ada',
  },
  {
    uuid: tid(3),
    title: 'Add a dark theme to the web viewer',
    type: 'Feature_Request',
    status: 'Open',
    severity: 'Minor',
    priority: 'Low',
    comment: 'Night observers would like a dark theme for the sky map.',
    date: '2026-01-24T19:05:00',
    user: 'grace',
  },
  {
    uuid: tid(4),
    title: 'TLE parser rejects lines with trailing spaces',
    type: 'Code_Defect',
    status: 'Open',
    severity: 'Important',
    priority: 'Medium',
    comment: 'Some TLE sources pad lines with spaces; the checksum test then fails.',
    date: '2026-01-26T14:30:00',
    user: 'ada',
  },
  {
    uuid: tid(5),
    title: 'Installer fails on Debian 12',
    type: 'Build_Problem',
    status: 'Open',
    severity: 'Severe',
    priority: 'High',
    comment: 'pip install stops with an error about the missing python3-venv package.',
    date: '2026-01-27T09:00:00',
    user: 'grace',
  },
  {
    uuid: tid(6),
    title: 'Usage page lists a removed option',
    type: 'Documentation',
    status: 'Open',
    severity: 'Cosmetic',
    priority: 'Low',
    comment: 'docs/usage.md still documents the --legacy-format option.',
    date: '2026-01-28T11:20:00',
    user: 'ada',
  },
  {
    uuid: tid(7),
    title: 'Crash when the ground station list is empty',
    type: 'Code_Defect',
    status: 'Open',
    severity: 'Critical',
    priority: 'Immediate',
    comment: 'Starting without any ground station configured raises an IndexError.',
    date: '2026-01-29T16:45:00',
    user: 'grace',
  },
  {
    uuid: tid(8),
    title: 'Map tiles load slowly on first start',
    type: 'Incident',
    status: 'Open',
    severity: 'Minor',
    priority: 'Medium',
    comment: 'The first start downloads every zoom level before showing the map.',
    date: '2026-01-30T13:10:00',
    user: 'ada',
  },
  {
    uuid: tid(9),
    title: 'Support Galileo satellites',
    type: 'Feature_Request',
    status: 'Open',
    severity: 'Minor',
    priority: 'Low',
    comment: 'Please add the Galileo constellation to the satellite catalogue.',
    date: '2026-02-02T10:00:00',
    user: 'grace',
  },
]

/** The seeded ticket with this title (throws for an unknown title: a typo in a key). */
export function ticketByTitle(title: string): SeedTicket {
  const t = TICKETS.find((x) => x.title === title)
  if (!t) throw new Error(`no seeded ticket titled ${title}`)
  return t
}

/** A seeded wiki page (Markdown). */
interface SeedWikiPage {
  name: string
  text: string
  date: string
  user: string
}

const WIKI_PAGES: SeedWikiPage[] = [
  {
    // Fossil's default home page shows the wiki page named after the project.
    name: PROJECT_NAME,
    text: [
      '# Orbit Tracker',
      '',
      'Predicts satellite passes over our ground stations.',
      '',
      '* [Release Checklist](/wiki?name=Release+Checklist)',
      '* [Ground Stations](/wiki?name=Ground+Stations)',
      '* [Coding Style](/wiki?name=Coding+Style)',
      '',
    ].join('\n'),
    date: '2026-01-06T09:30:00',
    user: 'ada',
  },
  {
    name: 'Release Checklist',
    text: '1. Run the test suite\n2. Tag the release\n3. Upload the tarball\n',
    date: '2026-01-12T15:00:00',
    user: 'ada',
  },
  {
    name: 'Ground Stations',
    text: '* Berlin: 52.52 N, 13.40 E\n* Lisbon: 38.72 N, 9.14 W\n',
    date: '2026-01-15T10:00:00',
    user: 'grace',
  },
  {
    name: 'Coding Style',
    text: 'Use four spaces, type hints, and keep functions short.\n',
    date: '2026-01-18T17:20:00',
    user: 'grace',
  },
  {
    name: 'Meeting Notes 2026-01',
    text: 'We agreed to ship the CSV export in release 1.1.\n',
    date: '2026-01-31T12:00:00',
    user: 'ada',
  },
]

/** A seeded forum thread: its first post and replies, each by a user at a fixed date. */
interface SeedThread {
  title: string
  posts: Array<{ text: string; date: string; user: string }>
}

const FORUM_THREADS: SeedThread[] = [
  {
    title: 'Welcome to the Orbit Tracker forum',
    posts: [
      {
        text: 'Ask questions about the tracker here.',
        date: '2026-01-07T08:00:00',
        user: 'ada',
      },
    ],
  },
  {
    title: 'How do I add a new ground station?',
    posts: [
      {
        text: 'I want to track passes over Lisbon. Where do the coordinates go?',
        date: '2026-01-16T18:30:00',
        user: 'grace',
      },
      {
        text: 'Add a line to stations.toml and restart the tracker.',
        date: '2026-01-16T19:05:00',
        user: 'ada',
      },
    ],
  },
]

/** A check-in made with the CLI: files written, then committed at a fixed date by a user. */
interface SeedCheckin {
  branch: string
  /** Starts a new branch from the current check-out when set. */
  newBranch?: boolean
  tag?: string
  comment: string
  date: string
  user: string
  files: Record<string, string>
}

const CHECKINS: SeedCheckin[] = [
  {
    branch: 'trunk',
    comment: 'Add the README and the orbit calculator',
    date: '2026-01-10T10:00:00',
    user: 'ada',
    files: {
      'README.md': '# Orbit Tracker\n\nPredicts satellite passes.\n',
      'src/orbit.py': 'def period(a):\n    return 2 * 3.14159 * (a ** 3 / 398600.4418) ** 0.5\n',
    },
  },
  {
    branch: 'trunk',
    comment: 'Parse TLE files and check their checksums',
    date: '2026-01-14T11:30:00',
    user: 'grace',
    files: {
      'src/tle.py':
        'def checksum(line):\n    return sum(int(c) for c in line if c.isdigit()) % 10\n',
    },
  },
  {
    branch: 'feature-csv-export',
    newBranch: true,
    comment: 'Start the CSV export of predicted passes',
    date: '2026-01-20T09:15:00',
    user: 'grace',
    files: {
      'src/export.py':
        'import csv\n\ndef export(passes, out):\n    csv.writer(out).writerows(passes)\n',
    },
  },
  {
    branch: 'feature-csv-export',
    comment: 'Write the station name into every exported row',
    date: '2026-01-22T14:00:00',
    user: 'grace',
    files: {
      'src/export.py':
        'import csv\n\ndef export(passes, out, station):\n    csv.writer(out).writerows([station, *p] for p in passes)\n',
    },
  },
  {
    branch: 'trunk',
    tag: 'release-1.0',
    comment: 'Document the command line options',
    date: '2026-01-25T16:00:00',
    user: 'ada',
    files: { 'docs/usage.md': '# Usage\n\n    orbit --station Berlin --days 3\n' },
  },
  {
    branch: 'docs-refresh',
    newBranch: true,
    comment: 'Rewrite the install guide for pip',
    date: '2026-02-03T10:30:00',
    user: 'ada',
    files: { 'docs/install.md': '# Install\n\n    pip install orbit-tracker\n' },
  },
  {
    branch: 'docs-refresh',
    comment: 'Explain the stations.toml file',
    date: '2026-02-04T09:45:00',
    user: 'grace',
    files: { 'docs/stations.md': '# Stations\n\nOne [[station]] table per ground station.\n' },
  },
]

/**
 * A value as a Fossil card argument ("fossilized"): spaces, newlines and backslashes escaped, as
 * `fossil artifact` shows them (J, H and C cards).
 */
function fossilize(value: string): string {
  return value.replace(/[\\ \n\r\t\f\v\0]/g, (c) => {
    const map: Record<string, string> = {
      '\\': '\\\\',
      ' ': '\\s',
      '\n': '\\n',
      '\r': '\\r',
      '\t': '\\t',
      '\f': '\\f',
      '\v': '\\v',
      '\0': '\\0',
    }
    return map[c]!
  })
}

/** An artifact's text: the cards (already in Fossil's card order) and its closing Z card. */
function artifact(cards: string[]): string {
  const body = cards.map((c) => `${c}\n`).join('')
  return `${body}Z ${createHash('md5').update(body).digest('hex')}\n`
}

/** A W card with its content (Fossil counts bytes, and ends the content with a newline). */
function wCard(text: string): string {
  return `W ${Buffer.byteLength(text)}\n${text}`
}

const stamp = (date: string): string => `${date}.000`

/** A new-ticket artifact as Fossil's own ticket form writes it (J cards sorted by field). */
function ticketArtifact(t: SeedTicket): string {
  const fields: Record<string, string> = {
    comment: t.comment,
    login: t.user,
    mimetype: 'text/x-markdown',
    priority: t.priority,
    severity: t.severity,
    status: t.status,
    title: t.title,
    type: t.type,
  }
  const j = Object.keys(fields)
    .sort()
    .map((k) => `J ${k} ${fossilize(fields[k]!)}`)
  return artifact([`D ${stamp(t.date)}`, ...j, `K ${t.uuid}`, `U ${t.user}`])
}

/** A wiki page's first version. */
function wikiArtifact(p: SeedWikiPage): string {
  return artifact([
    `D ${stamp(p.date)}`,
    `L ${fossilize(p.name)}`,
    'N text/x-markdown',
    `U ${p.user}`,
    wCard(p.text),
  ])
}

/** The artifacts of a forum thread: the first post (H card: title), then replies to it. */
function forumArtifacts(thread: SeedThread): string[] {
  const [first, ...replies] = thread.posts
  const root = artifact([
    `D ${stamp(first!.date)}`,
    `H ${fossilize(thread.title)}`,
    'N text/x-markdown',
    `U ${first!.user}`,
    wCard(first!.text),
  ])
  const rootHash = createHash('sha3-256').update(root).digest('hex')
  const out = [root]
  for (const r of replies)
    out.push(
      artifact([
        `D ${stamp(r.date)}`,
        `G ${rootHash}`,
        `I ${rootHash}`,
        'N text/x-markdown',
        `U ${r.user}`,
        wCard(r.text),
      ]),
    )
  return out
}

/** Runs the fossil CLI (in `cwd`, with `env`), returning its standard output. */
function fossil(args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(FOSSIL, args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  })
}

/**
 * The environment every fossil command of an instance runs with: its own FOSSIL_HOME (Fossil's
 * global config database, which `fossil open` writes to) and HOME in the instance's dir, so the
 * system's ~/.fossil is never read or written; USER names the CLI's default user.
 */
export function fossilEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, FOSSIL_HOME: dir, HOME: dir, USER: MAIN_USER.name }
}

/**
 * Creates the seeded repository `repo` (a check-out in `dir/checkout` is used and closed again):
 * users and their capabilities, settings, check-ins, then the tickets, wiki pages and forum
 * posts, and a rebuild that cross-links every artifact and builds the search index.
 */
export function seedRepository(dir: string, repo: string): void {
  const env = fossilEnv(dir)
  const r = ['-R', repo]
  fossil(
    [
      'init',
      repo,
      '--admin-user',
      MAIN_USER.name,
      '--date-override',
      '2026-01-05T09:00:00',
      '--project-name',
      PROJECT_NAME,
      '--project-desc',
      'Predicts satellite passes over our ground stations',
    ],
    dir,
    env,
  )
  fossil(
    ['sql', ...r, `UPDATE config SET value='${PROJECT_CODE}' WHERE name='project-code'`],
    dir,
    env,
  )
  fossil(['user', 'password', MAIN_USER.name, MAIN_USER.password, ...r], dir, env)
  fossil(
    ['user', 'new', OTHER_USER.name, `${OTHER_USER.name}@example.org`, OTHER_USER.password, ...r],
    dir,
    env,
  )
  fossil(['user', 'capabilities', OTHER_USER.name, OTHER_USER.caps, ...r], dir, env)
  // Nobody signed in may only read (code, wiki, tickets, forum) and follow links; the
  // "anonymous" login (a captcha away) gets nothing more. Every write needs the login.
  fossil(['user', 'capabilities', 'anonymous', 'h', ...r], dir, env)
  fossil(['user', 'capabilities', 'nobody', 'ghjorz2', ...r], dir, env)
  // No backoffice: after a request Fossil would fork a detached backoffice process (its own
  // session, so outside the server's process group) that outlives close() for up to a minute.
  fossil(['settings', 'backoffice-disable', '1', ...r], dir, env)
  // Site search over check-ins, documents, tickets, wiki, tech notes and forum.
  fossil(['fts-config', ...r, 'enable', 'cdtwef'], dir, env)

  const checkout = join(dir, 'checkout')
  mkdirSync(checkout)
  fossil(['open', repo, '--workdir', checkout], dir, env)
  for (const ci of CHECKINS) {
    if (!ci.newBranch) fossil(['update', ci.branch], checkout, env)
    const added: string[] = []
    for (const [path, text] of Object.entries(ci.files)) {
      const file = join(checkout, path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
      added.push(path)
    }
    fossil(['add', ...added], checkout, env)
    fossil(
      [
        'commit',
        '-m',
        ci.comment,
        '--date-override',
        ci.date,
        '--user-override',
        ci.user,
        '--no-warnings',
        ...(ci.newBranch ? ['--branch', ci.branch] : []),
        ...(ci.tag ? ['--tag', ci.tag] : []),
      ],
      checkout,
      env,
    )
  }
  const artifacts = [
    ...TICKETS.map(ticketArtifact),
    ...WIKI_PAGES.map(wikiArtifact),
    ...FORUM_THREADS.flatMap(forumArtifacts),
  ]
  artifacts.forEach((text, i) => {
    const file = join(dir, `artifact-${i}.txt`)
    writeFileSync(file, text)
    fossil(['test-content-put', file], checkout, env)
  })
  fossil(['close', '--force'], checkout, env)
  // Cross-links the artifacts put above (tickets, wiki, forum) and fills the search index.
  fossil(['rebuild', repo], dir, env)
  fossil(['fts-config', ...r, 'index', 'on'], dir, env)
}
