// What held the event loop while a phase of the bench ran (issue 12's tail latency): the loop's
// delay as a 1 ms interval sees it, and V8's garbage collections by kind, from the
// `gc` performance entries. A tail that a stall explains shows here as a loop delay near the
// slow calls' excess; a tail without one is queueing.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import {
  createHistogram,
  performance,
  PerformanceObserver,
  type PerformanceEntry,
} from 'node:perf_hooks'

/** One phase's stalls, milliseconds. */
export interface StallSummary {
  loopDelay: { p50Ms: number; p99Ms: number; maxMs: number }
  /** Pauses by V8 kind (`minor` scavenges, `major` mark-compacts, `incremental`, `weak`). */
  gc: Record<string, { count: number; totalMs: number; maxMs: number }>
  /**
   * Connections undici opened meanwhile (`undici:client:connected`): the client's to the server
   * and the engine's to the site. In steady running this is 0; each one made calls wait.
   */
  connects: number
  /** Each pause with its start (`performance.now()` ms): to line up with slow calls. */
  pauses: Array<{ kind: string; startMs: number; ms: number }>
}

/** V8's `NODE_PERFORMANCE_GC_*` kinds by their flag value (Node's perf_hooks constants). */
const KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak' }

/**
 * A watch that counts only while on: `resume()` and `pause()` around each segment of a phase
 * (the ABBA segments of a throughput phase), `summary()` once at the end.
 */
export interface StallWatch {
  resume(): void
  pause(): void
  summary(): StallSummary
}

export function createStallWatch(): StallWatch {
  // The loop's delay sampled by a 1 ms interval (as `monitorEventLoopDelay` does, which cannot
  // be paused without counting the pause itself as one long delay): how late each tick came.
  const loop = createHistogram()
  let timer: NodeJS.Timeout | undefined
  let last = 0
  const tick = () => {
    const now = performance.now()
    loop.record(Math.max(1, Math.round((now - last - 1) * 1e6)))
    last = now
  }
  const pauses: StallSummary['pauses'] = []
  const record = (entries: PerformanceEntry[]) => {
    for (const entry of entries) {
      const flag = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0
      pauses.push({ kind: KINDS[flag] ?? 'other', startMs: entry.startTime, ms: entry.duration })
    }
  }
  const observer = new PerformanceObserver((list) => record(list.getEntries()))
  let connects = 0
  const connected = () => connects++
  return {
    resume() {
      observer.observe({ entryTypes: ['gc'] })
      subscribe('undici:client:connected', connected)
      last = performance.now()
      timer = setInterval(tick, 1)
    },
    pause() {
      clearInterval(timer)
      // Entries still buffered belong to the segment that just ended.
      record(observer.takeRecords())
      observer.disconnect()
      unsubscribe('undici:client:connected', connected)
    },
    summary() {
      const gc: StallSummary['gc'] = {}
      for (const p of pauses) {
        const g = (gc[p.kind] ??= { count: 0, totalMs: 0, maxMs: 0 })
        g.count++
        g.totalMs += p.ms
        g.maxMs = Math.max(g.maxMs, p.ms)
      }
      return {
        loopDelay: {
          p50Ms: loop.percentile(50) / 1e6,
          p99Ms: loop.percentile(99) / 1e6,
          maxMs: loop.max / 1e6,
        },
        gc,
        connects,
        pauses,
      }
    },
  }
}

/** A summary as one line: loop delay, then each kind of GC with its count, total and longest. */
export function formatStalls(s: StallSummary): string {
  const f = (x: number) => x.toFixed(1)
  const gc = Object.entries(s.gc)
    .map(([k, g]) => `${k} ${g.count}× ${f(g.totalMs)} ms (max ${f(g.maxMs)})`)
    .join(', ')
  return `${s.connects} new connections; loop delay p50 ${f(s.loopDelay.p50Ms)} / p99 ${f(s.loopDelay.p99Ms)} / max ${f(s.loopDelay.maxMs)} ms; GC ${gc || 'none'}`
}
