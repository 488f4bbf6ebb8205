import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { BenchConfig } from './config'
import { mb, type Machine, type StorageFigures } from './resources'
import type { LatencyResult, ThroughputResult } from './surfaceA'

export interface BenchResults {
  /** ISO 8601, when the run started. */
  date: string
  machine: Machine
  config: BenchConfig
  queries: string[]
  latency: LatencyResult
  throughput: ThroughputResult
  memory: { rssStartMB: number; rssAfterSetupMB: number; rssEndMB: number }
  storage: StorageFigures
  /** Sitecall calls that did not come back `succeeded`, warm-up included: any is a bench error. */
  sitecallFailures: number
  directFailures: number
}

const ms = (x: number) => x.toFixed(2)
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a')

/** Left-aligns the first column, right-aligns the others. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)))
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('   '),
    )
    .join('\n')
}

export function formatReport(r: BenchResults): string {
  const { latency: l, throughput: t, config: c, machine: m, storage: s, memory } = r
  const title = `Sitecall bench, ${r.date}`
  return [
    title,
    '='.repeat(title.length),
    `Node ${m.node}, ${m.platform}, ${m.cpuCount} × ${m.cpuModel}, ${m.totalMemMB} MB RAM`,
    `POST /api/search of the directory fixture, queries rotating over ${r.queries.length} words;`,
    `everything (client, core, fixture) in one process.`,
    '',
    `Sequential latency: ${c.n} calls per side after ${c.warmup} warm-up, batches of ${c.batch}`,
    table([
      ['ms', 'direct', 'Sitecall', 'Sitecall/direct'],
      ['p50', ms(l.direct.p50), ms(l.sitecall.p50), times(l.ratio.p50)],
      ['p99', ms(l.direct.p99), ms(l.sitecall.p99), times(l.ratio.p99)],
      ['mean', ms(l.direct.mean), ms(l.sitecall.mean), times(l.ratio.mean)],
      ['max', ms(l.direct.max), ms(l.sitecall.max), ''],
      ['failures', `${l.failures.direct.count}`, `${l.failures.sitecall.count}`, ''],
    ]),
    '',
    `Throughput: ${t.concurrency} in flight, ${c.seconds} s per side (ABBA halves)`,
    table([
      ['', 'direct', 'Sitecall', 'Sitecall/direct'],
      [
        'succeeded/s',
        t.direct.perSecond.toFixed(0),
        t.sitecall.perSecond.toFixed(0),
        times(t.ratio),
      ],
      ['calls', `${t.direct.calls}`, `${t.sitecall.calls}`, ''],
      ['failures', `${t.direct.failures.count}`, `${t.sitecall.failures.count}`, ''],
      ['p50 ms', ms(t.direct.latency.p50), ms(t.sitecall.latency.p50), ''],
      ['p99 ms', ms(t.direct.latency.p99), ms(t.sitecall.latency.p99), ''],
    ]),
    '',
    'Resources',
    table([
      ['RSS at start', `${memory.rssStartMB} MB`],
      ['RSS after setup', `${memory.rssAfterSetupMB} MB`],
      ['RSS at end', `${memory.rssEndMB} MB`],
      ['SQLite db + WAL', `${mb(s.dbBytes)} MB + ${mb(s.walBytes)} MB`],
      ['runs stored', `${s.runs}`],
      ['bytes per run', `${s.bytesPerRun}`],
      ['tool spec JSON', `${s.toolSpecBytes} bytes`],
    ]),
    '',
    r.sitecallFailures
      ? `ERROR: ${r.sitecallFailures} Sitecall call(s) did not succeed: ${JSON.stringify([
          r.latency.failures.sitecall.reasons,
          r.throughput.sitecall.failures.reasons,
        ])}`
      : 'Every Sitecall call came back succeeded.',
  ].join('\n')
}

export function writeJson(path: string, results: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`)
}
