import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, LOCAL_TENANT, type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import {
  generateRecords,
  searchRecords,
  startDirectorySite,
  type DirectoryRecord,
  type DirectorySite,
} from '../fixtures/sites/directory'
import { makeSearchTool } from '../fixtures/harness/searchTool'

export interface BenchEnv {
  /** The core's data dir: a fresh temp dir holding `sitecall.db`. */
  home: string
  core: Core
  /** `http://127.0.0.1:PORT` of the core's local service. */
  base: string
  site: DirectorySite
  tool: ToolSpec
  /** A personal `svc_live_…` key of the local workspace. */
  key: string
  /** Closes the site, then the core, then removes the data dir; safe after a partial start. */
  close(): Promise<void>
  /**
   * Closes the core and starts a new one on the same data dir (a restart of the app): `core` and
   * `base` are the new core's afterwards; the key and the tools are the stored ones.
   */
  restart(): Promise<void>
}

/** How big the search tool's answers are: the directory's full records (about 72 KB) or small. */
export type AnswerSize = 'large' | 'small'

/**
 * The directory's records cut to a name, two tags and a rank, so a search answers about 1.3 KB
 * (12 records) instead of about 72 KB: the bench's small answers (issue 12).
 */
export function smallRecords(): DirectoryRecord[] {
  return generateRecords().map(
    (r) =>
      ({
        toolName: r.toolName,
        toolShortDescription: '',
        tagsIndex: r.tagsIndex.slice(0, 2),
        topRank: r.topRank,
      }) as unknown as DirectoryRecord,
  )
}

/**
 * Starts what the bench measures, all in this process: the directory fixture (full records, or
 * `smallRecords()` for `size: 'small'`) and a real core (real SQLite file, port 0), with the
 * verified search tool and a key. Throws (after cleaning up) when any part cannot start or when
 * a bench query would find nothing.
 */
export async function startBench(
  queries: readonly string[],
  size: AnswerSize = 'large',
): Promise<BenchEnv> {
  const home = mkdtempSync(join(tmpdir(), 'sitecall-bench-'))
  let site: DirectorySite | undefined
  let core: Core | undefined
  const close = async () => {
    await site?.close()
    await core?.close()
    rmSync(home, { recursive: true, force: true })
  }
  try {
    site = await startDirectorySite(size === 'small' ? { records: smallRecords() } : {})
    for (const query of queries)
      if (!searchRecords(site.records, { query }).count)
        throw new Error(`The bench query "${query}" matches no fixture record.`)
    // The bench drives thousands of calls a second through one key: the per-key limit is off.
    core = createCore({ home, port: 0, rendererDir: null, rateLimits: null })
    const base = await core.listen()
    const restart = async () => {
      await core?.close()
      core = undefined
      core = createCore({ home, port: 0, rendererDir: null, rateLimits: null })
      env.base = await core.listen()
      env.core = core
    }
    const { tool } = await makeSearchTool(core, site)
    const { key } = core.store.keys.create(
      { id: 'key_bench', tenant: LOCAL_TENANT, label: 'bench' },
      Date.now(),
    )
    // Runs bill a credit each: past the free grant's 10,000 a fast run would end in 402
    // quota_exceeded and measure the refusal instead of the call.
    core.store.ledger.purchase(LOCAL_TENANT, 'purchase:bench', 100_000_000, Date.now())
    const env: BenchEnv = { home, core, base, site, tool, key, close, restart }
    return env
  } catch (error) {
    await close()
    throw error
  }
}
