/**
 * The deterministic seed of the Gitit instance: a git repository of Markdown pages (`<Title>.page`
 * files) committed by `git` before Gitit starts, with fixed authors and dates, some pages in
 * several revisions (their history, diffs and reverts are workflows), one uploaded image; and
 * Gitit's user file holding the seeded users (the same line Gitit's register form writes: a
 * salt and the SHA-512 of salt + password, in Haskell's `show` syntax).
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** The user every workflow signs in as. */
export const EDITOR = { name: 'mara', email: 'mara@example.org', password: 'Sitecall-Wiki-2026' }

/** Another registered user, the author of some seeded revisions. */
const OTHER = { name: 'dana', email: 'dana@example.org', password: 'Dana-Wiki-2026' }

/** The access question the register form asks (config `access-question`). */
export const ACCESS = {
  question: 'What is the name of our team mascot?',
  answers: ['otter', 'Otter'],
}

/**
 * The pages, each a list of revisions ([author, log message, text]) committed oldest first. The
 * last revision is what the page says now.
 */
export const PAGES: Record<string, Array<[string, string, string]>> = {
  Onboarding: [
    [
      'dana',
      'First onboarding notes',
      '# Onboarding\n\nWelcome to the team! Get a laptop from IT on day one.\n',
    ],
    [
      'mara',
      'Badge and accounts',
      '# Onboarding\n\nWelcome to the team! Get a laptop from IT on day one.\n\n' +
        'Ask reception for a building badge. Your accounts are set up by Ravi.\n',
    ],
  ],
  'Release Checklist': [
    [
      'mara',
      'Release checklist draft',
      '# Release Checklist\n\n1. Tag the release.\n2. Build the packages.\n',
    ],
    [
      'dana',
      'Add changelog step',
      '# Release Checklist\n\n1. Update the changelog.\n2. Tag the release.\n3. Build the packages.\n',
    ],
    [
      'mara',
      'Announce releases on the mailing list',
      '# Release Checklist\n\n1. Update the changelog.\n2. Tag the release.\n3. Build the packages.\n' +
        '4. Announce the release on the announce list.\n',
    ],
  ],
  'Meeting Notes': [
    ['dana', 'Notes of the kickoff', '# Meeting Notes\n\nKickoff on Monday: scope agreed.\n'],
    [
      'mara',
      'Notes of the planning meeting',
      '# Meeting Notes\n\nKickoff on Monday: scope agreed.\n\nPlanning on Wednesday: two sprints.\n',
    ],
    [
      'dana',
      'Notes of the retro',
      '# Meeting Notes\n\nKickoff on Monday: scope agreed.\n\nPlanning on Wednesday: two sprints.\n\n' +
        'Retro on Friday: fewer meetings please.\n',
    ],
  ],
  'Holiday Calendar': [
    [
      'mara',
      'Holiday calendar',
      '# Holiday Calendar\n\nThe office is closed from 24 December to 1 January.\n',
    ],
    [
      'dana',
      'Easter closing',
      '# Holiday Calendar\n\nThe office is closed from 24 December to 1 January.\n\n' +
        'It is also closed on Easter Monday.\n',
    ],
  ],
  'Team Contacts': [
    [
      'mara',
      'Team phone list',
      '# Team Contacts\n\n- Mara: extension 201\n- Dana: extension 202\n- Ravi: extension 203\n',
    ],
    ['dana', 'tidy up', '# Team Contacts\n\nAsk Dana.\n'],
  ],
  'Coffee Machine': [
    [
      'dana',
      'Coffee machine page',
      '# Coffee Machine\n\nThe coffee machine is broken. A technician is coming.\n',
    ],
  ],
  'VPN Setup': [
    [
      'mara',
      'VPN how-to',
      '# VPN Setup\n\nInstall the VPN client and import the profile from IT.\n',
    ],
  ],
  'Lunch Options': [
    [
      'dana',
      'Lunch places',
      '# Lunch Options\n\nThe canteen opens at noon. The pizza place is across the street.\n',
    ],
  ],
  'Backup Policy': [
    [
      'mara',
      'Backup policy',
      '# Backup Policy\n\nEvery laptop is backed up nightly. Keep a backup of the build keys offline.\n',
    ],
  ],
  'Build Server': [
    [
      'dana',
      'Build server notes',
      '# Build Server\n\nThe build server runs the nightly backup job at 2 am.\n',
    ],
  ],
  'Old Roadmap': [
    ['mara', 'Roadmap for 2024', '# Old Roadmap\n\nThe plan for 2024: ship version 2.\n'],
  ],
  'Retired Printers': [
    [
      'dana',
      'Printers we no longer have',
      '# Retired Printers\n\nThe old laser printer on floor 3.\n',
    ],
  ],
  'Spring Party 2025': [
    [
      'dana',
      'Spring party',
      '# Spring Party 2025\n\nThe spring party is on 12 April in the garden.\n',
    ],
  ],
}

/** The wiki's front page. */
const FRONT_PAGE =
  '# Team Wiki\n\nWelcome to the team wiki. New here? Read [Onboarding]() first.\n\n' +
  '- [Release Checklist]()\n- [Meeting Notes]()\n- [Team Contacts]()\n'

/** A tiny PNG (1x1, grey): the seeded upload `team-logo.png`. */
const SEEDED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==',
  'base64',
)

/** The image the person uploads in the upload workflow (2x1 PNG). */
export const FLOOR_PLAN_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDwHwAP/gH/sVSfbwAAAABJRU5ErkJggg==',
  'base64',
)

/** The other image the HAR's tool is called with (no bytes in a plain HAR): 1x2 PNG. */
export const OTHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAACCAIAAAAW4yFwAAAAEklEQVR4nGNgYPj/n4GB4T8DAxv+A/0pWr5QAAAAAElFTkSuQmCC',
  'base64',
)

/** The file name of page `title` in the repository. */
export function pageFile(title: string): string {
  return `${title}.page`
}

/** One line of Gitit's user file for `user`, with a fixed salt. */
function userEntry(user: { name: string; email: string; password: string }): string {
  const salt = `sitecallsalt${user.name}`
  const hashed = createHash('sha512')
    .update(salt + user.password)
    .digest('hex')
  return (
    `("${user.name}",User {uUsername = "${user.name}", uPassword = Password ` +
    `{pSalt = "${salt}", pHashed = "${hashed}"}, uEmail = "${user.email}"})`
  )
}

/** Gitit's user file (`user-file`) with both seeded users. */
export function usersFile(): string {
  return `[${[EDITOR, OTHER].map(userEntry).join('\n,')}\n]\n`
}

/**
 * Creates the git repository `repo` and commits the seed into it: the pages' revisions in turn,
 * a day apart, then the seeded image.
 */
export async function seedRepository(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true })
  const run = promisify(execFile)
  const git = (args: string[], env: Record<string, string> = {}) =>
    run('/usr/bin/git', args, {
      cwd: repo,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo, ...env },
    })
  await git(['init', '-q', '-b', 'master'])
  let day = 1
  const commit = async (author: string, message: string, files: string[]) => {
    const date = `2026-10-${String(day++).padStart(2, '0')}T09:00:00Z`
    await git(['add', '--', ...files])
    await git(['commit', '-q', '-m', message], {
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: `${author}@example.org`,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: author,
      GIT_COMMITTER_EMAIL: `${author}@example.org`,
      GIT_COMMITTER_DATE: date,
    })
  }
  // The front page (Gitit only writes its own when it creates the repository) and Gitit's help.
  writeFileSync(join(repo, pageFile('Front Page')), FRONT_PAGE)
  const help = '/usr/share/gitit/data/Help.page'
  writeFileSync(join(repo, pageFile('Help')), existsSync(help) ? readFileSync(help) : '# Help\n')
  await commit('mara', 'Front page and help', [pageFile('Front Page'), pageFile('Help')])
  // Round by round: every page's first revision, then every second one, ...
  const rounds = Math.max(...Object.values(PAGES).map((r) => r.length))
  for (let round = 0; round < rounds; round++)
    for (const [title, revisions] of Object.entries(PAGES)) {
      const rev = revisions[round]
      if (!rev) continue
      writeFileSync(join(repo, pageFile(title)), rev[2])
      await commit(rev[0], rev[1], [pageFile(title)])
    }
  writeFileSync(join(repo, 'team-logo.png'), SEEDED_PNG)
  await commit('mara', 'Team logo', ['team-logo.png'])
}
