/**
 * Runs only the search-latency part of the bench (`npx tsx test/bench/searchOnly.ts`): the
 * directory fixture, a core, then `runSearchBench` over 100 to 100,000 tools. For working on the
 * router without waiting for the whole `npm run bench`.
 */
import { QUERIES } from './config'
import { runSearchBench } from './search'
import { startBench } from './setup'

const env = await startBench(QUERIES)
try {
  await runSearchBench(env)
} finally {
  await env.close()
}
