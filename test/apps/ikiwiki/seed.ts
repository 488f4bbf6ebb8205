/**
 * The deterministic content of every ikiwiki instance: its setup file (git as the RCS, so recent
 * changes work; passwordauth, editpage, rename, remove, attachment), a git history of seeded pages
 * committed at fixed dates by fixed authors, and two users with fixed passwords. The same page
 * names, texts and commit messages on every start, so stored traces stay valid.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** A seeded account of passwordauth. */
export interface SeedUser {
  name: string
  password: string
  email: string
}

/** The user the workflows sign in as. */
export const MAIN_USER: SeedUser = {
  name: 'alice',
  password: 'Sitecall-Iki-2026',
  email: 'alice@example.com',
}

/** A second user, so the wiki has more than one account. */
export const OTHER_USER: SeedUser = {
  name: 'bob',
  password: 'bob-Ikiwiki-1999',
  email: 'bob@example.com',
}

/** The wiki's name: the header's first link, and part of the session cookie's name. */
const WIKI_NAME = 'TeamWiki'
/** The session cookie ikiwiki sets (`ikiwiki_session_<wikiname>`). */
export const SESSION_COOKIE = `ikiwiki_session_${WIKI_NAME}`
/** Where the CGI answers, under the origin. */
export const CGI_PATH = '/ikiwiki.cgi'

/** The PDF a person attaches in the upload workflow (a tiny valid one-page PDF). */
export const PDF_BYTES = new TextEncoder().encode(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
)

/** One seeded commit: its files (path under srcdir, text), author, date and message. */
interface SeedCommit {
  files: Record<string, string>
  author: string
  date: string
  message: string
}

/** The seeded history, oldest first: what recent changes lists, newest first. */
const COMMITS: SeedCommit[] = [
  {
    author: 'alice',
    date: '2026-11-02T09:00:00Z',
    message: 'Start the team wiki',
    files: {
      'index.mdwn': [
        'Welcome to the team wiki.',
        '',
        '## Everyday',
        '',
        '* [[Team status|team_status]]',
        '* [[Meeting notes|notes]]',
        '* [[Onboarding]]',
        '* [[Meetings]]',
        '',
        '## Reference',
        '',
        '* [[Vendor contacts|vendor_contacts]]',
        '* [[Wifi setup|wifi_setup]]',
        '* [[Holiday calendar|holiday_calendar]]',
        '',
        '## Drafts',
        '',
        '* [[Budget draft|drafts/budget_draft]]',
        '* [[Offsite draft|drafts/offsite_draft]]',
        '* [[Roadmap draft|drafts/roadmap_draft]]',
        '',
        '## Archive',
        '',
        '* [[2024 retro|archive/2024_retro]]',
        '* [[2025 Q3 plan|archive/2025_q3_plan]]',
        '* [[2025 Q4 plan|archive/2025_q4_plan]]',
        '',
      ].join('\n'),
      'team_status.mdwn': 'Status: green\n',
      'onboarding.mdwn': 'First day: pick up your laptop at the front desk and meet your buddy.\n',
      'meetings.mdwn': 'Meeting minutes are attached to this page.\n',
      'notes.mdwn': [
        'Meeting notes of the team, newest first.',
        '',
        '[[!inline pages="notes/* and !*/Discussion" postform=yes rootpage="notes" show=10]]',
        '',
      ].join('\n'),
      'notes/kickoff.mdwn': 'Kickoff of the winter projects: everyone picks one project.\n',
    },
  },
  {
    author: 'bob',
    date: '2026-11-05T14:30:00Z',
    message: 'Add the reference pages',
    files: {
      'vendor_contacts.mdwn': 'Office supplies: Paperline Ltd, call 555-0142 for orders.\n',
      'wifi_setup.mdwn': 'The guest network is TeamGuest; its password changes every Monday.\n',
      'holiday_calendar.mdwn': 'The office is closed from 24 December to 2 January.\n',
    },
  },
  {
    author: 'alice',
    date: '2026-11-10T11:15:00Z',
    message: 'Draft budget, offsite and roadmap',
    files: {
      'drafts/budget_draft.mdwn': 'Budget 2027: travel stays flat, tools grow by ten percent.\n',
      'drafts/offsite_draft.mdwn': 'Offsite in March, two days, somewhere reachable by train.\n',
      'drafts/roadmap_draft.mdwn': 'Roadmap: search in Q1, mobile app in Q2.\n',
    },
  },
  {
    author: 'bob',
    date: '2026-11-16T16:45:00Z',
    message: 'Archive the old plans',
    files: {
      'archive/2024_retro.mdwn': 'Retro 2024: fewer meetings, more written updates.\n',
      'archive/2025_q3_plan.mdwn': 'Plan for Q3 2025: finish the data migration.\n',
      'archive/2025_q4_plan.mdwn': 'Plan for Q4 2025: move the office.\n',
    },
  },
]

/** The commit messages of the seed, newest first (recent changes shows them). */
export const SEED_MESSAGES = COMMITS.map((c) => c.message).reverse()

/**
 * The setup file (YAML, as `ikiwiki --dumpsetup` writes it) of an instance in `dir` served at
 * `origin`. Git is the RCS, with no origin to push to: the srcdir itself is the repository.
 */
export function setupFile(dir: string, origin: string): string {
  return [
    '# IkiWiki::Setup::Yaml - YAML formatted setup file',
    `wikiname: ${WIKI_NAME}`,
    'adminuser: []',
    `srcdir: ${join(dir, 'src')}`,
    `destdir: ${join(dir, 'www')}`,
    `url: ${origin}`,
    `cgiurl: ${origin}${CGI_PATH}`,
    `cgi_wrapper: ${join(dir, 'www', 'ikiwiki.cgi')}`,
    // Not setuid: the CGI runs as the user that started the instance, who owns the dirs.
    "cgi_wrappermode: '0755'",
    'rcs: git',
    "gitorigin_branch: ''",
    'add_plugins: [remove, rename, attachment, goto]',
    // openid needs Net::OpenID (not installed); comments are not part of the workflows.
    'disable_plugins: [openid, comments]',
    'usedirs: 1',
    'discussion: 0',
    'timezone: UTC',
    "timeformat: '%Y-%m-%d %H:%M'",
    'deterministic: 1',
    'recentchangesnum: 100',
    '',
  ].join('\n')
}

/** Writes the seeded pages into `srcdir` and commits them as the seeded history. */
export function writeHistory(srcdir: string): void {
  mkdirSync(srcdir, { recursive: true })
  const git = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    execFileSync('git', args, {
      cwd: srcdir,
      env: { ...process.env, ...env },
      stdio: 'ignore',
      timeout: 30_000,
    })
  git(['init', '-q', '-b', 'master'])
  // The CGI commits a web edit with `--author "<user> <user@web>"`; the committer is this one.
  git(['config', 'user.name', 'Team Wiki'])
  git(['config', 'user.email', 'wiki@example.com'])
  for (const commit of COMMITS) {
    for (const [path, text] of Object.entries(commit.files)) {
      mkdirSync(dirname(join(srcdir, path)), { recursive: true })
      writeFileSync(join(srcdir, path), text)
    }
    git(['add', '-A'])
    const who = `${commit.author} <${commit.author}@example.com>`
    git(['commit', '-q', '--author', who, '-m', commit.message], {
      GIT_AUTHOR_DATE: commit.date,
      GIT_COMMITTER_DATE: commit.date,
    })
  }
}

/**
 * A Perl script that adds passwordauth users to the wiki of a setup file (ikiwiki has no command
 * for it): `perl adduser.pl <setup> <name> <password> <email>`. Without Authen::Passphrase
 * (not installed) passwordauth keeps the password as given.
 */
export const ADD_USER_SCRIPT = [
  'use IkiWiki; use IkiWiki::Setup; use IkiWiki::UserInfo;',
  '%config = IkiWiki::defaultconfig();',
  'IkiWiki::Setup::load($ARGV[0]);',
  'IkiWiki::loadplugins(); IkiWiki::checkconfig();',
  // A fixed registration date (2026-11-01 UTC), so every start holds the same user records.
  'IkiWiki::userinfo_setall($ARGV[1], { email => $ARGV[3], password => "", regdate => 1793491200 })',
  '  or die "adding $ARGV[1] failed";',
  'IkiWiki::Plugin::passwordauth::setpassword($ARGV[1], $ARGV[2]);',
  '',
].join('\n')
