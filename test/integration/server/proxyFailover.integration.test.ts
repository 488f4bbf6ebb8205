/**
 * Three `sitecall server` nodes behind a real HAProxy (Debian's `haproxy`), one PostgreSQL
 * database, a real fixture site on 127.0.0.1 (issue 27 D item 6). Under a steady load of tool
 * calls through the proxy, one node is killed with SIGKILL. Each call is a client as the docs
 * describe it: its own Idempotency-Key, resent through the proxy on a cut answer (502), 503 or
 * a refused connection, and a 202 polled until the run is final. What must hold, counted at the
 * site and in the database:
 * - no run is lost: every call ends with a `succeeded` run;
 * - one run per Idempotency-Key, whichever node each attempt reached;
 * - nothing is sent twice, except a read that the killed node had in flight, which the node
 *   that takes it over runs again (the interface's rule for reads): at most twice for those, once for
 *   every other call.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Run } from '../../../src/shared/run'
import { searchRequests, send } from '../../fixtures/harness/http'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { pgUnavailable, startPgCluster, type PgCluster } from '../store/pgCluster'
import {
  killServerNode,
  seedWorkspace,
  startServerNode,
  type ServerNode,
  type Workspace,
} from './serverNode'

const HAPROXY = '/usr/sbin/haproxy'
const skip =
  pgUnavailable() ?? (existsSync(HAPROXY) ? null : `no ${HAPROXY}: apt-get install haproxy`)
const CALLS = 90
const CONCURRENCY = 6
/** The call after which node 2 is killed. */
const KILL_AFTER = 15
const FINAL = new Set(['succeeded', 'failed', 'outcome_unknown', 'cancelled', 'expired'])

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** HAProxy as docs/team-server.md and deploy/haproxy.cfg set it, without TLS, checks made fast. */
function haproxyConfig(port: number, nodes: ServerNode[]): string {
  return [
    'global',
    '    maxconn 512',
    'defaults',
    '    mode http',
    '    timeout connect 2s',
    '    timeout client 60s',
    '    timeout server 60s',
    '    retries 3',
    '    option redispatch',
    '    retry-on conn-failure',
    'frontend sitecall',
    `    bind 127.0.0.1:${port}`,
    '    default_backend nodes',
    'backend nodes',
    '    balance roundrobin',
    '    option httpchk',
    '    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost',
    '    http-check expect status 200',
    '    default-server inter 300ms fall 1 rise 2',
    ...nodes.map((n) => `    server ${n.id} ${new URL(n.base).host} check`),
    '',
  ].join('\n')
}

interface Outcome {
  runId: string
  status: string
  attempts: number
}

/**
 * One client's call through the proxy: resends with the same key on 502/503/504 or a network
 * error, polls a 202 until the run is final.
 */
async function callThrough(proxy: string, key: string, path: string, i: number): Promise<Outcome> {
  let attempts = 0
  const until = Date.now() + 90_000
  while (Date.now() < until) {
    attempts++
    try {
      const answer = await send<Run>(proxy, 'POST', path, {
        key,
        json: { query: `load-${i}` },
        headers: { 'idempotency-key': `failover-${i}` },
      })
      if ([502, 503, 504].includes(answer.status)) {
        await delay(200)
        continue
      }
      let run = answer.body
      while (!FINAL.has(run.status) && Date.now() < until) {
        await delay(100)
        const polled = await send<Run>(proxy, 'GET', `/api/v1/runs/${run.runId}`, { key })
        if (polled.status === 200 || polled.status === 202) run = polled.body
      }
      return { runId: run.runId, status: run.status, attempts }
    } catch {
      await delay(200)
    }
  }
  return { runId: '', status: 'client_gave_up', attempts }
}

describe.skipIf(skip !== null)(
  `three nodes behind HAProxy${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster
    let site: DirectorySite
    let workspace: Workspace
    let nodes: ServerNode[] = []
    let haproxy: ChildProcess | null = null
    let dir: string
    let proxy: string

    beforeAll(async () => {
      cluster = await startPgCluster()
      const url = await cluster.createDatabase('failover')
      // Each site answer takes a moment, so calls are in flight when the node dies.
      site = await startDirectorySite({ onApiRequest: () => delay(40) })
      workspace = await seedWorkspace(url, site, 'failover')
      nodes = await Promise.all(
        ['node_1', 'node_2', 'node_3'].map((id) =>
          startServerNode(url, id, ['--node-timeout-ms', '1000', '--rate-limit', '60000/5000']),
        ),
      )
      dir = mkdtempSync(join(tmpdir(), 'sitecall-haproxy-'))
      const port = await freePort()
      writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig(port, nodes))
      haproxy = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      proxy = `http://127.0.0.1:${port}`
      // Ready once the proxy has seen every node ready (rise 2) and answers through them.
      for (let i = 0; i < 200; i++) {
        const ok = await send(proxy, 'GET', '/readyz').then(
          (a) => a.status === 200,
          () => false,
        )
        if (ok) break
        await delay(100)
      }
      await delay(1_000)
    }, 240_000)

    afterAll(async () => {
      haproxy?.kill('SIGKILL')
      await Promise.all(nodes.map(killServerNode))
      await site?.close()
      await workspace?.close()
      await cluster?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it('loses no run and sends nothing twice but the re-run reads of the node killed with SIGKILL', async () => {
      const { tool, key, store } = workspace
      const path = `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
      const victim = nodes[1]!
      const outcomes: Outcome[] = new Array<Outcome>(CALLS)
      let next = 0
      let done = 0
      const killed: { held: string[] | null; doneAt: number } = { held: null, doneAt: 0 }
      const started = Date.now()
      const worker = async () => {
        while (next < CALLS) {
          const i = next++
          outcomes[i] = await callThrough(proxy, key, path, i)
          done++
        }
      }
      // Once KILL_AFTER calls are done, SIGKILL node 2 at a moment it has a run at the site.
      const killer = async () => {
        while (done < KILL_AFTER) await delay(10)
        for (let i = 0; i < 400; i++) {
          const working = store.pg.one<{ n: number }>(
            `SELECT count(*)::int AS n FROM runs WHERE node_id = $1 AND status = 'working'`,
            [victim.id],
          )
          if (Number(working?.n) > 0) break
          await delay(5)
        }
        killed.doneAt = done
        victim.child.kill('SIGKILL')
        await victim.exited
        // What the dead node held: the runs a live node will take over (after 1 s).
        killed.held = store.pg
          .query<{ id: string }>(
            `SELECT id FROM runs WHERE node_id = $1 AND status IN ('accepted', 'working')`,
            [victim.id],
          )
          .rows.map((r) => r.id)
      }
      await Promise.all([killer(), ...Array.from({ length: CONCURRENCY }, worker)])
      const seconds = (Date.now() - started) / 1000
      expect(victim.child.signalCode).toBe('SIGKILL')
      // Killed under load: calls were still to come.
      expect(killed.doneAt).toBeLessThan(CALLS - CONCURRENCY)
      // No run lost.
      expect(outcomes.map((o) => o.status)).toEqual(Array(CALLS).fill('succeeded'))
      // One run per key (the stored key is scoped by the caller's; it ends in the client's).
      const perKey = store.pg.query<{ key: string; n: number }>(
        `SELECT idempotency_key AS key, count(*)::int AS n FROM runs
         WHERE idempotency_key LIKE '%failover-%' GROUP BY idempotency_key`,
      ).rows
      expect(perKey).toHaveLength(CALLS)
      expect(perKey.filter((r) => Number(r.n) !== 1)).toEqual([])
      expect(new Set(outcomes.map((o) => o.runId)).size).toBe(CALLS)
      // Sent once each, but the killed node's reads in flight (at most twice).
      const taken = new Set(killed.held ?? [])
      const sent = searchRequests(site)
      const counts = outcomes.map((o, i) => ({
        runId: o.runId,
        sent: sent.filter((r) => r.body.includes(`"load-${i}"`)).length,
      }))
      for (const c of counts) {
        if (taken.has(c.runId)) expect(c.sent, c.runId).toBeGreaterThanOrEqual(1)
        if (taken.has(c.runId)) expect(c.sent, c.runId).toBeLessThanOrEqual(2)
        else expect(c.sent, c.runId).toBe(1)
      }
      const resent = counts.filter((c) => c.sent === 2).length
      const retried = outcomes.filter((o) => o.attempts > 1).length
      console.log(
        `failover: ${CALLS} calls in ${seconds.toFixed(1)} s (${(CALLS / seconds).toFixed(1)}/s) through HAProxy to 3 nodes, ` +
          `1 killed after ${killed.doneAt}: ${taken.size} runs taken over, ${resent} reads sent again, ` +
          `${retried} calls resent by their client, 0 lost`,
      )
    }, 180_000)
  },
)
