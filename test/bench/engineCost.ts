// What one surface-A run costs the process, measured in CPU time rather than wall time, so a
// figure holds on a machine other work shares: the client, the core and the fixture site all run
// in this process, so CPU time per call of the Sitecall side minus that of the direct side is what
// the core adds. Blocks of each side alternate (A B A B …) and the medians are reported. With
// `--profile FILE` one more Sitecall block runs under the V8 profiler and the functions with the
// most self time are printed (the `.cpuprofile` opens in Chrome DevTools).
//
//   npx tsx test/bench/engineCost.ts [small|large] [--concurrency 16] [--runs 2000]
//     [--rounds 5] [--sides direct,sitecall,mcp] [--profile out.cpuprofile] [--top 15]
//
// The `mcp` side calls the same tool over MCP (the official SDK client, one session), `mcpRaw` as
// raw JSON-RPC (./mcpRaw.ts); the profile is of the last side named.
//
// Instructions instead of CPU time (exact on a busy machine, about 100× slower): run it under
// `valgrind --tool=callgrind` with `--sides sitecall` at two `--runs` values; the difference of
// the two totals over the difference of the calls is the instructions one call costs.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { performance } from 'node:perf_hooks'
import { attempt, createClients, type Call } from './clients'
import { QUERIES } from './config'
import { connectMcp, mcpCall } from './mcp'
import { connectRawMcp } from './mcpRaw'
import { startBench, type AnswerSize } from './setup'

type Side = 'direct' | 'sitecall' | 'mcp' | 'mcpRaw'
const SIDES: readonly Side[] = ['direct', 'sitecall', 'mcp', 'mcpRaw']

/** One block's figures: calls made, failures, CPU µs per call, calls per wall second. */
interface Block {
  calls: number
  failures: number
  cpuUsPerCall: number
  perSecond: number
}

/** Makes `runs` calls with `concurrency` in flight; CPU (user + system) and wall time of them. */
async function block(call: Call, runs: number, concurrency: number): Promise<Block> {
  let next = 0
  let failures = 0
  const reasons = new Map<string, number>()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const worker = async () => {
    while (next < runs) {
      const i = next++
      const result = await attempt(call, QUERIES[i % QUERIES.length]!)
      if (!result.ok) {
        failures++
        reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const used = process.cpuUsage(cpu)
  const seconds = (performance.now() - started) / 1000
  if (reasons.size) console.log(`  failed calls: ${JSON.stringify(Object.fromEntries(reasons))}`)
  return {
    calls: runs,
    failures,
    cpuUsPerCall: (used.user + used.system) / runs,
    perSecond: runs / seconds,
  }
}

const median = (xs: number[]): number => {
  if (!xs.length) return NaN
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

/** The functions with the most self time in a V8 CPU profile, as "share name (file:line)". */
export function topSelfTime(
  profile: { nodes: ProfileNode[]; samples?: number[] },
  top: number,
): string[] {
  const hits = new Map<string, number>()
  let total = 0
  for (const node of profile.nodes) {
    const n = node.hitCount ?? 0
    if (!n) continue
    const { functionName, url, lineNumber } = node.callFrame
    const file = url.replace(/^.*\/(node_modules\/)?/, (_m, nm: string | undefined) =>
      nm ? 'nm/' : '',
    )
    const name = `${functionName || '(anonymous)'} (${file || 'native'}:${lineNumber + 1})`
    hits.set(name, (hits.get(name) ?? 0) + n)
    total += n
  }
  return [...hits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`)
}

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const size: AnswerSize = args.includes('large') ? 'large' : 'small'
  const concurrency = Number(option(args, '--concurrency', '16'))
  const runs = Number(option(args, '--runs', '2000'))
  const rounds = Number(option(args, '--rounds', '5'))
  const profileOut = option(args, '--profile', '')
  const top = Number(option(args, '--top', '15'))
  const measured = option(args, '--sides', 'direct,sitecall').split(',')
  const env = await startBench(QUERIES, size)
  const rest = createClients(env)
  const mcp = measured.includes('mcp') ? await connectMcp(env) : null
  const raw = measured.includes('mcpRaw') ? await connectRawMcp(env) : null
  const clients: Record<Side, Call> = {
    direct: rest.direct,
    sitecall: rest.sitecall,
    mcp: mcp ? mcpCall(mcp, env) : rest.sitecall,
    mcpRaw: raw?.call ?? rest.sitecall,
  }
  try {
    const sides = SIDES.filter((s) => measured.includes(s))
    for (const side of sides) await block(clients[side], side === 'direct' ? 300 : 500, concurrency)
    const blocks: Record<Side, Block[]> = { direct: [], sitecall: [], mcp: [], mcpRaw: [] }
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 ? [...sides].reverse() : sides) {
        blocks[side].push(await block(clients[side], runs, concurrency))
        env.site.requests.length = 0
      }
    }
    await env.core.engine.idle()
    const failures = [...blocks.sitecall, ...blocks.mcp, ...blocks.mcpRaw].reduce(
      (s, b) => s + b.failures,
      0,
    )
    const cpu = (side: Side) => median(blocks[side].map((b) => b.cpuUsPerCall))
    const rate = (side: Side) => median(blocks[side].map((b) => b.perSecond))
    console.log(
      `${size} answers, ${concurrency} in flight, ${rounds} × ${runs} calls per side (medians):`,
    )
    console.log(
      `  CPU per call: direct ${cpu('direct').toFixed(0)} µs, Sitecall ${cpu('sitecall').toFixed(0)} µs, core adds ${(cpu('sitecall') - cpu('direct')).toFixed(0)} µs${sides.includes('mcp') ? `, MCP ${cpu('mcp').toFixed(0)} µs` : ''}${sides.includes('mcpRaw') ? `, raw MCP ${cpu('mcpRaw').toFixed(0)} µs` : ''}`,
    )
    console.log(
      `  calls/s: direct ${rate('direct').toFixed(0)}, Sitecall ${rate('sitecall').toFixed(0)}${sides.includes('mcp') ? `, MCP ${rate('mcp').toFixed(0)}` : ''}${sides.includes('mcpRaw') ? `, raw MCP ${rate('mcpRaw').toFixed(0)}` : ''}   CPU-bound ceiling ${(1e6 / cpu('sitecall')).toFixed(0)}/s   failures ${failures}`,
    )
    console.log(
      `  per round (Sitecall CPU µs): ${blocks.sitecall.map((b) => b.cpuUsPerCall.toFixed(0)).join(' ')}`,
    )
    if (profileOut) {
      const profiled = sides.at(-1)!
      const session = new Session()
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: 100 })
      await session.post('Profiler.start')
      await block(clients[profiled], runs, concurrency)
      const { profile } = await session.post('Profiler.stop')
      session.disconnect()
      writeFileSync(profileOut, JSON.stringify(profile))
      console.log(`  profile (${profiled} block, self time): ${profileOut}`)
      for (const line of topSelfTime(profile as never, top)) console.log(`    ${line}`)
    }
    return failures ? 1 : 0
  } finally {
    await mcp?.close()
    await raw?.close()
    await rest.close()
    await env.close()
  }
}

process.exitCode = await main()
