/**
 * The seed of the CUPS instance: its two config files (written fresh for every start) and a fixed
 * set of print queues and jobs, created right after the start with CUPS's own command-line tools
 * (`lpadmin`, `cupsdisable`, `lp`) against the private server. Every queue sends to `/dev/null`
 * through the `file:` backend, so nothing ever reaches a real device; every job is held or waits
 * on a paused queue, so no filter runs and the job list is the same on every start. Job ids count
 * from 1 in a fresh spool, so the order below fixes them.
 */

/** One seeded print queue. */
export interface SeedPrinter {
  name: string
  /** The queue's description (`printer-info`). */
  info: string
  location: string
  /** A driver of Debian's `cups` package (`lpinfo -m`): `drv:///sample.drv/...`. */
  ppd: string
  /** Starts paused (`cupsdisable`): its pending jobs stay pending. */
  paused?: boolean
}

/** The six queues, in the order they are created. */
export const PRINTERS: SeedPrinter[] = [
  {
    name: 'office-laser',
    info: 'Office laser, second floor',
    location: 'Room 204',
    ppd: 'drv:///sample.drv/generic.ppd',
  },
  {
    name: 'lobby-color',
    info: 'Lobby colour printer',
    location: 'Front lobby',
    ppd: 'drv:///sample.drv/generic.ppd',
  },
  {
    name: 'finance-mono',
    info: 'Finance mono laser',
    location: 'Finance office',
    ppd: 'drv:///sample.drv/generpcl.ppd',
  },
  {
    name: 'warehouse-labels',
    info: 'Warehouse label printer',
    location: 'Loading dock',
    ppd: 'drv:///sample.drv/dymo.ppd',
  },
  {
    name: 'design-plotter',
    info: 'Design studio large format',
    location: 'Studio 3',
    ppd: 'drv:///sample.drv/generic.ppd',
  },
  {
    name: 'reception-inkjet',
    info: 'Reception inkjet',
    location: 'Reception desk',
    ppd: 'drv:///sample.drv/deskjet.ppd',
    paused: true,
  },
]

/** One seeded job: its fixed id (the order of submission), queue, title, owner, held or not. */
export interface SeedJob {
  id: number
  printer: string
  title: string
  user: string
  /** Held (`lp -H indefinite`); otherwise pending, which only lasts on a paused queue. */
  held: boolean
}

/** The fourteen jobs, in submission order (so `id` is what CUPS gives them). */
export const JOBS: SeedJob[] = [
  { id: 1, printer: 'office-laser', title: 'Quarterly report', user: 'alice', held: true },
  { id: 2, printer: 'office-laser', title: 'Expense claims', user: 'bob', held: true },
  { id: 3, printer: 'office-laser', title: 'Team roster', user: 'carol', held: true },
  { id: 4, printer: 'lobby-color', title: 'Visitor badges', user: 'dave', held: true },
  { id: 5, printer: 'lobby-color', title: 'Event poster', user: 'erin', held: true },
  { id: 6, printer: 'finance-mono', title: 'Invoice batch 17', user: 'frank', held: true },
  { id: 7, printer: 'finance-mono', title: 'Payroll summary', user: 'grace', held: true },
  { id: 8, printer: 'warehouse-labels', title: 'Shipping labels', user: 'heidi', held: true },
  { id: 9, printer: 'reception-inkjet', title: 'Welcome letter', user: 'ivan', held: true },
  { id: 10, printer: 'reception-inkjet', title: 'Visitor map', user: 'judy', held: true },
  { id: 11, printer: 'reception-inkjet', title: 'Fire drill notice', user: 'mallory', held: true },
  { id: 12, printer: 'reception-inkjet', title: 'Parking permits', user: 'niaj', held: false },
  { id: 13, printer: 'reception-inkjet', title: 'Meeting agenda', user: 'olivia', held: false },
  { id: 14, printer: 'reception-inkjet', title: 'Lunch menu', user: 'peggy', held: false },
]

/** The seeded job with `id`. */
export function jobById(id: number): SeedJob {
  const job = JOBS.find((j) => j.id === id)
  if (!job) throw new Error(`no seeded job ${id}`)
  return job
}

/** The directories of one instance, all under its temp dir. */
export interface Dirs {
  root: string
  serverRoot: string
  spool: string
  cache: string
  state: string
  temp: string
  log: string
}

/**
 * `cups-files.conf`: every directory CUPS writes in the instance's temp dir, `file:` device URIs
 * allowed (the queues print to /dev/null), no printcap file (the default is /run/cups/printcap),
 * and `root` as the only system group (nobody authenticates, see NOTES.md). The binaries, drivers,
 * templates and web pages stay Debian's (ServerBin, DataDir and DocumentRoot are not set).
 */
export function cupsFilesConf(d: Dirs): string {
  return [
    `ServerRoot ${d.serverRoot}`,
    `RequestRoot ${d.spool}`,
    `CacheDir ${d.cache}`,
    `StateDir ${d.state}`,
    `TempDir ${d.temp}`,
    `AccessLog ${d.log}/access_log`,
    `ErrorLog ${d.log}/error_log`,
    `PageLog ${d.log}/page_log`,
    'FileDevice Yes',
    'Printcap',
    'SystemGroup root',
    '',
  ].join('\n')
}

/**
 * `cupsd.conf`: one listener on 127.0.0.1, no browsing/sharing (no avahi, no broadcasts), the web
 * interface on, and one policy that lets every local request do every operation without a login
 * (NOTES.md says why: CUPS's Basic auth is PAM against system accounts), with job names and users
 * shown to everyone (the default policy hides other people's job titles).
 */
export function cupsdConf(port: number): string {
  return [
    'LogLevel info',
    `Listen 127.0.0.1:${port}`,
    'Browsing No',
    'WebInterface Yes',
    'DefaultAuthType None',
    'PreserveJobHistory Yes',
    '<Location />',
    '  Order allow,deny',
    '  Allow 127.0.0.1',
    '</Location>',
    '<Policy default>',
    '  JobPrivateAccess all',
    '  JobPrivateValues none',
    '  SubscriptionPrivateAccess all',
    '  SubscriptionPrivateValues none',
    '  <Limit All>',
    '    Order deny,allow',
    '  </Limit>',
    '</Policy>',
    '',
  ].join('\n')
}

/** The one-line text file every seeded job prints. */
export const JOB_TEXT = 'Sitecall CUPS seed job\n'

/**
 * The command lines that create the seed against the server at `host` (`127.0.0.1:PORT`), in
 * order: the queues (enabled and accepting, `-E`), the paused queue paused, then the jobs.
 * `docPath` is the text file each job prints.
 */
export function seedCommands(host: string, docPath: string): Array<[string, string[]]> {
  const h = ['-h', host]
  const out: Array<[string, string[]]> = []
  for (const p of PRINTERS)
    out.push([
      'lpadmin',
      [
        ...h,
        '-p',
        p.name,
        '-E',
        '-v',
        'file:///dev/null',
        '-m',
        p.ppd,
        '-D',
        p.info,
        '-L',
        p.location,
      ],
    ])
  for (const p of PRINTERS.filter((x) => x.paused)) out.push(['cupsdisable', [...h, p.name]])
  for (const j of JOBS)
    out.push([
      'lp',
      [
        ...h,
        '-d',
        j.printer,
        '-U',
        j.user,
        '-t',
        j.title,
        ...(j.held ? ['-H', 'indefinite'] : []),
        docPath,
      ],
    ])
  return out
}
