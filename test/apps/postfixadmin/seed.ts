/**
 * The seed of every PostfixAdmin instance: one superadmin, three domains, mailboxes and aliases
 * with fixed names, created with the package's own CLI (`scripts/postfixadmin-cli.php`), then
 * every created/modified date set to one fixed instant so each start looks the same.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/** The superadmin the workflows sign in as. */
export const ADMIN = { name: 'admin@example.org', password: 'Admin-pass-123' }

/** A seeded domain. */
interface SeedDomain {
  domain: string
  description: string
}

/** A seeded mailbox (PostfixAdmin also makes an alias row `address -> address` for each). */
interface SeedMailbox {
  local: string
  domain: string
  name: string
  /** MB. */
  quota: number
  password: string
}

/** A seeded alias with its targets. */
interface SeedAlias {
  address: string
  goto: string[]
}

const DOMAINS: SeedDomain[] = [
  { domain: 'acme.test', description: 'Acme Corp' },
  { domain: 'example.org', description: 'Example Org' },
  { domain: 'globex.test', description: 'Globex' },
]

const mailbox = (local: string, domain: string, name: string, quota: number): SeedMailbox => ({
  local,
  domain,
  name,
  quota,
  // Two digits: PostfixAdmin's default password rules want at least two.
  password: `${local[0]!.toUpperCase()}${local.slice(1)}-pass-12`,
})

const MAILBOXES: SeedMailbox[] = [
  mailbox('alice', 'example.org', 'Alice Archer', 100),
  mailbox('bob', 'example.org', 'Bob Baker', 200),
  mailbox('carol', 'example.org', 'Carol Cole', 300),
  mailbox('dave', 'example.org', 'Dave Dunn', 400),
  mailbox('erin', 'example.org', 'Erin Ellis', 500),
  mailbox('frank', 'example.org', 'Frank Ford', 250),
  mailbox('grace', 'acme.test', 'Grace Green', 100),
  mailbox('heidi', 'acme.test', 'Heidi Hill', 100),
  mailbox('ivan', 'acme.test', 'Ivan Ito', 100),
  mailbox('judy', 'globex.test', 'Judy Jones', 100),
  mailbox('mallory', 'globex.test', 'Mallory Moss', 100),
  mailbox('oscar', 'globex.test', 'Oscar Olsen', 100),
  mailbox('peggy', 'globex.test', 'Peggy Park', 100),
  mailbox('trent', 'globex.test', 'Trent Tate', 100),
]

const ALIASES: SeedAlias[] = [
  { address: 'info@example.org', goto: ['alice@example.org'] },
  { address: 'sales@example.org', goto: ['bob@example.org', 'carol@example.org'] },
  { address: 'support@example.org', goto: ['dave@example.org'] },
  { address: 'billing@acme.test', goto: ['grace@acme.test'] },
  { address: 'help@acme.test', goto: ['heidi@acme.test'] },
  { address: 'news@globex.test', goto: ['judy@globex.test'] },
]

/** The instant every seeded row is dated (created, modified). */
const SEED_DATE = '2026-01-05 09:00:00'

/**
 * Creates the seed in the instance's SQLite database with `postfixadmin-cli` (one PHP run per
 * record, as an admin would script it). Throws when the CLI does not report success.
 */
export function seedWithCli(php: string, www: string, db: string): void {
  const cli = (args: string[], ok: RegExp) => {
    const out = execFileSync(php, [join(www, 'scripts', 'postfixadmin-cli.php'), ...args], {
      cwd: join(www, 'scripts'),
      encoding: 'utf8',
      timeout: 30_000,
    })
    if (!ok.test(out)) throw new Error(`postfixadmin-cli ${args.slice(0, 3).join(' ')}: ${out}`)
  }
  const pw = (p: string) => ['--password', p, '--password2', p]
  cli(
    ['admin', 'add', ADMIN.name, ...pw(ADMIN.password), '--superadmin', '1', '--active', '1'],
    /has been added/,
  )
  for (const d of DOMAINS) {
    cli(
      [
        'domain',
        'add',
        d.domain,
        '--description',
        d.description,
        '--aliases',
        '0',
        '--mailboxes',
        '0',
        '--maxquota',
        '0',
        '--quota',
        '0',
        '--active',
        '1',
        '--default-aliases',
        '0',
      ],
      /has been added/,
    )
  }
  for (const m of MAILBOXES) {
    cli(
      [
        'mailbox',
        'add',
        `${m.local}@${m.domain}`,
        ...pw(m.password),
        '--name',
        m.name,
        '--quota',
        String(m.quota),
        '--active',
        '1',
        '--welcome-mail',
        '0',
      ],
      /has been (added|created)/,
    )
  }
  for (const a of ALIASES) {
    cli(
      ['alias', 'add', a.address, '--goto', a.goto.join(','), '--active', '1'],
      /has been (added|created)/,
    )
  }
  // Fixed dates (the CLI stamps "now"), and no log rows of the seeding.
  const sql = ['domain', 'mailbox', 'alias', 'admin']
    .map((t) => `UPDATE ${t} SET created='${SEED_DATE}', modified='${SEED_DATE}';`)
    .join(' ')
  execFileSync(
    php,
    [
      '-r',
      `$d = new PDO('sqlite:' . $argv[1]); $d->exec($argv[2]); $d->exec('DELETE FROM log');`,
      '--',
      db,
      sql,
    ],
    { timeout: 30_000 },
  )
}
