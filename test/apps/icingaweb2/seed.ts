/**
 * The deterministic seed of Icinga Web 2: users and groups in its own database tables (the `db`
 * authentication and group backends both read `icingaweb_user`, `icingaweb_group` and
 * `icingaweb_group_membership`), and the roles in `roles.ini`. Passwords are hashed by PHP's own
 * `password_hash` (what Icinga Web's `DbUserBackend` checks with `password_verify`), once per
 * start.
 */
import { execFileSync } from 'node:child_process'

/** The admin every workflow signs in as (role Administrators, permission `*`). */
export const ADMIN = { name: 'icingaadmin', password: 'Sitecall-Icinga-2026' }

/** The password of every other seeded user. */
const USER_PASSWORD = 'Sitecall-Pass-2026'

/** Users besides the admin, in the `db` backend named `icingaweb2`. */
const USERS = [
  'alice.martin',
  'alina.popescu',
  'bruno.keller',
  'chloe.dubois',
  'david.novak',
  'erin.walsh',
  'frank.ortiz',
  'greta.berg',
  'hugo.lind',
]

/** Groups of the `db` group backend and their members. */
const GROUPS: Array<[string, string[]]> = [
  ['Administrators', [ADMIN.name]],
  ['Operators', ['alice.martin', 'chloe.dubois']],
  ['Support', ['david.novak']],
  ['Auditors', []],
]

/** The name of the user and group backend (a section of authentication.ini and groups.ini). */
export const BACKEND = 'icingaweb2'

/** A SQL string literal. */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}

/** PHP's `password_hash($password, PASSWORD_DEFAULT)` (bcrypt), made by `php`. */
function phpHash(php: string, password: string): string {
  return execFileSync(php, ['-r', 'echo password_hash($argv[1], PASSWORD_DEFAULT);', password], {
    encoding: 'utf8',
  })
}

/** The SQL that fills the freshly made schema with the seed's users, groups and memberships. */
export function seedSql(php: string): string {
  const adminHash = phpHash(php, ADMIN.password)
  const userHash = phpHash(php, USER_PASSWORD)
  const lines: string[] = []
  for (const [name, hash] of [[ADMIN.name, adminHash], ...USERS.map((u) => [u, userHash])] as Array<
    [string, string]
  >)
    lines.push(
      'insert into icingaweb_user (name, active, password_hash, ctime) values ' +
        `(${literal(name)}, 1, convert_to(${literal(hash)}, 'UTF8'), now());`,
    )
  for (const [group, members] of GROUPS) {
    lines.push(`insert into icingaweb_group (name, ctime) values (${literal(group)}, now());`)
    for (const member of members)
      lines.push(
        'insert into icingaweb_group_membership (group_id, username, ctime) select id, ' +
          `${literal(member)}, now() from icingaweb_group where name = ${literal(group)};`,
      )
  }
  return lines.join('\n') + '\n'
}

/** `roles.ini`: the admin's role with every permission, and one read-only role. */
export const ROLES_INI = `[Administrators]
users = "${ADMIN.name}"
groups = "Administrators"
permissions = "*"

[Viewers]
groups = "Operators"
permissions = "module/monitoring"
`
