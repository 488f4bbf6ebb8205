// The team server's figures (issue 27 D): `sitecall server` nodes as real processes on one
// private PostgreSQL 15 cluster (fsync off: the figures are Sitecall's, not the disk's), the
// directory fixture site on 127.0.0.1. Runs/s and call latency on 1 and 3 nodes; search p50/p99;
// PostgreSQL round trips and node CPU time per run, read from the nodes' own /metrics; health
// and readiness latency; how long SIGTERM takes to drain and exit an idle node. Writes
// bench-results/server.json. Run alone: `npx tsx test/bench/server.ts`; `npm run bench` runs
// it in a process of its own. Skips (exit 0) without PostgreSQL's binaries.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { send } from '../fixtures/harness/http'
import { startDirectorySite } from '../fixtures/sites/directory'
import { pgUnavailable, startPgCluster } from '../integration/store/pgCluster'
import {
  killServerNode,
  seedWorkspace,
  startServerNode,
  type ServerNode,
} from '../integration/server/serverNode'
import { machine } from './resources'
import { summarize, type LatencySummary } from './stats'

const OUT = fileURLToPath(new URL('../../bench-results/server.json', import.meta.url))
const TOKEN = 'bench-metrics-token'
const CALLS = Number(process.env.SERVER_BENCH_CALLS ?? 300)
const CONCURRENCY = 8

interface Phase {
  nodes: number
  calls: number
  failures: number
  seconds: number
  runsPerSecond: number
  latencyMs: LatencySummary
  /** Round trips the nodes made per run (their `sitecall_pg_round_trips_total` delta / runs). */
  pgRoundTripsPerRun: number
  /** Statements the nodes sent per run (`sitecall_pg_statements_total` delta / runs). */
  pgStatementsPerRun: number
  /** Node CPU seconds per run, in ms (`process_cpu_seconds_total` delta / runs). */
  cpuMsPerRun: number
}

/** One sample's value from a node's /metrics (summed over label sets matching `name{`). */
async function scrape(node: ServerNode, name: string): Promise<number> {
  const res = await fetch(`${node.base}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  const text = await res.text()
  let sum = 0
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.split(' ').pop())
  return sum
}

async function totals(
  nodes: ServerNode[],
): Promise<{ trips: number; statements: number; cpu: number }> {
  let trips = 0
  let statements = 0
  let cpu = 0
  for (const node of nodes) {
    trips += await scrape(node, 'sitecall_pg_round_trips_total')
    statements += await scrape(node, 'sitecall_pg_statements_total')
    cpu += await scrape(node, 'process_cpu_seconds_total')
  }
  return { trips, statements, cpu }
}

/** `calls` requests at CONCURRENCY at once, spread round-robin over `nodes`. */
async function load(
  nodes: ServerNode[],
  calls: number,
  request: (base: string, i: number) => Promise<number>,
): Promise<{ seconds: number; latencies: number[]; failures: number }> {
  let next = 0
  let failures = 0
  const latencies: number[] = []
  const started = performance.now()
  const worker = async () => {
    while (next < calls) {
      const i = next++
      const t = performance.now()
      const status = await request(nodes[i % nodes.length]!.base, i).catch(() => 0)
      latencies.push(performance.now() - t)
      if (status !== 200) failures++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return { seconds: (performance.now() - started) / 1000, latencies, failures }
}

async function main(): Promise<number> {
  const skip = pgUnavailable()
  if (skip) {
    console.log(`Server bench skipped: ${skip}`)
    return 0
  }
  const cluster = await startPgCluster()
  const site = await startDirectorySite()
  const nodes: ServerNode[] = []
  try {
    const url = await cluster.createDatabase('bench')
    const workspace = await seedWorkspace(url, site, 'bench')
    const { tool, key } = workspace
    await workspace.close()
    const started = await Promise.all(
      ['bench_1', 'bench_2', 'bench_3'].map((id) =>
        startServerNode(url, id, ['--rate-limit', '1000000/100000'], {
          SITECALL_METRICS_TOKEN: TOKEN,
          SITECALL_LOG_LEVEL: 'warn',
        }),
      ),
    )
    nodes.push(...started)
    console.log('  3 nodes started; warming up')
    const path = `/api/v1/sites/${tool.siteHost}/call/${tool.name}`
    let seq = 0
    const call = async (base: string) => {
      const n = seq++
      const answer = await send(base, 'POST', path, {
        key,
        json: { query: 'writing' },
        headers: { 'idempotency-key': `bench-${n}` },
      })
      return answer.status
    }
    const search = async (base: string) => {
      const n = seq++
      const answer = await send(base, 'POST', '/v1/tools/search', {
        key,
        json: { intent: 'search the directory for writing' },
        headers: { 'idempotency-key': `bench-search-${n}` },
      })
      return answer.status
    }
    // Warm-up: each node compiles its paths once.
    for (const node of nodes) for (let i = 0; i < 10; i++) await call(node.base)

    const phase = async (on: ServerNode[]): Promise<Phase> => {
      const before = await totals(on)
      const run = await load(on, CALLS, call)
      const after = await totals(on)
      const runs = CALLS - run.failures
      return {
        nodes: on.length,
        calls: CALLS,
        failures: run.failures,
        seconds: run.seconds,
        runsPerSecond: runs / run.seconds,
        latencyMs: summarize(run.latencies),
        // Less the scrape's own round trip per node (the runs read).
        pgRoundTripsPerRun: (after.trips - before.trips - on.length) / runs,
        pgStatementsPerRun: (after.statements - before.statements - on.length) / runs,
        cpuMsPerRun: ((after.cpu - before.cpu) * 1000) / runs,
      }
    }
    console.log('  calls on 1 node, then 3')
    const one = await phase(nodes.slice(0, 1))
    const three = await phase(nodes)
    const searchOne = await load(nodes.slice(0, 1), CALLS, search)
    const searchThree = await load(nodes, CALLS, search)
    const probe = async (p: string) => {
      const samples: number[] = []
      for (let i = 0; i < 100; i++) {
        const t = performance.now()
        await send(nodes[0]!.base, 'GET', p)
        samples.push(performance.now() - t)
      }
      return summarize(samples)
    }
    const healthz = await probe('/healthz')
    const readyz = await probe('/readyz')
    const victim = nodes[2]!
    const t = performance.now()
    victim.child.kill('SIGTERM')
    const code = await victim.exited
    const drainMs = performance.now() - t
    const results = {
      date: new Date().toISOString(),
      machine: machine(),
      concurrency: CONCURRENCY,
      calls: { oneNode: one, threeNodes: three },
      search: {
        oneNode: { ...summarize(searchOne.latencies), failures: searchOne.failures },
        threeNodes: { ...summarize(searchThree.latencies), failures: searchThree.failures },
      },
      healthzMs: healthz,
      readyzMs: readyz,
      sigtermIdleExitMs: drainMs,
      sigtermExitCode: code,
    }
    const f = (x: number, d = 1) => x.toFixed(d)
    console.log('Team server (issue 27 D): nodes as processes, one PostgreSQL 15 (fsync off)')
    console.log(`  machine: ${results.machine.cpuCount} cores; ${CONCURRENCY} calls at once`)
    for (const p of [one, three])
      console.log(
        `  ${p.nodes} node${p.nodes > 1 ? 's' : ' '}: ${f(p.runsPerSecond)} runs/s, call p50 ${f(p.latencyMs.p50)} ms p99 ${f(p.latencyMs.p99)} ms, ` +
          `${f(p.pgRoundTripsPerRun)} PostgreSQL round trips/run (${f(p.pgStatementsPerRun)} statements), ${f(p.cpuMsPerRun)} ms node CPU/run, ${p.failures} failed`,
      )
    console.log(
      `  search p50/p99: 1 node ${f(results.search.oneNode.p50)}/${f(results.search.oneNode.p99)} ms, ` +
        `3 nodes ${f(results.search.threeNodes.p50)}/${f(results.search.threeNodes.p99)} ms`,
    )
    console.log(
      `  /healthz p50 ${f(healthz.p50, 2)} ms, /readyz p50 ${f(readyz.p50, 2)} ms; SIGTERM of an idle node to exit ${f(drainMs, 0)} ms (code ${code})`,
    )
    mkdirSync(dirname(OUT), { recursive: true })
    writeFileSync(OUT, JSON.stringify(results, null, 2))
    console.log(`  JSON: ${OUT}`)
    const failed =
      one.failures + three.failures + searchOne.failures + searchThree.failures + (code ?? 1)
    return failed ? 1 : 0
  } finally {
    await Promise.all(nodes.map(killServerNode))
    await site.close()
    await cluster.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main().catch((error: unknown) => {
    console.error('Server bench failed:', error)
    return 1
  })
