/**
 * One node's start for the migration race test: opens a synchronous connection to the database
 * URL in argv[2], says `ready`, waits for `go` on stdin (so all nodes start together), migrates
 * as node argv[3] and prints the versions it applied as JSON. Exit 1 with the error otherwise.
 */
import { createInterface } from 'node:readline'
import { migratePg } from '../../../src/main/store/postgres/migrate'
import { connectSyncPg } from '../../../src/main/store/postgres/pgSync'

const [url, nodeId] = process.argv.slice(2)
const pg = connectSyncPg(url!)
process.stdout.write('ready\n')
const lines = createInterface({ input: process.stdin })
lines.once('line', () => {
  try {
    process.stdout.write(`${JSON.stringify(migratePg(pg, nodeId))}\n`)
    pg.close()
    process.exit(0)
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`)
    process.exit(1)
  }
})
