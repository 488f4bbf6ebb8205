/**
 * PostgreSQL round trips of one verified read run on a team server node (issue 27: goal <= 3).
 * A node assembled as `sitecall server` assembles it (PostgreSQL store, owner tokens and rate
 * limiter in PostgreSQL, /metrics, the run queue's job made with each run), in this process so its statements can be listed, on a real
 * PostgreSQL cluster in front of the directory fixture site. The count is read from the node's
 * own `sitecall_pg_round_trips_total` counter: an exact number of statements is behaviour (one
 * more statement per run shows up here), not a timing. The list of statements is printed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, LOCAL_TENANT, type Core } from '../../../src/main/core'
import { createServerMetrics, registerMetrics } from '../../../src/main/server/metrics'
import {
  enlistRunsOf,
  RUN_QUEUE,
  RUN_QUEUE_SCHEMA,
  startRunQueue,
  type RunQueue,
} from '../../../src/main/server/runQueue'
import { createPgOwnerTokens, createPgRateLimiter } from '../../../src/main/serverAccess'
import { createPgStore, type PgStore } from '../../../src/main/store/postgres/pgStore'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { callTool, searchRequests, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import { seedWorkspace, type Workspace } from './serverNode'

const skip = pgUnavailable()
const METRICS_TOKEN = 'round-trips-metrics-token'
/**
 * PostgreSQL round trips of one verified read run called over HTTP with an API key, and the
 * statements in them (14 statements in 14 round trips before statements rode together; 9 in 4
 * before the run queue; 12 in 5 with it while the run's INSERT, sent with its BEGIN, was waited
 * for before its job's INSERT and the COMMIT; 12 in 4 while the run's transaction waited for the
 * start reads; now the transaction, with the balance check in it, rides with them).
 */
const READ_RUN_ROUND_TRIPS = 3
const READ_RUN_STATEMENTS = 12

/** The node's `sitecall_pg_round_trips_total` and `sitecall_pg_statements_total` (/metrics). */
async function counted(base: string): Promise<{ trips: number; statements: number }> {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  })
  const lines = (await res.text()).split('\n')
  const sample = (name: string) =>
    Number(
      lines
        .find((l) => l.startsWith(`${name}{`))
        ?.split(' ')
        .pop(),
    )
  return {
    trips: sample('sitecall_pg_round_trips_total'),
    statements: sample('sitecall_pg_statements_total'),
  }
}

describe.skipIf(skip !== null)(
  `round trips of a verified read run${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster
    let site: DirectorySite
    let workspace: Workspace
    let tool: ToolSpec
    let key: string
    let store: PgStore
    let node: Core<PgStore>
    let home: string
    let base: string
    let queue: RunQueue

    /** The run-queue jobs stored for a run (0 or 1: a run's job is a singleton). */
    const jobsOf = (runId: string): number =>
      store.pg.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${RUN_QUEUE_SCHEMA}.job WHERE name = $1 AND singleton_key = $2`,
        [RUN_QUEUE, runId],
      )?.n ?? -1

    beforeAll(async () => {
      cluster = await startPgCluster()
      const url = await cluster.createDatabase('trips')
      site = await startDirectorySite()
      workspace = await seedWorkspace(url, site, 'trips')
      ;({ tool, key } = workspace)
      store = createPgStore(url, { nodeId: 'node_trips' })
      home = mkdtempSync(join(tmpdir(), 'sitecall-trips-'))
      node = createCore({
        store,
        home,
        port: 0,
        rendererDir: null,
        keychain: null,
        serverNode: true,
        ownerTokens: createPgOwnerTokens(store.pg, { clock: Date.now }),
        rateLimiter: createPgRateLimiter(store.pg, { perMinute: 6000, burst: 1000 }, Date.now),
      }) as unknown as Core<PgStore>
      registerMetrics(
        node.server,
        createServerMetrics({ pg: store.pg, nodeId: 'node_trips' }),
        METRICS_TOKEN,
      )
      // As `sitecall server`: each run's job in its transaction (no polling here: the jobs' due
      // time is a node timeout away and their look costs nothing on this connection).
      queue = await startRunQueue({
        url,
        store,
        nodeId: 'node_trips',
        leaseMs: 10_000,
        recover: () => undefined,
        poll: false,
      })
      enlistRunsOf(store, queue)
      base = await node.listen()
    }, 180_000)

    afterAll(async () => {
      await queue?.stop()
      await node?.close()
      await workspace?.close()
      await site?.close()
      await cluster?.close()
      if (home) rmSync(home, { recursive: true, force: true })
    })

    it(`takes ${READ_RUN_ROUND_TRIPS} PostgreSQL round trips for one verified read run`, async () => {
      // The first call of a tool on a node prepares what the node keeps (its compiled paths).
      const first = await callTool<Run>(base, key, tool, { query: 'writing' })
      expect(first.status).toBe(200)
      // Each statement with the round trip it goes out in: statements queued while the count
      // stands at n ride together in round trip n + 1.
      const statements: Array<{ trip: number; sql: string }> = []
      const chargedBefore = store.ledger.usage(LOCAL_TENANT, Date.now()).charged
      store.pg.query('UPDATE tool_health SET consecutive_failures = 2 WHERE tool_id = $1', [
        tool.id,
      ])
      const sentBefore = searchRequests(site).length
      const before = await counted(base)
      const stop = store.pg.watch((sql) =>
        statements.push({ trip: store.pg.roundTrips, sql: sql.replace(/\s+/g, ' ').trim() }),
      )
      const answer = await callTool<Run>(
        base,
        key,
        tool,
        { query: 'writing' },
        { 'idempotency-key': 'trips-1' },
      )
      stop()
      const after = await counted(base)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body.status).toBe('succeeded')
      expect(searchRequests(site).length - sentBefore).toBe(1)
      const trips = [...new Set(statements.map((s) => s.trip))]
      console.log(
        `one verified read run: ${statements.length} statements in ${trips.length} round trips\n` +
          trips
            .map(
              (trip, i) =>
                `${i + 1}. ${statements
                  .filter((s) => s.trip === trip)
                  .map((s) => s.sql.slice(0, 110))
                  .join('\n   + ')}`,
            )
            .join('\n'),
      )
      // Less the scrape's own round trip and statement (the /metrics read of the runs by status).
      expect(after.trips - before.trips - 1).toBe(READ_RUN_ROUND_TRIPS)
      expect(after.statements - before.statements - 1).toBe(READ_RUN_STATEMENTS)
      expect(trips).toHaveLength(READ_RUN_ROUND_TRIPS)
      // The run is stored as ended, billed once, and its tool's failure streak is reset.
      const stored = await send<Run>(base, 'GET', `/api/v1/runs/${answer.body.runId}`, { key })
      expect(stored.body.status).toBe('succeeded')
      expect(store.runs.get(answer.body.runId)?.billed).toBe(true)
      // Its run-queue job was made with it.
      expect(jobsOf(answer.body.runId)).toBe(1)
      expect(store.ledger.usage(LOCAL_TENANT, Date.now()).charged - chargedBefore).toBe(1)
      expect(store.health.get(tool.id)).toMatchObject({
        consecutiveFailures: 0,
        lastGoodInputs: { query: 'writing' },
      })
    })

    /**
     * Statements sent while `act` runs, the round trips they went out in (less a key's "last
     * used" write, sent once a minute), and pg-boss's jobs and the runs before and after it.
     */
    const watched = async <T>(act: () => Promise<T>) => {
      const count = () =>
        store.pg.one<{ runs: number; jobs: number }>(
          `SELECT (SELECT count(*)::int FROM runs) AS runs,
             (SELECT count(*)::int FROM ${RUN_QUEUE_SCHEMA}.job WHERE name = $1) AS jobs`,
          [RUN_QUEUE],
        )!
      const before = count()
      const sql: string[] = []
      const trips = new Set<number>()
      const stop = store.pg.watch((text) => {
        sql.push(text.replace(/\s+/g, ' ').trim())
        if (!text.startsWith('UPDATE api_keys SET last_used_at')) trips.add(store.pg.roundTrips)
      })
      try {
        const value = await act()
        stop()
        return { value, sql, trips: trips.size, before, after: count() }
      } finally {
        stop()
      }
    }

    it('a call repeating an Idempotency-Key joins its run: the INSERT sent ahead is refused, nothing stored twice', async () => {
      const first = store.runs
        .list({ toolId: tool.id })
        .find((r) => r.idempotencyKey === 'call:trips-1')!
      const sentBefore = searchRequests(site).length
      const {
        value: answer,
        sql,
        trips,
        before,
        after,
      } = await watched(() =>
        callTool<Run>(base, key, tool, { query: 'writing' }, { 'idempotency-key': 'trips-1' }),
      )
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body.runId).toBe(first.runId)
      // The run's INSERT went out with the start reads, and the unique index refused it.
      expect(sql.some((s) => s.startsWith('INSERT INTO runs'))).toBe(true)
      expect(after).toEqual(before)
      expect(searchRequests(site).length).toBe(sentBefore)
      // The key with its rate limit, then the refused transaction with the key's run read in
      // it: no ROLLBACK after the refused COMMIT, and the join reads nothing more.
      expect(trips).toBe(2)
    })

    it('a workspace out of credit gets its 402 from the check sent with the INSERT, and nothing is stored', async () => {
      const balance = workspace.store.pg.one<{ charged: number }>(
        'SELECT charged FROM ledger_balances WHERE tenant = $1',
        [LOCAL_TENANT],
      )!
      workspace.store.pg.query(
        'UPDATE ledger_balances SET charged = granted + purchased WHERE tenant = $1',
        [LOCAL_TENANT],
      )
      try {
        const sentBefore = searchRequests(site).length
        const {
          value: answer,
          sql,
          trips,
          before,
          after,
        } = await watched(() =>
          callTool<ErrorAnswerBody>(
            base,
            key,
            tool,
            { query: 'writing' },
            { 'idempotency-key': 'trips-broke' },
          ),
        )
        expect(answer.status, JSON.stringify(answer.body)).toBe(402)
        expect(answer.body.error.code).toBe('quota_exceeded')
        expect(sql).toContain('SELECT sitecall_require_credit($1, $2)')
        // The refused transaction, then the balance read for the 402's message.
        expect(trips).toBe(3)
        expect(after).toEqual(before)
        expect(searchRequests(site).length).toBe(sentBefore)
      } finally {
        workspace.store.pg.query('UPDATE ledger_balances SET charged = $2 WHERE tenant = $1', [
          LOCAL_TENANT,
          balance.charged,
        ])
      }
      // With credit again, the same key runs (the refusal kept nothing under it).
      const again = await callTool<Run>(
        base,
        key,
        tool,
        { query: 'writing' },
        { 'idempotency-key': 'trips-broke' },
      )
      expect(again.status, JSON.stringify(again.body)).toBe(200)
      expect(again.body.status).toBe('succeeded')
    })

    it('a run of an Idempotency-Key another node committed first is found, not doubled, and gets no second job', async () => {
      // As when another node's run of the key committed after this node's findByKey read none:
      // the INSERT that rode unwaited with its job and COMMIT fails, and the run is made again.
      const first = store.runs
        .list({ toolId: tool.id })
        .find((r) => r.idempotencyKey === 'call:trips-1')!
      expect(first.idempotencyKey).toContain('trips-1')
      const runId = `lrun_trips_race_${Date.now()}`
      /** A working run of the tool with `first`'s inputs, under `idempotencyKey`. */
      const runOf = (id: string, tenant: string, idempotencyKey: string | null) => ({
        runId: id,
        tenant,
        toolId: tool.id,
        capabilityId: tool.capabilityId,
        via: tool.via,
        inputs: { query: 'writing' },
        inputHash: first.inputHash,
        idempotencyKey,
        deadlineMs: null,
        status: 'working' as const,
      })
      const made = store.runs.createSoon(
        runOf(runId, first.tenant, first.idempotencyKey),
        Date.now(),
      )
      expect(made.created).toBe(false)
      expect(made.run.runId).toBe(first.runId)
      expect(store.runs.get(runId)).toBeNull()
      expect(jobsOf(runId)).toBe(0)
      // Sent ahead (with no start read waited for), the same run is refused and stores nothing.
      const aheadId = `${runId}_ahead`
      expect(
        store.runs.createAhead(
          runOf(aheadId, first.tenant, first.idempotencyKey),
          Date.now(),
          first.tenant,
        ),
      ).toBeNull()
      expect(store.runs.get(aheadId)).toBeNull()
      expect(jobsOf(aheadId)).toBe(0)
      // A run of a new key still gets its run and job, in one round trip.
      const before = store.pg.roundTrips
      const fresh = store.runs.createSoon(
        runOf(`${runId}_new`, LOCAL_TENANT, `trips-new-${Date.now()}`),
        Date.now(),
      )
      expect(store.pg.roundTrips - before).toBe(1)
      expect(fresh.created).toBe(true)
      expect(store.runs.get(`${runId}_new`)?.status).toBe('working')
      expect(jobsOf(`${runId}_new`)).toBe(1)
      store.runs.transition(`${runId}_new`, { status: 'cancelled', finished: true }, Date.now())
    })

    it('refuses a key revoked on another node, before its rate limit, though it rode with it', async () => {
      // Known to this node (found once), then out of tokens: 429.
      const { key: other } = workspace.store.keys.create(
        { id: 'key_trips_other', tenant: LOCAL_TENANT, label: 'other' },
        Date.now(),
      )
      expect((await send(base, 'GET', '/v1/usage', { key: other })).status).toBe(200)
      workspace.store.pg.query('UPDATE rate_buckets SET tokens = 0, at = $2 WHERE key = $1', [
        'key:key_trips_other',
        Date.now() + 3_600_000,
      ])
      const limited = await send<ErrorAnswerBody>(base, 'GET', '/v1/usage', { key: other })
      expect(limited.status).toBe(429)
      // Revoked through another connection: the next request reads it in its one round trip.
      workspace.store.keys.revoke('key_trips_other', Date.now())
      const revoked = await send<ErrorAnswerBody>(base, 'GET', '/v1/usage', { key: other })
      expect(revoked.body.error.code).toBe('revoked')
      // The first key still works.
      expect((await send(base, 'GET', '/v1/usage', { key })).status).toBe(200)
    })
  },
)
