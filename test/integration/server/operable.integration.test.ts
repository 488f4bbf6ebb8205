/**
 * An operable team server node (issue 27 D), as a real `bin/sitecall.mjs server` process on a
 * real PostgreSQL cluster in front of a real fixture site: `/healthz` and `/readyz` with the
 * database stopped and started again; `/metrics` scraped after a few calls (bearer token); its
 * JSON log lines, with no Authorization value or query string in them; SIGTERM while a slow run
 * is in flight: the run completes and is answered, a new request gets 503, the process exits 0
 * and gives up its node row.
 */
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { gate } from '../../fixtures/harness/harness'
import { callTool, searchRequests, send, type ErrorAnswerBody } from '../../fixtures/harness/http'
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
const METRICS_TOKEN = 'metrics-token-for-the-test'

/** Log lines parsed (every one must be a JSON object). */
function logObjects(node: ServerNode): Record<string, unknown>[] {
  return node.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe.skipIf(skip !== null)(
  `an operable server node${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster
    let site: DirectorySite
    let hook: (() => Promise<void>) | null = null
    let workspace: Workspace
    let tool: ToolSpec
    let key: string
    let node: ServerNode

    beforeAll(async () => {
      cluster = await startPgCluster()
      const url = await cluster.createDatabase('operable')
      site = await startDirectorySite({ onApiRequest: () => hook?.() })
      workspace = await seedWorkspace(url, site, 'ops')
      ;({ tool, key } = workspace)
      node = await startServerNode(url, 'node_ops', ['--drain-seconds', '60'], {
        SITECALL_METRICS_TOKEN: METRICS_TOKEN,
      })
    }, 180_000)

    afterAll(async () => {
      if (node) await killServerNode(node)
      await site?.close()
      await workspace?.close()
      await cluster?.close()
    })

    it('is alive and ready; with PostgreSQL stopped it is alive, not ready, and ready again once it is back', async () => {
      expect((await send(node.base, 'GET', '/healthz')).status).toBe(200)
      const ready = await send<{ status: string }>(node.base, 'GET', '/readyz')
      expect(ready.status).toBe(200)
      expect(ready.body.status).toBe('ready')
      // The seed store's connection must not hold the cluster: it reconnects after.
      await cluster.stop()
      try {
        expect((await send(node.base, 'GET', '/healthz')).status).toBe(200)
        const down = await send<ErrorAnswerBody>(node.base, 'GET', '/readyz')
        expect(down.status).toBe(503)
        expect(down.body.error.code).toBe('unavailable')
        expect(down.body.error.message).toMatch(/database/)
        expect(down.headers.get('retry-after')).toBe('2')
      } finally {
        await cluster.start()
      }
      let status = 0
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await send(node.base, 'GET', '/readyz')).status
        if (status !== 200) await delay(100)
      }
      expect(status).toBe(200)
    }, 60_000)

    it('serves Prometheus metrics to the bearer of the metrics token only', async () => {
      const call = await callTool(node.base, key, tool, { query: 'writing' })
      expect(call.status).toBe(200)
      const search = await send(node.base, 'POST', '/v1/tools/search', {
        key,
        json: { intent: 'search the directory for writing' },
        headers: { 'idempotency-key': 'metrics-search' },
      })
      expect(search.status).toBe(200)
      expect((await send(node.base, 'GET', '/metrics')).status).toBe(401)
      expect((await send(node.base, 'GET', '/metrics', { key: 'wrong' })).status).toBe(401)
      const res = await fetch(`${node.base}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
      const text = await res.text()
      const sample = (pattern: RegExp) => {
        const line = text.split('\n').find((l) => !l.startsWith('#') && pattern.test(l))
        return line === undefined ? undefined : Number(line.split(' ').pop())
      }
      expect(
        sample(/^sitecall_http_requests_total\{.*route="\/healthz".*code="200"/),
      ).toBeGreaterThanOrEqual(1)
      expect(
        sample(
          /^sitecall_http_requests_total\{.*route="\/api\/v1\/sites\/:siteHost\/call\/:toolId"/,
        ),
      ).toBe(1)
      expect(sample(/^sitecall_runs\{status="succeeded"/)).toBeGreaterThanOrEqual(1)
      expect(sample(/^sitecall_runs_in_flight\{/)).toBe(0)
      expect(sample(/^sitecall_database_up\{/)).toBe(1)
      expect(sample(/^sitecall_search_duration_seconds_count\{/)).toBe(1)
      expect(sample(/^sitecall_pg_round_trips_total\{/)).toBeGreaterThan(0)
      expect(text).toMatch(/node="node_ops"/)
    })

    it('logs one JSON line per answered request, without its Authorization value or query', async () => {
      const secretQuery = 'qsecret-0123456789'
      await send(node.base, 'GET', `/v1/usage?token=${secretQuery}`, { key })
      await send(node.base, 'GET', '/v1/usage', { headers: { cookie: 'session=cookie-secret-42' } })
      let line: Record<string, unknown> | undefined
      for (let i = 0; i < 50 && !line; i++) {
        line = logObjects(node).find((o) => o.route === '/v1/usage' && o.status === 200)
        if (!line) await delay(50)
      }
      expect(line).toMatchObject({
        level: 'info',
        msg: 'request completed',
        node: 'node_ops',
        method: 'GET',
        path: '/v1/usage',
      })
      expect(typeof line?.reqId).toBe('string')
      expect(typeof line?.ms).toBe('number')
      expect(new Date(String(line?.time)).toISOString()).toBe(line?.time)
      const all = node.lines.join('\n')
      expect(all).not.toContain(key)
      expect(all).not.toContain(secretQuery)
      expect(all).not.toContain('cookie-secret-42')
      expect(all).not.toContain('incoming request')
    })

    it('drains on SIGTERM: the slow run in flight is answered, a new request gets 503, it exits 0', async () => {
      const held = gate()
      hook = () => held.promise
      const sentBefore = searchRequests(site).length
      const slow = callTool<Run>(node.base, key, tool, { query: 'writing' })
      while (searchRequests(site).length === sentBefore) await delay(20)
      node.child.kill('SIGTERM')
      let ready = 200
      for (let i = 0; i < 100 && ready === 200; i++) {
        ready = (await send(node.base, 'GET', '/readyz')).status
        if (ready === 200) await delay(50)
      }
      expect(ready).toBe(503)
      const refused = await send<ErrorAnswerBody>(node.base, 'GET', '/v1/usage', { key })
      expect(refused.status).toBe(503)
      expect(refused.body.error.code).toBe('unavailable')
      expect(refused.body.error.message).toMatch(/shutting down/)
      expect((await send(node.base, 'GET', '/healthz')).status).toBe(200)
      expect(node.child.exitCode).toBeNull()
      held.open()
      hook = null
      const answer = await slow
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body.status).toBe('succeeded')
      expect(await node.exited).toBe(0)
      expect(searchRequests(site).length - sentBefore).toBe(1)
      expect(logObjects(node).map((o) => o.msg)).toContain('Drained')
      const row = workspace.store.pg.one('SELECT id FROM server_nodes WHERE id = $1', ['node_ops'])
      expect(row).toBeUndefined()
    }, 60_000)
  },
)
