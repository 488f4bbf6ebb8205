/**
 * The durable run queue (issue 27 A: pg-boss) on real parts: two `sitecall server` nodes as
 * processes on one PostgreSQL 15 cluster, the directory fixture site on 127.0.0.1 counting the
 * requests it gets. Runs are called on node C, a read and a write are held at the site, and C
 * is killed with SIGKILL. What must hold, counted at the site and in pg-boss's own tables:
 * - every run C started has a job in the queue (made with the run);
 * - the held read is taken over by a live node's worker and succeeds (sent twice, as a read may);
 * - the held write ends `outcome_unknown` (`worker_lost`) and was sent once, never again;
 * - the jobs of C's runs are completed by the live nodes, saying who took them over;
 * and before that, a run held longer than the node timeout by a live node is never taken over
 * (its job goes back to the queue until the run ends).
 */
import { setTimeout as delay } from 'node:timers/promises'
import PgBoss from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { RUN_QUEUE, RUN_QUEUE_SCHEMA } from '../../../src/main/server/runQueue'
import { callTool, searchRequests, send } from '../../fixtures/harness/http'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import {
  killServerNode,
  seedWorkspace,
  startServerNode,
  type ServerNode,
  type Workspace,
} from './serverNode'

const skip = pgUnavailable()
const NODE_TIMEOUT_MS = 1000
const METRICS_TOKEN = 'run-queue-metrics-token'
const FINAL = ['succeeded', 'failed', 'outcome_unknown', 'cancelled', 'expired']

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

describe.skipIf(skip !== null)(`run queue${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PgCluster
  let site: DirectorySite
  let workspace: Workspace
  let nodes: ServerNode[] = []
  let hold: (() => Promise<void>) | null = null
  let read: ToolSpec
  let write: ToolSpec

  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('queue')
    site = await startDirectorySite({ onApiRequest: () => hold?.() })
    workspace = await seedWorkspace(url, site, 'queue')
    read = workspace.tool
    // The same request as a write: the engine may not send it twice, whatever happens.
    write = { ...read, id: `${read.id}_w`, name: 'update_directory', mutating: true }
    workspace.store.tools.save(write)
    nodes = await Promise.all(
      ['node_qa', 'node_qc'].map((id) =>
        startServerNode(url, id, ['--node-timeout-ms', String(NODE_TIMEOUT_MS)], {
          SITECALL_METRICS_TOKEN: METRICS_TOKEN,
        }),
      ),
    )
  }, 180_000)

  afterAll(async () => {
    await Promise.all(nodes.map(killServerNode))
    await workspace?.close()
    await site?.close()
    await cluster?.close()
  })

  const ended = async (runId: string): Promise<Run | null> => {
    for (let i = 0; i < 600; i++) {
      const record = workspace.store.runs.get(runId)
      if (record && FINAL.includes(record.status)) return record as unknown as Run
      await delay(100)
    }
    return workspace.store.runs.get(runId) as unknown as Run | null
  }

  it('never takes over a run its live node still holds: the job is put back until the run ends', async () => {
    const [a] = nodes as [ServerNode]
    const { store, key } = workspace
    const held = gate()
    const sentBefore = searchRequests(site).length
    hold = () => held.promise
    const call = callTool<Run>(a.base, key, read, { query: 'slow' })
    while (searchRequests(site).length === sentBefore) await delay(20)
    const run = store.runs.withStatus(['working']).find((r) => r.toolId === read.id)!
    const retries = () =>
      store.pg.one<{ retries: number }>(
        `SELECT max(retry_count)::int AS retries FROM ${RUN_QUEUE_SCHEMA}.job
          WHERE name = $1 AND singleton_key = $2`,
        [RUN_QUEUE, run.runId],
      )?.retries ?? 0
    // Held at the site past three node timeouts: node C's worker (or A's) looks at the due job
    // and puts it back each time, since A's heartbeat is fresh.
    while (retries() < 2) await delay(100)
    hold = null
    held.open()
    const answer = await call
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body.status).toBe('succeeded')
    expect(searchRequests(site).length - sentBefore).toBe(1)
    const owner = store.pg.one<{ node_id: string }>('SELECT node_id FROM runs WHERE id = $1', [
      run.runId,
    ])
    expect(owner!.node_id).toBe(a.id)
  }, 60_000)

  it('gives each run a job, and after a node is killed mid-run loses no run and sends no write twice', async () => {
    const [a, c] = nodes as [ServerNode, ServerNode]
    const { store, key } = workspace
    // A read that goes through at once: its job is made with it.
    const quick = await callTool<Run>(c.base, key, read, { query: 'writing' })
    expect(quick.status, JSON.stringify(quick.body)).toBe(200)
    const jobs = (runId: string) =>
      store.pg.query<{ state: string; output: { outcome?: string; by?: string } | null }>(
        `SELECT state, output FROM ${RUN_QUEUE_SCHEMA}.job WHERE name = $1 AND singleton_key = $2`,
        [RUN_QUEUE, runId],
      ).rows
    expect(jobs(quick.body.runId)).toHaveLength(1)

    const slot = (write.inputs.properties.query as { 'x-slot': string })['x-slot']
    const writeInputs = { [slot]: 'changed' }
    // A read and a write held at the site while node C is killed.
    const held = gate()
    const sentBefore = searchRequests(site).length
    hold = () => held.promise
    const lostRead = callTool<Run>(c.base, key, read, { query: 'killed' }).catch(() => null)
    const lostWrite = send<Run>(c.base, 'POST', `/v1/tools/${write.id}/execute`, {
      key,
      json: { inputs: writeInputs, allow_mutation: true },
      headers: { 'idempotency-key': 'queue-write-1' },
    }).catch(() => null)
    while (searchRequests(site).length < sentBefore + 2) await delay(20)
    const inFlight = store.runs.withStatus(['working'])
    const readRun = inFlight.find((r) => r.toolId === read.id)
    const writeRun = inFlight.find((r) => r.toolId === write.id)
    expect(readRun && writeRun, JSON.stringify(inFlight)).toBeTruthy()
    expect(jobs(readRun!.runId)).toHaveLength(1)
    expect(jobs(writeRun!.runId)).toHaveLength(1)
    c.child.kill('SIGKILL')
    await c.exited
    hold = null
    held.open()
    await Promise.all([lostRead, lostWrite])

    // The read is run again by a live node and succeeds; the write ends outcome_unknown.
    expect(await ended(readRun!.runId)).toMatchObject({ status: 'succeeded' })
    expect(await ended(writeRun!.runId)).toMatchObject({
      status: 'outcome_unknown',
      error: { code: 'worker_lost' },
    })
    const requests = searchRequests(site).slice(sentBefore)
    // Two sends of the read (once by C, once again by its new node), one of the write.
    expect(requests).toHaveLength(3)
    // The write's Idempotency-Key sent again to a live node joins the same run: nothing sent.
    const again = await send<{ run: Run }>(a.base, 'POST', `/v1/tools/${write.id}/execute`, {
      key,
      json: { inputs: writeInputs, allow_mutation: true },
      headers: { 'idempotency-key': 'queue-write-1' },
    })
    expect(again.body.run.runId, JSON.stringify(again.body)).toBe(writeRun!.runId)
    expect(again.body.run.status).toBe('outcome_unknown')
    expect(searchRequests(site).length - sentBefore).toBe(3)

    // The queue took them over: the first of their jobs a live node's worker fetched took
    // every run of the dead node (one guarded UPDATE); both jobs end completed, the takeover's
    // output naming the live node.
    const outputs: Array<{ outcome?: string; by?: string } | null> = []
    for (const runId of [readRun!.runId, writeRun!.runId]) {
      let done: ReturnType<typeof jobs> = []
      for (let i = 0; i < 100 && !done.length; i++) {
        done = jobs(runId).filter((j) => j.state === 'completed')
        if (!done.length) await delay(100)
      }
      expect(done).toHaveLength(1)
      outputs.push(done[0]!.output)
    }
    expect(outputs).toContainEqual({ outcome: 'taken_over', by: 'node_qa' })
    // Node A's /metrics count the takeover and show the queue's jobs by state.
    const scrape = await fetch(`${a.base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    const text = await scrape.text()
    const taken =
      /^sitecall_run_queue_worked_total\{outcome="taken_over",node="node_qa"\} (\d+)$/m.exec(text)
    // One per job of the dead node's runs that a poll found due (both runs, or one).
    expect(Number(taken?.[1])).toBeGreaterThanOrEqual(1)
    expect(text).toMatch(/^sitecall_run_queue_jobs\{state="created",node="node_qa"\} \d+$/m)
    const owner = store.pg.one<{ node_id: string }>('SELECT node_id FROM runs WHERE id = $1', [
      readRun!.runId,
    ])
    expect(owner!.node_id).toBe('node_qa')
  }, 120_000)
  it('exits with the error when its queue cannot be made, instead of living on without listening', async () => {
    const url = await cluster.createDatabase('broken_queue')
    // pg-boss's schema as pg-boss makes it, with its queue-making function broken.
    const boss = new PgBoss({ connectionString: url, schema: RUN_QUEUE_SCHEMA, supervise: false })
    await boss.start()
    await boss.getDb().executeSql(
      `CREATE OR REPLACE FUNCTION ${RUN_QUEUE_SCHEMA}.create_queue(queue_name text, options json)
         RETURNS VOID AS $$ BEGIN RAISE EXCEPTION 'queue making is broken here'; END $$
         LANGUAGE plpgsql`,
      [],
    )
    await boss.stop({ graceful: false, wait: true })
    const error = await startServerNode(url, 'node_qb').then(
      async (node) => {
        await killServerNode(node)
        return null
      },
      (e: unknown) => e as Error,
    )
    expect(error?.message).toMatch(/node node_qb exited \(\d+\)/)
    expect(error?.message).toContain('queue making is broken here')
  }, 150_000)
})
