import { existsSync, statSync } from 'node:fs'
import { cpus, arch, platform, totalmem } from 'node:os'
import { databasePath } from '../../src/main/config'
import type { BenchEnv } from './setup'

export interface Machine {
  node: string
  platform: string
  cpuModel: string
  cpuCount: number
  totalMemMB: number
}

export function machine(): Machine {
  const list = cpus()
  return {
    node: process.version,
    platform: `${platform()} ${arch()}`,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cpuCount: list.length,
    totalMemMB: mb(totalmem()),
  }
}

export const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10

/** Resident set size of this process, in MB: bench client, core and fixture together. */
export const rssMB = (): number => mb(process.memoryUsage().rss)

export interface StorageFigures {
  /** `sitecall.db` and its WAL, bytes, read while the core is still open (before a checkpoint). */
  dbBytes: number
  walBytes: number
  runs: number
  /** (db + wal) / runs: what one stored run costs on disk, the tool and key rows included. */
  bytesPerRun: number
  /** The saved tool's spec as JSON: parsed on every call to find the tool. */
  toolSpecBytes: number
}

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)

export function storageFigures(env: BenchEnv): StorageFigures {
  const path = databasePath(env.home)
  const { n } = env.core.store.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }
  const dbBytes = size(path)
  const walBytes = size(`${path}-wal`)
  return {
    dbBytes,
    walBytes,
    runs: n,
    bytesPerRun: n ? Math.round((dbBytes + walBytes) / n) : NaN,
    toolSpecBytes: Buffer.byteLength(JSON.stringify(env.tool)),
  }
}
