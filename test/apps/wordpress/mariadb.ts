/** A private MariaDB for one WordPress: data dir and socket in a temp dir, no TCP at all. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { run, spawnServer, waitFor, type ServerProcess } from './proc'

/** The database WordPress uses, and its account (the socket is private to the instance). */
export const DB = { name: 'wordpress', user: 'wordpress', password: 'wordpress' }

/** Creates an empty data dir (system tables only) in `datadir`. */
export async function initDataDir(datadir: string): Promise<void> {
  await run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${datadir}`,
    '--auth-root-authentication-method=normal',
    '--user=root',
    '--skip-test-db',
  ])
}

/** Starts mariadbd on `datadir`, listening on `socket` only; resolves once the socket exists. */
export async function startMariaDb(datadir: string, socket: string): Promise<ServerProcess> {
  const server = spawnServer('mariadbd', [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--socket=${socket}`,
    '--skip-networking',
    `--pid-file=${socket}.pid`,
    '--user=root',
    // Small redo log and pool: several instances share a small machine.
    '--innodb-log-file-size=8M',
    '--innodb-buffer-pool-size=32M',
    '--skip-log-bin',
  ])
  await waitFor('mariadbd', server, async () => existsSync(socket), 60_000)
  return server
}

/** Creates WordPress's database and account, as root over the socket. */
export async function createDatabase(socket: string): Promise<void> {
  await run('mariadb', [
    '--no-defaults',
    `--socket=${socket}`,
    '-uroot',
    '-e',
    `CREATE DATABASE ${DB.name}; CREATE USER '${DB.user}'@'localhost' IDENTIFIED BY '${DB.password}';` +
      ` GRANT ALL ON ${DB.name}.* TO '${DB.user}'@'localhost';`,
  ])
}

/** The data dir under an instance or template dir. */
export const dataDirOf = (dir: string) => join(dir, 'db')
