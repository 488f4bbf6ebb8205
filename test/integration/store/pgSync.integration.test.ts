/**
 * The synchronous PostgreSQL connection's round trips (issue 27: round trips per run), on a real
 * PostgreSQL cluster: statements nobody waits for ride with the next one (a transaction's BEGIN
 * and savepoints, deferred writes, prefetched reads), each still its own statement, and a
 * failure among them fails what they rode with (a transaction then lands nothing).
 */
import { setImmediate as nextTask } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectSyncPg, PgError, type SyncPg } from '../../../src/main/store/postgres/pgSync'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

const skip = pgUnavailable()

describe.skipIf(skip !== null)(
  `the synchronous connection${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster
    let pg: SyncPg
    let other: SyncPg

    beforeAll(async () => {
      cluster = await startPgCluster()
      const url = await cluster.createDatabase('sync')
      pg = connectSyncPg(url)
      other = connectSyncPg(url)
      pg.exec('CREATE TABLE items (id TEXT PRIMARY KEY, n INTEGER NOT NULL)')
    }, 120_000)

    afterAll(async () => {
      pg?.close()
      other?.close()
      await cluster?.close()
    })

    /** Round trips and statements `fn` took. */
    const counted = (fn: () => void) => {
      const trips = pg.roundTrips
      const statements = pg.statements
      fn()
      return { trips: pg.roundTrips - trips, statements: pg.statements - statements }
    }
    const count = (id: string) =>
      other.one<{ n: number }>('SELECT n FROM items WHERE id = $1', [id])?.n ?? null

    it("sends a transaction's BEGIN with its first statement, and nothing for an empty one", () => {
      expect(
        counted(() =>
          pg.transaction(() => {
            pg.query('INSERT INTO items (id, n) VALUES ($1, 1)', ['a'])
            pg.query('UPDATE items SET n = n + 1 WHERE id = $1', ['a'])
          }),
        ),
      ).toEqual({ trips: 3, statements: 4 })
      expect(count('a')).toBe(2)
      expect(counted(() => pg.transaction(() => undefined))).toEqual({ trips: 0, statements: 0 })
      // A transaction that throws before sending anything rolls back nothing over the wire.
      expect(
        counted(() =>
          expect(() =>
            pg.transaction(() => {
              throw new Error('before any statement')
            }),
          ).toThrow('before any statement'),
        ),
      ).toEqual({ trips: 0, statements: 0 })
    })

    it('sends deferred writes with the COMMIT, and a failing one rolls the transaction back', () => {
      expect(
        counted(() =>
          pg.transaction(() => {
            pg.query('INSERT INTO items (id, n) VALUES ($1, 1)', ['b'])
            pg.defer('UPDATE items SET n = n + 10 WHERE id = $1', ['b'])
            pg.defer('INSERT INTO items (id, n) VALUES ($1, 5)', ['c'])
          }),
        ),
      ).toEqual({ trips: 2, statements: 5 })
      expect([count('b'), count('c')]).toEqual([11, 5])
      let thrown: unknown
      try {
        pg.transaction(() => {
          pg.query('UPDATE items SET n = 100 WHERE id = $1', ['b'])
          // Taken already: fails at the COMMIT it rides with.
          pg.defer('INSERT INTO items (id, n) VALUES ($1, 1)', ['c'])
        })
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(PgError)
      expect((thrown as PgError).code).toBe('23505')
      expect(count('b')).toBe(11)
      expect(pg.inTransaction).toBe(false)
      // The connection goes on.
      expect(pg.one<{ n: number }>('SELECT n FROM items WHERE id = $1', ['c'])?.n).toBe(5)
    })

    it('runs a deferred write at once outside a transaction', () => {
      expect(counted(() => pg.defer('INSERT INTO items (id, n) VALUES ($1, 7)', ['d']))).toEqual({
        trips: 1,
        statements: 1,
      })
      expect(count('d')).toBe(7)
    })

    it('rolls back a savepoint whose function threw, and commits the rest', () => {
      pg.transaction(() => {
        pg.query('UPDATE items SET n = 20 WHERE id = $1', ['d'])
        expect(() =>
          pg.transaction(() => {
            pg.query('UPDATE items SET n = 30 WHERE id = $1', ['d'])
            throw new Error('inner')
          }),
        ).toThrow('inner')
        // A statement refused inside a savepoint leaves the transaction usable.
        expect(() =>
          pg.transaction(() => pg.query('INSERT INTO items (id, n) VALUES ($1, 1)', ['d'])),
        ).toThrow(PgError)
        pg.query('UPDATE items SET n = n + 1 WHERE id = $1', ['d'])
      })
      expect(count('d')).toBe(21)
    })

    it('answers a prefetched read from the round trip it rode with, once, within the task', async () => {
      const read = 'SELECT n FROM items WHERE id = $1'
      const spent = counted(() => {
        pg.prefetch(read, ['a'])
        pg.prefetch(read, ['b'])
        expect(pg.one<{ n: number }>(read, ['d'])?.n).toBe(21)
        expect(pg.one<{ n: number }>(read, ['a'])?.n).toBe(2)
        expect(pg.one<{ n: number }>(read, ['b'])?.n).toBe(11)
      })
      expect(spent).toEqual({ trips: 1, statements: 3 })
      // Asked again: read again.
      expect(counted(() => pg.one(read, ['a']))).toEqual({ trips: 1, statements: 1 })
      // A prefetch asked for before anything else is sent goes out then, alone.
      expect(
        counted(() => {
          pg.prefetch(read, ['c'])
          expect(pg.one<{ n: number }>(read, ['c'])?.n).toBe(5)
        }),
      ).toEqual({ trips: 1, statements: 1 })
      // Kept no longer than the task: a later read sees what changed since.
      pg.prefetch(read, ['a'])
      pg.query('SELECT 1')
      other.query('UPDATE items SET n = 3 WHERE id = $1', ['a'])
      await nextTask()
      expect(pg.one<{ n: number }>(read, ['a'])?.n).toBe(3)
      // One never sent is dropped with the task too.
      pg.prefetch(read, ['b'])
      await nextTask()
      expect(counted(() => pg.query('SELECT 1'))).toEqual({ trips: 1, statements: 1 })
    })

    it('tells watchers each statement it sends, in order', () => {
      const seen: string[] = []
      const stop = pg.watch((sql) => seen.push(sql))
      pg.transaction(() => {
        pg.defer('UPDATE items SET n = n WHERE id = $1', ['a'])
        pg.query('SELECT 1')
      })
      stop()
      pg.query('SELECT 2')
      expect(seen).toEqual(['BEGIN', 'UPDATE items SET n = n WHERE id = $1', 'SELECT 1', 'COMMIT'])
    })
  },
)
