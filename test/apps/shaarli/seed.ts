/**
 * The deterministic content of every Shaarli instance: a config that skips the install page (a
 * fixed login, salt and password hash, a fixed API secret and timezone), and 20 bookmarks with
 * fixed ids, dates, titles, URLs, tags and descriptions, written as Shaarli's own datastore by
 * `seed.php`. Every start looks the same, short hashes included (Shaarli derives them from the
 * creation date and the id).
 */
import { createHash } from 'node:crypto'

/** The one user a Shaarli has (it is single-user). */
export const USER = { name: 'ada', password: 'Sitecall-Shaarli-2026' }

/** Fixed salt: Shaarli keeps `sha1(password + login + salt)` as the password hash. */
const SALT = '5e1fc0de0b17a5a1d5ea5a1ce0ffee5717c4ca11'

/** The REST API's HS512 JWT secret (`api.secret`); the web UI never calls the API. */
export const API_SECRET = 'c0ffee5a17ba5e5ec12e7'

/** The title shown in the header and in every page's <title> (the Configure page changes it). */
const TITLE = 'Ada Links'
/** The instance's timezone; seeded dates are wall-clock times in it. */
export const TIMEZONE = 'Europe/Paris'

/** A seeded bookmark; `created` is local time in {@link TIMEZONE}, `YYYY-MM-DD HH:MM:SS`. */
export interface SeedBookmark {
  id: number
  created: string
  title: string
  url: string
  description: string
  tags: string[]
  private: boolean
}

const b = (
  id: number,
  created: string,
  title: string,
  url: string,
  tags: string,
  description: string,
  isPrivate = false,
): SeedBookmark => ({
  id,
  created,
  title,
  url,
  description,
  tags: tags.split(' '),
  private: isPrivate,
})

/**
 * The bookmarks, oldest first (Shaarli lists newest first). Groups, so workflows never touch each
 * other's records on one instance: 1–5 read (search, tag filter), 6–8 retitled, 9–11 carry the
 * tags renamed, 12–14 retagged, 15–17 deleted, 18–20 private (only a signed-in search sees them).
 */
export const BOOKMARKS: SeedBookmark[] = [
  b(
    1,
    '2026-09-01 08:40:00',
    'PostgreSQL 16 Documentation',
    'https://www.postgresql.org/docs/16/index.html',
    'database sql',
    'The official manual: SQL commands, indexes and tuning.',
  ),
  b(
    2,
    '2026-09-04 19:05:00',
    'Sourdough starter guide',
    'https://www.kingarthurbaking.com/recipes/sourdough-starter-recipe',
    'recipes baking',
    'Feed the starter twice a day; it is ready in about a week.',
  ),
  b(
    3,
    '2026-09-09 11:20:00',
    'Kubernetes Documentation',
    'https://kubernetes.io/docs/home/',
    'ops containers',
    'Concepts, tasks and the kubectl reference.',
  ),
  b(
    4,
    '2026-09-13 21:45:00',
    'Interrail pass planner',
    'https://www.interrail.eu/en/plan-your-trip',
    'travel trains',
    'Routes and seat reservations for the summer trip.',
  ),
  b(
    5,
    '2026-09-18 10:10:00',
    'Python Packaging User Guide',
    'https://packaging.python.org/en/latest/',
    'python packaging',
    'pyproject.toml, wheels and publishing to PyPI.',
  ),
  b(
    6,
    '2026-09-22 14:30:00',
    'Rust by Example',
    'https://doc.rust-lang.org/rust-by-example/',
    'rust learning',
    'Runnable examples of the language and its standard library.',
  ),
  b(
    7,
    '2026-09-26 09:00:00',
    'Vim Cheat Sheet',
    'https://vim.rtorr.com/',
    'editor vim',
    'Motions, registers and macros on one page.',
  ),
  b(
    8,
    '2026-09-30 16:25:00',
    'regex101',
    'https://regex101.com/',
    'tools regex',
    'Test regular expressions with an explanation of each token.',
  ),
  b(
    9,
    '2026-10-05 13:15:00',
    'MDN Web Docs: JavaScript',
    'https://developer.mozilla.org/en-US/docs/Web/JavaScript',
    'js web',
    'Language reference and guides.',
  ),
  b(
    10,
    '2026-10-09 18:50:00',
    'A Tour of Go',
    'https://go.dev/tour/',
    'golang learning',
    'The interactive introduction to Go.',
  ),
  b(
    11,
    '2026-10-14 08:05:00',
    'Scikit-learn user guide',
    'https://scikit-learn.org/stable/user_guide.html',
    'ml python',
    'Supervised and unsupervised learning, model selection.',
  ),
  b(
    12,
    '2026-10-18 22:10:00',
    'Hacker News',
    'https://news.ycombinator.com/',
    'news tech',
    'Links and discussions, mostly about software and startups.',
  ),
  b(
    13,
    '2026-10-23 07:35:00',
    'Lobsters',
    'https://lobste.rs/',
    'news programming',
    'A computing-focused link aggregator.',
  ),
  b(
    14,
    '2026-10-27 12:40:00',
    'LWN.net',
    'https://lwn.net/',
    'news linux',
    'Weekly news about Linux and free software.',
  ),
  b(
    15,
    '2026-11-01 10:00:00',
    'Old company wiki',
    'http://wiki.intranet.example.com/',
    'archive',
    'The wiki before the move to the new intranet.',
  ),
  b(
    16,
    '2026-11-04 15:20:00',
    'GeoCities archive',
    'https://geocities.restorativland.org/',
    'archive',
    'Browsable copies of GeoCities neighbourhoods.',
  ),
  b(
    17,
    '2026-11-08 17:45:00',
    'Flash games archive',
    'https://flashpointarchive.org/',
    'archive games',
    'Preserved Flash games and animations.',
  ),
  b(
    18,
    '2026-11-12 09:30:00',
    'Invoice template for freelance work',
    'https://templates.example.org/invoice-freelance',
    'finance work',
    'The invoice layout with VAT number and payment terms.',
    true,
  ),
  b(
    19,
    '2026-11-16 20:15:00',
    'Mortgage calculator',
    'https://calculators.example.org/mortgage',
    'finance home',
    'Monthly payment for a fixed-rate loan.',
    true,
  ),
  b(
    20,
    '2026-11-20 11:55:00',
    'Payslip folder',
    'https://drive.example.org/payslips',
    'finance',
    'Scans of every payslip since 2024.',
    true,
  ),
]

/** The seeded bookmark with this title (throws on a title not seeded: a typo in a key). */
export function bookmarkTitled(title: string): SeedBookmark {
  const found = BOOKMARKS.find((x) => x.title === title)
  if (!found) throw new Error(`no seeded bookmark is titled ${title}`)
  return found
}

/** Every update method of Shaarli 0.12.1's Updater, marked done so none runs on a login. */
const DONE_UPDATES = ['updateMethodRelativeHomeLink', 'updateMethodMigrateExistingNotesUrl']

/** The absolute paths of an instance's data (all in its temp dir). */
export interface DataPaths {
  data: string
  cache: string
  pagecache: string
  tmp: string
}

/**
 * The text of `data/config.json.php` (Shaarli's JSON config behind a PHP comment). Its presence
 * is what skips the install page. Every resource path points into the instance's temp dir, which
 * overrides Debian's defaults under /var/lib/shaarli and /var/cache/shaarli.
 */
export function configFile(paths: DataPaths): string {
  const config = {
    credentials: {
      login: USER.name,
      salt: SALT,
      hash: createHash('sha1')
        .update(USER.password + USER.name + SALT)
        .digest('hex'),
    },
    general: {
      title: TITLE,
      timezone: TIMEZONE,
      header_link: '/',
      // Room for the seed and what the workflows add, so every row is on the first page.
      links_per_page: 50,
      enabled_plugins: [],
      // Offline: the shaare form never fetches the page it bookmarks (see server.ts).
      enable_async_metadata: false,
      retrieve_description: false,
      tags_separator: ' ',
      default_note_title: 'Note: ',
    },
    resource: {
      data_dir: paths.data,
      config: `${paths.data}/config.php`,
      datastore: `${paths.data}/datastore.php`,
      ban_file: `${paths.data}/ipbans.php`,
      updates: `${paths.data}/updates.txt`,
      log: `${paths.data}/log.txt`,
      update_check: `${paths.data}/lastupdatecheck.txt`,
      history: `${paths.data}/history.php`,
      raintpl_tpl: 'tpl/',
      theme: 'default',
      raintpl_tmp: `${paths.tmp}/`,
      thumbnails_cache: paths.cache,
      page_cache: paths.pagecache,
    },
    security: {
      ban_after: 4,
      ban_duration: 1800,
      session_protection_disabled: false,
      open_shaarli: false,
      allowed_protocols: ['ftp', 'ftps', 'magnet'],
    },
    updates: {
      check_updates: false,
      check_updates_branch: 'latest',
      check_updates_interval: 86400,
    },
    feed: { rss_permalinks: true, show_atom: true },
    privacy: {
      default_private_links: false,
      hide_public_links: false,
      force_login: false,
      hide_timestamps: false,
      remember_user_default: true,
    },
    thumbnails: { mode: 'none', width: '125', height: '90' },
    translation: { language: 'en', mode: 'php', extensions: [] },
    plugins: {},
    formatter: 'markdown',
    api: { enabled: true, secret: API_SECRET },
  }
  return `<?php /*\n${JSON.stringify(config, null, 4)}\n*/ ?>`
}

/** The text of `data/updates.txt`: every update already done. */
export function updatesFile(): string {
  return DONE_UPDATES.join(';')
}
