// Tool sync's figures (issue 27 B): one `sitecall server` node process on a private PostgreSQL
// 15 cluster (fsync off: the figures are Sitecall's, not the disk's) and two desktop cores on
// their own SQLite files. Desktop A pushes 1,000 verified tools (one PUT each, in outbox order),
// desktop B pulls them (pages of 500), then a sync with nothing to do. Seconds and bytes (HTTP
// bodies sent and received, headers not counted) of each. Writes bench-results/sync.json. Run
// alone: `npx tsx test/bench/sync.ts`; `npm run bench` runs it in a process of its own. Skips
// (exit 0) without PostgreSQL's binaries.
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCore, LOCAL_TENANT } from '../../src/main/core'
import { createPgOwnerTokens } from '../../src/main/serverAccess'
import { createPgStore } from '../../src/main/store/postgres/pgStore'
import { createDesktopSync } from '../../src/main/sync/desktopSync'
import type { SyncReport } from '../../src/main/sync/syncRun'
import { makeSearchTool } from '../fixtures/harness/searchTool'
import { startDirectorySite } from '../fixtures/sites/directory'
import { pgUnavailable, startPgCluster } from '../integration/store/pgCluster'
import { killServerNode, startServerNode } from '../integration/server/serverNode'
import { machine } from './resources'

const OUT = fileURLToPath(new URL('../../bench-results/sync.json', import.meta.url))
const TOOLS = Number(process.env.SYNC_BENCH_TOOLS ?? 1000)

interface Counted {
  fetch: typeof fetch
  bytes: { sent: number; received: number; requests: number }
}

/** A fetch that counts the bodies it sends and receives. */
function counted(): Counted {
  const bytes = { sent: 0, received: 0, requests: 0 }
  return {
    bytes,
    fetch: async (input, init) => {
      bytes.requests++
      if (typeof init?.body === 'string') bytes.sent += Buffer.byteLength(init.body)
      const res = await fetch(input, init)
      const body = Buffer.from(await res.arrayBuffer())
      bytes.received += body.length
      return new Response(body, { status: res.status, headers: res.headers })
    },
  }
}

function desktop(name: string, counter: Counted) {
  const home = mkdtempSync(join(tmpdir(), `sitecall-syncbench-${name}-`))
  const core = createCore({
    home,
    rendererDir: null,
    keychain: null,
    env: { ...process.env, SITECALL_KEYCHAIN: 'off', SITECALL_PASSPHRASE: 'bench passphrase 1' },
  })
  const sync = createDesktopSync({
    store: core.store,
    vault: core.vault,
    keychain: null,
    tenant: LOCAL_TENANT,
    clock: Date.now,
    fetch: counter.fetch,
  })
  return {
    core,
    sync,
    async close() {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

async function timed(counter: Counted, fn: () => Promise<SyncReport>) {
  const before = { ...counter.bytes }
  const started = performance.now()
  const report = await fn()
  const seconds = (performance.now() - started) / 1000
  if (report.stopped || report.refused.length || report.conflicts.length)
    throw new Error(`sync did not finish cleanly: ${JSON.stringify(report).slice(0, 500)}`)
  return {
    seconds,
    requests: counter.bytes.requests - before.requests,
    bytesSent: counter.bytes.sent - before.sent,
    bytesReceived: counter.bytes.received - before.received,
    pushed: report.pushed.length,
    pulled: report.pulled.length,
  }
}

async function main(): Promise<number> {
  const skip = pgUnavailable()
  if (skip) {
    console.log(`Sync bench skipped: ${skip}`)
    return 0
  }
  const cluster = await startPgCluster()
  const site = await startDirectorySite()
  const url = await cluster.createDatabase('syncbench')
  const store = createPgStore(url)
  const owner = createPgOwnerTokens(store.pg, { clock: Date.now }).issue().token
  const node = await startServerNode(url, 'syncbench')
  const countA = counted()
  const countB = counted()
  const a = desktop('a', countA)
  const b = desktop('b', countB)
  try {
    await a.sync.connect(node.base, { token: owner })
    const { tool } = await makeSearchTool(a.core, site)
    a.core.store.transaction(() => {
      for (let i = 2; i <= TOOLS; i++)
        a.core.store.tools.save({ ...tool, id: randomUUID(), name: `${tool.name}_${i}` })
    })
    const push = await timed(countA, () => a.sync.sync())
    await b.sync.connect(node.base, { token: owner })
    const pull = await timed(countB, () => b.sync.sync())
    const idle = await timed(countB, () => b.sync.sync())
    const specBytes = Buffer.byteLength(JSON.stringify(tool))
    const results = {
      date: new Date().toISOString(),
      machine: machine(),
      tools: TOOLS,
      specBytes,
      push,
      pull,
      idle,
    }
    const f = (n: number, d = 2) => n.toFixed(d)
    const kb = (n: number) => `${f(n / 1024, 0)} KB`
    console.log(
      `Tool sync (issue 27 B), ${TOOLS} tools of ${specBytes} bytes each, 1 node on PostgreSQL 15:`,
    )
    console.log(
      `  push (A): ${f(push.seconds)} s, ${push.requests} requests, ${kb(push.bytesSent)} sent, ${kb(push.bytesReceived)} received (${push.pushed} pushed)`,
    )
    console.log(
      `  pull (B): ${f(pull.seconds)} s, ${pull.requests} requests, ${kb(pull.bytesSent)} sent, ${kb(pull.bytesReceived)} received (${pull.pulled} pulled)`,
    )
    console.log(
      `  nothing to do: ${f(idle.seconds * 1000, 1)} ms, ${idle.requests} request, ${idle.bytesReceived} bytes received`,
    )
    mkdirSync(dirname(OUT), { recursive: true })
    writeFileSync(OUT, JSON.stringify(results, null, 2))
    console.log(`  JSON: ${OUT}`)
    return push.pushed === TOOLS && pull.pulled === TOOLS ? 0 : 1
  } finally {
    await a.close()
    await b.close()
    await killServerNode(node)
    store.close()
    await site.close()
    await cluster.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main().catch((error: unknown) => {
    console.error('Sync bench failed:', error)
    return 1
  })
