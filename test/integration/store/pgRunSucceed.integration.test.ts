/**
 * `RunRepository.succeed` on PostgreSQL (issue 27: round trips per run): a working run's success,
 * its credit and its tool's health in one statement, on a real PostgreSQL cluster. It must do
 * what `settle`'s transaction does (transition, balance check, `chargeRun`, `recordSuccess`):
 * bill only what the balance covers, and move, charge and record nothing when a cancel won.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FREE_GRANT_CREDITS } from '../../../src/main/store/ledgerRepository'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import type { NewRun, RunPatch } from '../../../src/main/store/runRepository'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { pgUnavailable, startPgCluster, type PgCluster } from './pgCluster'

const skip = pgUnavailable()

const working = (runId: string, tenant: string): NewRun => ({
  runId,
  tenant,
  toolId: `tool_${tenant}`,
  capabilityId: null,
  via: 'http',
  inputs: { q: runId },
  inputHash: runId,
  idempotencyKey: null,
  deadlineMs: null,
  status: 'working',
  billOnSuccess: true,
})
const success: RunPatch = {
  status: 'succeeded',
  result: { hits: 1 },
  from: ['working'],
  finished: true,
  effects: [],
}

describe.skipIf(skip !== null)(
  `a run's success in one statement${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster
    let store: PgStore

    beforeAll(async () => {
      cluster = await startPgCluster()
      store = createPgStore(await cluster.createDatabase('succeed'))
    }, 120_000)

    afterAll(async () => {
      store?.close()
      await cluster?.close()
    })

    const charged = (tenant: string) => store.ledger.usage(tenant, 1).charged

    it('moves the run, bills and charges one credit, and resets the tool streak in one round trip', () => {
      store.runs.create(working('lrun_a', 'ta'), 1)
      store.health.recordFailure('tool_ta', 'schema_or_auth_drift')
      const trips = store.pg.roundTrips
      const run = store.runs.succeed!(
        'lrun_a',
        success,
        { tenant: 'ta' },
        { toolId: 'tool_ta', inputs: { q: 'a' } },
        5,
      )
      expect(store.pg.roundTrips - trips).toBe(1)
      expect(run).toMatchObject({ status: 'succeeded', billed: true, result: { hits: 1 } })
      expect(store.runs.get('lrun_a')).toMatchObject({ status: 'succeeded', billed: true })
      expect(charged('ta')).toBe(1)
      expect(store.health.get('tool_ta')).toMatchObject({
        consecutiveFailures: 0,
        lastFailureCode: null,
        lastGoodInputs: { q: 'a' },
      })
    })

    it('succeeds unbilled when the balance cannot pay, and unbilled when not asked to bill', () => {
      store.runs.create(working('lrun_b', 'tb'), 1)
      expect(store.ledger.charge('tb', 'spent', FREE_GRANT_CREDITS, 'all of it', 2)).toBe(true)
      const run = store.runs.succeed!(
        'lrun_b',
        success,
        { tenant: 'tb' },
        { toolId: 'tool_tb', inputs: {} },
        5,
      )
      expect(run).toMatchObject({ status: 'succeeded', billed: false })
      expect(charged('tb')).toBe(FREE_GRANT_CREDITS)
      store.runs.create(working('lrun_c', 'tc'), 1)
      const free = store.runs.succeed!(
        'lrun_c',
        success,
        null,
        { toolId: 'tool_tc', inputs: {} },
        5,
      )
      expect(free).toMatchObject({ status: 'succeeded', billed: false })
      expect(charged('tc')).toBe(0)
      expect(store.health.get('tool_tc').lastGoodInputs).toEqual({})
    })

    it("sees a request's own tool save and login save though their reads were prefetched", () => {
      const tools = store.toolsFor('tw')
      const before = tools.revision()
      // As an authenticated request and a starting run do: the reads ride with the next statement.
      store.readAhead.caller('tw')
      store.readAhead.runStart('tw', 'site.test', null, false)
      store.pg.query('SELECT 1')
      const tool = {
        id: 'tool_tw',
        name: 'search',
        siteHost: 'site.test',
        status: 'verified',
        createdAt: 1,
        updatedAt: 1,
      } as unknown as ToolSpec
      tools.save(tool)
      expect(tools.revision()).not.toBe(before)
      expect(tools.get('tool_tw')?.name).toBe('search')
      store.logins.save('tw', 'site.test', Buffer.from('sealed'), 5)
      expect(store.logins.get('tw', 'site.test')).not.toBeNull()
    })

    it('moves, charges and records nothing when the guard does not hold (a cancel won)', () => {
      store.runs.create(working('lrun_d', 'td'), 1)
      store.runs.transition('lrun_d', { status: 'cancelled', from: ['working'], finished: true }, 2)
      const run = store.runs.succeed!(
        'lrun_d',
        success,
        { tenant: 'td' },
        { toolId: 'tool_td', inputs: { q: 'd' } },
        5,
      )
      expect(run).toBeNull()
      expect(store.runs.get('lrun_d')).toMatchObject({ status: 'cancelled', billed: false })
      expect(charged('td')).toBe(0)
      expect(store.health.get('tool_td').lastGoodInputs).toBeNull()
    })
  },
)
