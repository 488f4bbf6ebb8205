/**
 * Debian's PostgreSQL 15 binaries for the corpus apps that keep their data in PostgreSQL
 * (PostGraphile, Adminer): where they are, whether they can run here, and how to run one. initdb
 * and postgres refuse to run as root, so as root (CI) they run as Debian's `postgres` system user
 * through `setpriv` (which execs, so postgres itself leads its process group), in a temp dir that
 * user owns; as any other user they run as that user.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync } from 'node:fs'
import { join } from 'node:path'

/** Debian's PostgreSQL 15 server binaries (package `postgresql-15`, pulled in by `postgresql`). */
export const PG_BIN = '/usr/lib/postgresql/15/bin'
const SETPRIV = '/usr/bin/setpriv'
/** The system user Debian's package creates; initdb and postgres run as it when we are root. */
const PG_USER = 'postgres'

const isRoot = (): boolean => process.getuid?.() === 0

/** Why PostgreSQL cannot run here (naming the package to install), or null. */
export function postgresUnavailable(): string | null {
  for (const bin of ['initdb', 'postgres', 'pg_isready', 'psql'])
    if (!existsSync(join(PG_BIN, bin)))
      return `PostgreSQL 15 is not installed (${PG_BIN}/${bin}): apt-get install postgresql`
  if (isRoot()) {
    if (!existsSync(SETPRIV)) return 'setpriv is missing: apt-get install util-linux'
    try {
      execFileSync('id', ['-u', PG_USER], { stdio: 'ignore' })
    } catch {
      return `there is no ${PG_USER} user to run PostgreSQL as root: apt-get install postgresql`
    }
  }
  return null
}

/** `[command, args]` that runs a PostgreSQL binary as the postgres user when we are root. */
export function asPgUser(bin: string, args: string[]): [string, string[]] {
  const path = join(PG_BIN, bin)
  if (!isRoot()) return [path, args]
  return [
    SETPRIV,
    [`--reuid=${PG_USER}`, `--regid=${PG_USER}`, '--init-groups', '--', path, ...args],
  ]
}

/** Gives `dir` to the postgres user (as root), so initdb can write the cluster into it. */
export function handToPgUser(dir: string): void {
  if (!isRoot()) return
  const id = (flag: string) => Number(execFileSync('id', [flag, PG_USER], { encoding: 'utf8' }))
  chownSync(dir, id('-u'), id('-g'))
}
