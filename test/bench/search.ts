// Search latency (issue 5 "npm run bench", issue 10 "Speed"): `POST /v1/tools/search` over
// workspaces of 100 to 100,000 tools, end to end over HTTP (auth, receipt lookup, billing,
// routing, receipt write), next to the router alone in this process, with the router's memory per
// tool. Writes bench-results/search.json; timings never fail the run.
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { request } from 'undici'
import { createToolRouter } from '../../src/main/router/router'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { BenchEnv } from './setup'
import { summarize, type LatencySummary } from './stats'

const OUT = fileURLToPath(new URL('../../bench-results/search.json', import.meta.url))

const OBJECTS = [
  'hotels',
  'flights',
  'jobs',
  'recipes',
  'books',
  'products',
  'orders',
  'invoices',
  'notes',
  'repositories',
  'packages',
  'datasets',
  'movies',
  'flats',
  'events',
  'courses',
  'cars',
  'songs',
  'podcasts',
  'articles',
]
const VERBS = ['search', 'list', 'find', 'create', 'update']

/** Intents searched, one per request in turn: matches, near misses and no match at all. */
const INTENTS = [
  'search the AI tools directory by keyword',
  'find hotels in paris',
  'list my invoices',
  'create an order',
  'search podcasts about history',
  'order a pizza',
  'translate this text to french',
  'update my notes',
]

/**
 * Words that make texts no request sent before (`unseen` below): each an object of the tools
 * with a verb and a qualifier (`find hotels near the station`), so the router reads every one
 * afresh (it keeps the reading of a text it was sent: `ranker.ts` `viewOf`).
 */
const UNSEEN_VERBS = ['find', 'show me', 'search for', 'list all', 'I need', 'look up', 'get']
const UNSEEN_TAILS = [
  'near the station',
  'from last week',
  'for my team',
  'about history',
  'in paris',
  'under 20 euros',
  'by popularity',
  'for tomorrow',
]

/** The `i`th text of the unseen ones: verb × object × tail, none twice in 1,120. */
export function unseenIntent(i: number): string {
  const verb = UNSEEN_VERBS[i % UNSEEN_VERBS.length]!
  const object = OBJECTS[Math.floor(i / UNSEEN_VERBS.length) % OBJECTS.length]!
  const tail =
    UNSEEN_TAILS[Math.floor(i / (UNSEEN_VERBS.length * OBJECTS.length)) % UNSEEN_TAILS.length]!
  return `${verb} ${object} ${tail}`
}

/** Workspace sizes measured, smallest first (issue 10: p50 <= 5 ms at 10,000 tools over HTTP). */
export const SEARCH_SIZES = [100, 1_000, 10_000, 100_000]

export interface SearchSizeResult {
  tools: number
  requests: number
  http: LatencySummary
  /**
   * Over HTTP as `http`, each request a text not sent before (`unseenIntent`): what a search
   * costs when the router reads its text afresh.
   */
  unseen: LatencySummary
  routerOnly: LatencySummary
  /** Heap the router holds per tool (profiles and index), in bytes, after a first search. */
  routerBytesPerTool: number
  /** Milliseconds of the first search after the tools were added (profiling all of them). */
  firstSearchMs: number
  /**
   * Over HTTP after a restart of the core (issue 25): the first search sent as soon as it
   * listens (it waits for the index built at start), and one sent after the build had time to
   * end (twice that wait, plus half a second), in ms.
   */
  restart: { atOnceMs: number; afterBuildMs: number; waitedMs: number }
}

export interface SearchBenchResults {
  sizes: SearchSizeResult[]
}

/**
 * Grows the workspace to each of {@link SEARCH_SIZES} tools (the directory search plus variations
 * over 20 objects, five verbs and many sites), and at each size times `requests` searches over
 * HTTP (`POST /v1/tools/search`, a fresh operation key each: every one routes and bills) and as
 * many calls of the router alone, after a warm-up (the JIT, the profiles, the word vectors).
 * Memory per tool is the router's heap growth over the size's tools, measured after a forced GC.
 * Prints the table; writes bench-results/search.json; timings never fail the run.
 */
export async function runSearchBench(env: BenchEnv, requests = 200): Promise<SearchBenchResults> {
  const gc = forcedGc()
  const sizes: SearchSizeResult[] = []
  let made = 1
  let unseenFrom = 0
  for (const size of SEARCH_SIZES) {
    const extra = variations(env.tool, size - made, made)
    env.core.store.db.transaction(() => {
      for (const tool of extra) env.core.store.tools.save(tool)
    })()
    made = size
    const all = env.core.store.tools.list()
    const n = size >= 100_000 ? Math.min(requests, 60) : requests
    const http: number[] = []
    for (let i = 0; i < n + 10; i++) {
      const started = performance.now()
      const res = await fetch(`${env.base}/v1/tools/search`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${env.key}`,
          'content-type': 'application/json',
          'idempotency-key': `bench-search-${size}-${i}-${randomUUID()}`,
        },
        body: JSON.stringify({ intent: INTENTS[i % INTENTS.length] }),
      })
      await res.text()
      if (res.status !== 200) throw new Error(`Search answered ${res.status}.`)
      if (i >= 10) http.push(performance.now() - started)
    }
    const unseen: number[] = []
    for (let i = 0; i < n; i++) {
      const started = performance.now()
      const res = await fetch(`${env.base}/v1/tools/search`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${env.key}`,
          'content-type': 'application/json',
          'idempotency-key': `bench-unseen-${size}-${i}-${randomUUID()}`,
        },
        body: JSON.stringify({ intent: unseenIntent(unseenFrom + i) }),
      })
      await res.text()
      if (res.status !== 200) throw new Error(`Search answered ${res.status}.`)
      unseen.push(performance.now() - started)
    }
    unseenFrom += n
    gc()
    const heapBefore = process.memoryUsage().heapUsed
    const router = createToolRouter()
    const firstStarted = performance.now()
    router.route(INTENTS[0]!, all)
    const firstSearchMs = performance.now() - firstStarted
    gc()
    const routerBytesPerTool = (process.memoryUsage().heapUsed - heapBefore) / all.length
    const routerOnly: number[] = []
    for (let i = 0; i < n + 10; i++) {
      const started = performance.now()
      router.route(INTENTS[i % INTENTS.length]!, all)
      if (i >= 10) routerOnly.push(performance.now() - started)
    }
    const atOnceMs = await firstSearchAfterRestart(env, size, 0)
    const waitedMs = Math.round(2 * atOnceMs + 500)
    const afterBuildMs = await firstSearchAfterRestart(env, size, waitedMs)
    sizes.push({
      tools: all.length,
      requests: n,
      http: summarize(http),
      unseen: summarize(unseen),
      routerOnly: summarize(routerOnly),
      routerBytesPerTool,
      firstSearchMs,
      restart: { atOnceMs, afterBuildMs, waitedMs },
    })
    const r = sizes.at(-1)!
    console.log(
      `  ${r.tools} tools: HTTP p50 ${r.http.p50.toFixed(2)} ms (texts not sent before: ${r.unseen.p50.toFixed(2)} ms), router p50 ${r.routerOnly.p50.toFixed(2)} ms, ` +
        `first search after a restart ${r.restart.atOnceMs.toFixed(0)} ms at once, ${r.restart.afterBuildMs.toFixed(2)} ms after ${r.restart.waitedMs} ms`,
    )
  }
  const ms = (x: number) => x.toFixed(2).padStart(8)
  console.log(`Search latency by workspace size (ms; router memory in bytes per tool)`)
  console.log(
    `${'tools'.padStart(7)} ${'HTTP p50'.padStart(8)} ${'HTTP p99'.padStart(8)} ${'new p50'.padStart(8)} ${'new p99'.padStart(8)} ${'router p50'.padStart(10)} ${'router p99'.padStart(10)} ${'first'.padStart(8)} ${'B/tool'.padStart(8)} ${'restart:at once'.padStart(15)} ${'after build'.padStart(11)}`,
  )
  for (const r of sizes)
    console.log(
      `${String(r.tools).padStart(7)} ${ms(r.http.p50)} ${ms(r.http.p99)} ${ms(r.unseen.p50)} ${ms(r.unseen.p99)} ${ms(r.routerOnly.p50).padStart(10)} ${ms(r.routerOnly.p99).padStart(10)} ${ms(r.firstSearchMs)} ${String(Math.round(r.routerBytesPerTool)).padStart(8)} ${ms(r.restart.atOnceMs).padStart(15)} ${ms(r.restart.afterBuildMs).padStart(11)}`,
    )
  console.log(
    '(HTTP: 8 texts in turn, each searched many times; new: over HTTP, each text one not sent before; first: the router alone, built by its first search; restart: over HTTP, the first search after the core restarts, sent at once (it waits for the index built at start) or after the build had time to end)',
  )
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify({ date: new Date().toISOString(), sizes }, null, 2)}\n`)
  console.log(`JSON: ${OUT}`)
  return { sizes }
}

/**
 * Restarts the core (`env.restart`), waits `waitMs`, then times one search over HTTP (a fresh
 * operation key: it routes), in ms. Throws when it is not answered 200.
 */
async function firstSearchAfterRestart(
  env: BenchEnv,
  size: number,
  waitMs: number,
): Promise<number> {
  await env.restart()
  if (waitMs) await new Promise((resolve) => setTimeout(resolve, waitMs))
  const started = performance.now()
  // (undici's `request` with no headers timeout: sent at once to 100,000 tools on a loaded
  // machine, the answer waits for the build longer than fetch's 300 s.)
  const res = await request(`${env.base}/v1/tools/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.key}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-restart-${size}-${waitMs}-${randomUUID()}`,
    },
    body: JSON.stringify({ intent: INTENTS[1] }),
    headersTimeout: 0,
    bodyTimeout: 0,
  })
  await res.body.text()
  if (res.statusCode !== 200) throw new Error(`Search after a restart answered ${res.statusCode}.`)
  return performance.now() - started
}

/** `global.gc`, exposed for this process (memory figures need a collection before reading). */
function forcedGc(): () => void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as (() => void) | undefined
  return () => gc?.()
}

/**
 * `count` tools cloned from `base` (numbered from `from`) with other sites, names and intents
 * (verb × object), and no evidence to keep the database small.
 */
export function variations(base: ToolSpec, count: number, from: number): ToolSpec[] {
  return Array.from({ length: Math.max(0, count) }, (_, k) => {
    const i = from + k
    const object = OBJECTS[i % OBJECTS.length]!
    const verb = VERBS[Math.floor(i / OBJECTS.length) % VERBS.length]!
    const site = `site${i}`
    return {
      ...base,
      id: randomUUID(),
      name: `${site}__${verb}_${object}`,
      siteHost: `www.${site}.example`,
      capabilityId: `www.${site}.example/${site}__${verb}_${object}`,
      intent: `${verb} ${object}`,
      description: `${verb} ${object} — POST /api/${object}`,
      mutating: verb === 'create' || verb === 'update',
      // Small specs: 100,000 copies of the directory tool's schemas would not fit in memory twice
      // (the API's tool cache and this process's list).
      output: { type: 'object', properties: { items: { type: 'array' } } },
      evidence: { ...base.evidence, exchangeIds: [], alternatives: [], signals: [] },
    }
  })
}
