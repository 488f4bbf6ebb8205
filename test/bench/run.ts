// `npm run bench`: Sitecall's surface A against the site it wraps, measured in one run.
// Prints a table and writes bench-results/bench.json; then the compiler bench (./compiler.ts)
// writes bench-results/compiler.json, and the real-app corpus bench (./apps.ts) writes
// bench-results/apps.json; the engine bench (./engine.ts) runs in a process of its own. Exit 1
// when setup fails or any Sitecall call did not succeed; timings themselves never fail the run
// (benchmarks are not tests).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createClients } from './clients'
import { runAppsBench } from './apps'
import { runCompilerBench } from './compiler'
import { QUERIES, readConfig } from './config'
import { formatReport, writeJson, type BenchResults } from './report'
import { machine, rssMB, storageFigures } from './resources'
import { runRenderedBench } from './rendered'
import { runRouterAccuracyBench } from './routerAccuracy'
import { runSearchBench } from './search'
import { startBench } from './setup'
import { measureLatency, measureThroughput } from './surfaceA'
import { runMcpBench } from './mcp'

const OUT = fileURLToPath(new URL('../../bench-results/bench.json', import.meta.url))

async function main(): Promise<number> {
  const date = new Date().toISOString()
  const rssStartMB = rssMB()
  const config = readConfig()
  const env = await startBench(QUERIES)
  const clients = createClients(env)
  try {
    const rssAfterSetupMB = rssMB()
    const latency = await measureLatency(clients, QUERIES, config)
    // The fixture keeps every request it saw (for tests); dropped here so its growth is not
    // counted as the core's memory below.
    env.site.requests.length = 0
    const throughput = await measureThroughput(clients, QUERIES, config)
    env.site.requests.length = 0
    const results: BenchResults = {
      date,
      machine: machine(),
      config,
      queries: [...QUERIES],
      latency,
      throughput,
      memory: { rssStartMB, rssAfterSetupMB, rssEndMB: rssMB() },
      storage: storageFigures(env),
      sitecallFailures: latency.failures.sitecall.count + throughput.sitecall.failures.count,
      directFailures: latency.failures.direct.count + throughput.direct.failures.count,
    }
    console.log(formatReport(results))
    writeJson(OUT, results)
    console.log(`\nJSON: ${OUT}`)
    console.log('')
    await runRenderedBench(env, QUERIES[0]!)
    console.log('')
    // The search bench grows a workspace to 100,001 tools: on an environment of its own, closed
    // after it, so the sections after it do not measure a heap and a store that hold them.
    const searchEnv = await startBench(QUERIES)
    try {
      await runSearchBench(searchEnv)
    } finally {
      await searchEnv.close()
    }
    console.log('')
    await runRouterAccuracyBench()
    console.log('')
    await runMcpBench(env, QUERIES)
    console.log('')
    const engineErrors = engineBenchInItsOwnProcess()
    console.log('')
    const serverErrors = ownProcess('./server.ts')
    console.log('')
    // Tool sync of 1,000 tools between two desktops and a node (issue 27 B), about 30 s.
    const syncErrors = ownProcess('./sync.ts')
    console.log('')
    // A device-bound run's added latency over a local run (issue 27 C), about 20 s.
    const deviceErrors = ownProcess('./devices.ts')
    return results.sitecallFailures || engineErrors || serverErrors || syncErrors || deviceErrors
      ? 1
      : 0
  } finally {
    await clients.close()
    await env.close()
  }
}

try {
  process.exitCode = await main()
  console.log('')
  runCompilerBench()
  console.log('')
  await runAppsBench()
} catch (error) {
  console.error('Bench setup or run failed:', error)
  process.exitCode = 1
}

/**
 * Runs the engine bench (./engine.ts) in a process of its own and returns its exit status (0:
 * every call succeeded). In this process the sections before it leave a heap of hundreds of MB
 * and a Chromium behind, whose minor GCs (9-14 ms each instead of 1-5) and CPU would be measured
 * as the engine's tail.
 */
function engineBenchInItsOwnProcess(): number {
  return ownProcess('./engine.ts')
}

/**
 * Runs one bench file (relative to this one) in a process of its own; its exit status. The
 * team server bench (./server.ts) starts PostgreSQL and three node processes of its own.
 */
function ownProcess(file: string): number {
  const script = fileURLToPath(new URL(file, import.meta.url))
  const child = spawnSync(process.execPath, [...process.execArgv, script], { stdio: 'inherit' })
  return child.status ?? 1
}
