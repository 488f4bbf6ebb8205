// Search latency (issue 5 "npm run bench"): `POST /v1/tools/search` over ~100 tools of the
// workspace, end to end over HTTP (auth, receipt lookup, billing, routing, receipt write), next to
// the router alone in this process. Writes bench-results/search.json; timings never fail the run.
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
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

export interface SearchBenchResults {
  tools: number
  requests: number
  http: LatencySummary
  routerOnly: LatencySummary
}

/**
 * Saves ~100 tools (the directory search plus 100 variations over 20 sites' objects and five
 * verbs), then times `requests` searches with a fresh operation key each (every one routes and
 * bills) and as many calls of the router alone. Prints the table; returns the figures.
 */
export async function runSearchBench(env: BenchEnv, requests = 400): Promise<SearchBenchResults> {
  const tools = [env.tool, ...variations(env.tool, 100)]
  for (const tool of tools.slice(1)) env.core.store.tools.save(tool)
  const all = env.core.store.tools.list()
  const http: number[] = []
  for (let i = 0; i < requests + 20; i++) {
    const started = performance.now()
    const res = await fetch(`${env.base}/v1/tools/search`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env.key}`,
        'content-type': 'application/json',
        'idempotency-key': `bench-search-${i}-${randomUUID()}`,
      },
      body: JSON.stringify({ intent: INTENTS[i % INTENTS.length] }),
    })
    await res.text()
    if (res.status !== 200) throw new Error(`Search answered ${res.status}.`)
    // The first 20 warm the JIT and the router's profile cache.
    if (i >= 20) http.push(performance.now() - started)
  }
  const router = createToolRouter()
  const routerOnly: number[] = []
  for (let i = 0; i < requests + 20; i++) {
    const started = performance.now()
    router.route(INTENTS[i % INTENTS.length]!, all)
    if (i >= 20) routerOnly.push(performance.now() - started)
  }
  const results = {
    tools: all.length,
    requests,
    http: summarize(http),
    routerOnly: summarize(routerOnly),
  }
  const row = (name: string, s: LatencySummary) =>
    `${name.padEnd(34)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.mean.toFixed(2).padStart(8)}`
  console.log(`Search latency over ${results.tools} tools, ${requests} requests (ms)`)
  console.log(`${''.padEnd(34)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'mean'.padStart(8)}`)
  console.log(row('POST /v1/tools/search (HTTP)', results.http))
  console.log(row('router.route alone (in process)', results.routerOnly))
  mkdirSync(dirname(OUT), { recursive: true })
  writeFileSync(OUT, `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`)
  console.log(`JSON: ${OUT}`)
  return results
}

/** `count` tools cloned from `base` with other sites, names and intents (verb × object). */
function variations(base: ToolSpec, count: number): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => {
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
    }
  })
}
