// A device-bound run's added latency (issue 27 C; goal: at most 50 ms over a local run). One
// `sitecall server` node process on a private PostgreSQL 15 cluster (fsync off), the orders
// fixture site on 127.0.0.1 (its orders need a login cookie), and desktop A: a core on its own
// SQLite file serving on 127.0.0.1, its vault holding the site's login, linked to the node and
// running its device loop. Calls of the "list my orders" read, one at a time, alternating:
//   local:  the agent calls A's own REST API (A runs it);
//   device: the agent calls the node, which hands the run to A (long poll) and answers A's report;
// then, with the login saved on the server too, server: the node runs it itself (no device).
// p50/p99/mean of each, and device − local and device − server at p50. Writes
// bench-results/devices.json. Run alone: `npx tsx test/bench/devices.ts`; `npm run bench` runs
// it in a process of its own. Skips (exit 0) without PostgreSQL's binaries.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCore, LOCAL_TENANT } from '../../src/main/core'
import { createPgOwnerTokens } from '../../src/main/serverAccess'
import { createPgStore } from '../../src/main/store/postgres/pgStore'
import { createDesktopSync } from '../../src/main/sync/desktopSync'
import type { Run } from '../../src/shared/run'
import type { StorageState } from '../../src/shared/trace'
import { callTool } from '../fixtures/harness/http'
import { DEFAULT_USER, startOrdersSite } from '../fixtures/sites/orders'
import { listOrdersTool } from '../fixtures/sites/orders/listOrdersTool'
import { pgUnavailable, startPgCluster } from '../integration/store/pgCluster'
import { killServerNode, startServerNode } from '../integration/server/serverNode'
import { machine } from './resources'
import { summarize } from './stats'

const OUT = fileURLToPath(new URL('../../bench-results/devices.json', import.meta.url))
const CALLS = Number(process.env.DEVICE_BENCH_CALLS ?? 100)
const WARMUP = 10
const PASSPHRASE = 'bench passphrase 1'

async function main(): Promise<number> {
  const skip = pgUnavailable()
  if (skip) {
    console.log(`Device bench skipped: ${skip}`)
    return 0
  }
  const cluster = await startPgCluster()
  const orders = await startOrdersSite({ recordRequests: false })
  const url = await cluster.createDatabase('devicebench')
  const store = createPgStore(url)
  const owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
  const node = await startServerNode(url, 'devicebench', [], { SITECALL_PASSPHRASE: PASSPHRASE })
  const home = mkdtempSync(join(tmpdir(), 'sitecall-devicebench-a-'))
  const a = createCore({
    home,
    port: 0,
    rendererDir: null,
    keychain: null,
    rateLimits: null,
    env: {
      ...process.env,
      SITECALL_KEYCHAIN: 'off',
      SITECALL_PASSPHRASE: PASSPHRASE,
      SITECALL_DEVICE_NAME: 'bench-laptop',
    },
  })
  const seedHome = mkdtempSync(join(tmpdir(), 'sitecall-devicebench-seed-'))
  const seed = createCore({
    store,
    home: seedHome,
    rendererDir: null,
    keychain: null,
    serverNode: true,
    env: { ...process.env, SITECALL_PASSPHRASE: PASSPHRASE },
  })
  try {
    const tool = listOrdersTool(orders)
    a.store.tools.save(tool)
    const login: StorageState = {
      cookies: [
        {
          name: 'parcel_session',
          value: orders.state.sessions.start(DEFAULT_USER.username),
          domain: '127.0.0.1',
          path: '/',
          expires: -1,
        },
      ],
      origins: [],
    }
    await a.vault.open()
    await a.logins.save(LOCAL_TENANT, orders.host, login)
    const sync = createDesktopSync({
      store: a.store,
      vault: a.vault,
      keychain: null,
      tenant: LOCAL_TENANT,
      clock: Date.now,
    })
    await sync.connect(node.base, { token: owner })
    await sync.sync()
    const aBase = await a.listen()
    // The device loop registers once A serves; its first long poll follows.
    while (!store.pg.one("SELECT 1 FROM devices WHERE name = 'bench-laptop'"))
      await new Promise((resolve) => setTimeout(resolve, 20))

    const once = async (base: string, key: string): Promise<number> => {
      const started = performance.now()
      const call = await callTool<Run>(base, key, tool, {})
      const ms = performance.now() - started
      if (call.status !== 200 || call.body.status !== 'succeeded')
        throw new Error(`call failed: ${call.status} ${JSON.stringify(call.body).slice(0, 300)}`)
      return ms
    }
    const local: number[] = []
    const device: number[] = []
    for (let i = 0; i < WARMUP; i++) {
      await once(aBase, a.ownerToken)
      await once(node.base, owner)
    }
    for (let i = 0; i < CALLS; i++) {
      local.push(await once(aBase, a.ownerToken))
      device.push(await once(node.base, owner))
    }
    const onA = a.store.runs.list({ toolId: tool.id, limit: 10_000 }).length
    // The server's own run of the same tool: its login saved on the server (sealed there).
    await seed.vault.open()
    await seed.logins.save(LOCAL_TENANT, orders.host, login)
    const server: number[] = []
    for (let i = 0; i < WARMUP; i++) await once(node.base, owner)
    for (let i = 0; i < CALLS; i++) server.push(await once(node.base, owner))
    const ranOnA = a.store.runs.list({ toolId: tool.id, limit: 10_000 }).length - onA

    const figures = {
      local: summarize(local),
      device: summarize(device),
      server: summarize(server),
    }
    const added = {
      overLocalP50: figures.device.p50 - figures.local.p50,
      overLocalMean: figures.device.mean - figures.local.mean,
      overServerP50: figures.device.p50 - figures.server.p50,
    }
    const results = {
      date: new Date().toISOString(),
      machine: machine(),
      calls: CALLS,
      figures,
      added,
    }
    const f = (n: number) => n.toFixed(1)
    console.log(`Device-bound runs (issue 27 C), ${CALLS} calls each, 1 node on PostgreSQL 15:`)
    for (const [name, s] of Object.entries(figures))
      console.log(
        `  ${name.padEnd(7)} p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms, mean ${f(s.mean)} ms`,
      )
    console.log(
      `  added by the device hop: ${f(added.overLocalP50)} ms over a local run at p50 (mean ${f(added.overLocalMean)}), ${f(added.overServerP50)} ms over the server's own run (goal: at most 50 ms over local)`,
    )
    mkdirSync(dirname(OUT), { recursive: true })
    writeFileSync(OUT, JSON.stringify(results, null, 2))
    console.log(`  JSON: ${OUT}`)
    // With the login on the server, no run went to A.
    return ranOnA === 0 ? 0 : 1
  } finally {
    await a.close()
    await seed.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(seedHome, { recursive: true, force: true })
    await killServerNode(node)
    await orders.close()
    await cluster.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main().catch((error: unknown) => {
    console.error('Device bench failed:', error)
    return 1
  })
