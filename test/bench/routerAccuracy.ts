// Router accuracy (issue 10 "Measured"): the hand-written paraphrases of test/apps/paraphrases.json
// routed among the tools compiled from the real-app corpus's stored recordings. Reports, per split
// (dev: tuned on; test: never tuned on): top-1 at >= 0.9, recall within the matches, mean
// reciprocal rank, and false matches of the intents that must match nothing.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fitted from '../../src/main/router/rankerParams.json' with { type: 'json' }
import { createToolRouter, MIN_SCORE, type ToolRouter } from '../../src/main/router/router'
import { siteOfTrace } from '../../src/main/router/siteOfTrace'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { FitRecord } from './routerFit'
import { compileStored, loadStoredWorkflows, type StoredWorkflow } from '../apps/corpus'
import { appNames } from '../apps/registry'

const PARAPHRASES = fileURLToPath(new URL('../apps/paraphrases.json', import.meta.url))
/** Paraphrases of the apps that joined the corpus later, written blind (measured, never tuned on). */
export const HELD_OUT = fileURLToPath(new URL('../apps/paraphrases-heldout.json', import.meta.url))
/**
 * Paraphrases of the apps of waves 4 and 5 (Supervisor, Rspamd, RabbitMQ, Tomcat, Nagios), written
 * blind by someone who never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_NEW = fileURLToPath(
  new URL('../apps/paraphrases-wave45.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 6 (Redis Commander, Adminer), written blind by someone who
 * never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE6 = fileURLToPath(
  new URL('../apps/paraphrases-wave6.json', import.meta.url),
)
/**
 * Paraphrases of the apps of waves 7 and 8 (Roundcube, phpMyAdmin, PostfixAdmin, CUPS, Tiny Tiny
 * RSS, phpLDAPadmin), written blind by someone who never saw the router; first measured on
 * arrival, never tuned on.
 */
export const HELD_OUT_WAVE78 = fileURLToPath(
  new URL('../apps/paraphrases-wave78.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 9 (ikiwiki, Zabbix), written blind by someone who never saw the
 * router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE9 = fileURLToPath(
  new URL('../apps/paraphrases-wave9.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 10 (Cacti, Graphite), written blind by someone who never saw the
 * router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE10 = fileURLToPath(
  new URL('../apps/paraphrases-wave10.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 11 (DAViCal, LDAP Account Manager), written blind by someone who
 * never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE11 = fileURLToPath(
  new URL('../apps/paraphrases-wave11.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 12 (Request Tracker, ejabberd's web admin), written blind by
 * someone who never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE12 = fileURLToPath(
  new URL('../apps/paraphrases-wave12.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 13 (hledger-web, calibre's content server), written blind by
 * someone who never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE13 = fileURLToPath(
  new URL('../apps/paraphrases-wave13.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 14 (Icinga Web 2, Mailman 3's web UI Postorius), written blind
 * by someone who never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE14 = fileURLToPath(
  new URL('../apps/paraphrases-wave14.json', import.meta.url),
)
/**
 * Paraphrases of the apps of wave 15 (mlmmj's web admin, Privoxy), written blind by someone who
 * never saw the router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE15 = fileURLToPath(
  new URL('../apps/paraphrases-wave15.json', import.meta.url),
)
/**
 * Paraphrases of the app of wave 16 (Gitit), written blind by someone who never saw the router;
 * first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE16A = fileURLToPath(
  new URL('../apps/paraphrases-wave16a.json', import.meta.url),
)
/**
 * Paraphrases of the app of wave 16 (Tryton), written blind by someone who never saw the router;
 * first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE16B = fileURLToPath(
  new URL('../apps/paraphrases-wave16b.json', import.meta.url),
)
/**
 * Paraphrases of the app of wave 17 (Federated Wiki), written blind by someone who never saw the
 * router; first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE17A = fileURLToPath(
  new URL('../apps/paraphrases-wave17a.json', import.meta.url),
)
/**
 * Paraphrases of the app of wave 17 (Xymon), written blind by someone who never saw the router;
 * first measured on arrival, never tuned on.
 */
export const HELD_OUT_WAVE17B = fileURLToPath(
  new URL('../apps/paraphrases-wave17b.json', import.meta.url),
)
/**
 * The blind paraphrase sets of later apps, in the order they arrived (name, file): each measured
 * on arrival first.
 */
export const BLIND_SETS: ReadonlyArray<readonly [string, string]> = [
  ['held-out', HELD_OUT],
  ['waves 4-5', HELD_OUT_NEW],
  ['wave 6', HELD_OUT_WAVE6],
  ['waves 7-8', HELD_OUT_WAVE78],
  ['wave 9', HELD_OUT_WAVE9],
  ['wave 10', HELD_OUT_WAVE10],
  ['wave 11', HELD_OUT_WAVE11],
  ['wave 12', HELD_OUT_WAVE12],
  ['wave 13', HELD_OUT_WAVE13],
  ['wave 14', HELD_OUT_WAVE14],
  ['wave 15', HELD_OUT_WAVE15],
  ['wave 16a', HELD_OUT_WAVE16A],
  ['wave 16b', HELD_OUT_WAVE16B],
  ['wave 17a', HELD_OUT_WAVE17A],
  ['wave 17b', HELD_OUT_WAVE17B],
]

/** The pinned answers of the development half (`routerPins.ts` writes them). */
export const DEV_PINS = fileURLToPath(
  new URL('../integration/router/devPins.json', import.meta.url),
)

/**
 * One hand-written intent: the tool it must reach first (`<app>/<workflow>`), or the tools that
 * are equally right (two workflows that record the same request), or null.
 */
export interface Paraphrase {
  text: string
  expect: string | string[] | null
  split: 'dev' | 'test' | 'heldout'
}

/** The paraphrase set, as fixed in the file (`HELD_OUT` for the held-out set, when present). */
export function loadParaphrases(file = PARAPHRASES): Paraphrase[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Paraphrase[]) : []
}

/**
 * What the router answers for one intent, in one line: `matched <id>` (its first match),
 * `candidate <id>`, `unavailable`, `tie <id>,<id>` (tools named, issue 25 E), or
 * `needs_observation`.
 */
export function answerOf(router: ToolRouter, text: string, tools: readonly ToolSpec[]): string {
  const routed = router.route(text, tools)
  if (routed.status === 'matched') return `matched ${routed.tools[0]!.id}`
  if (routed.status === 'candidate') return `candidate ${routed.candidate!.id}`
  if (routed.ties) return `tie ${routed.ties.tools.map((t) => t.id).join(',')}`
  return routed.status
}

/** The answer to each development paraphrase, by text (the pins' shape). */
export function devAnswers(
  tools: readonly ToolSpec[],
  paraphrases: readonly Paraphrase[],
  router: ToolRouter = createToolRouter(),
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of paraphrases) if (p.split === 'dev') out[p.text] = answerOf(router, p.text, tools)
  return out
}

/** True when `answer` (an `answerOf` line) is what `p` expects. */
export function answerIsRight(p: Paraphrase, answer: string): boolean {
  if (p.expect === null) return !answer.startsWith('matched ')
  return answer.startsWith('matched ') && [p.expect].flat().includes(answer.slice(8))
}

/** What the fitting script recorded beside the parameters (`routerFit.ts` `FitRecord`). */
const FITTED_RECORD = fitted as unknown as FitRecord

export interface CorpusTools {
  /** Verified tools, each with its workflow's `<app>/<workflow>` as id. */
  tools: ToolSpec[]
  /** Workflows without a compiled tool (not recorded yet, or no candidate). */
  missing: string[]
  /** Tools whose `site` the compiler did not fill: filled here from the trace. */
  siteFilled: number
}

/** The apps the paraphrases were written for (the apps of their expected tools). */
export function paraphrasedApps(paraphrases: Paraphrase[] = loadParaphrases()): Set<string> {
  const apps = new Set<string>()
  for (const p of paraphrases)
    for (const ref of p.expect === null ? [] : [p.expect].flat()) apps.add(ref.split('/')[0]!)
  return apps
}

/**
 * Compiles every stored recording of the given corpus apps (the recorder's trace, else the plain
 * HAR) into a verified tool named by its workflow. A tool without `site` gets `siteOfTrace(trace)`,
 * as the compiler is asked to do (counted in `siteFilled`). By default the apps the paraphrases
 * were written for: the apps that joined the corpus later have no paraphrases yet, and their tools
 * would change what the paraphrase figures measure.
 */
export async function loadCorpusTools(
  apps: Iterable<string> = paraphrasedApps(),
): Promise<CorpusTools> {
  const wanted = new Set(apps)
  const tools: ToolSpec[] = []
  const missing: string[] = []
  let siteFilled = 0
  // One app at a time: an app whose definition does not load (being written) is reported, not fatal.
  const stored: StoredWorkflow[] = []
  for (const name of appNames().filter((n) => wanted.has(n)))
    try {
      stored.push(...(await loadStoredWorkflows([name])))
    } catch (error) {
      missing.push(`${name}/* (${(error as Error).message.split('\n')[0]})`)
    }
  // Each workflow was recorded on a fresh instance of its app (a new port each time); in a
  // workspace an app has one address, which its tools share (the router pools a site's words).
  const hostOf = new Map<string, string>()
  for (const [i, entry] of stored.entries()) {
    const path = entry.recording ? 'recording' : 'har'
    const result = compileStored(entry, path)
    const trace = (entry.recording ?? entry.har)?.trace
    if (!result?.ok || !trace) {
      missing.push(entry.ref)
      continue
    }
    const app = entry.ref.split('/')[0]!
    if (!hostOf.has(app)) hostOf.set(app, result.candidate.siteHost)
    const tool: ToolSpec = {
      ...result.candidate,
      siteHost: hostOf.get(app)!,
      id: entry.ref,
      status: 'verified',
      createdAt: i,
      updatedAt: i,
    }
    if (!tool.site) {
      tool.site = siteOfTrace(trace)
      siteFilled++
    }
    tools.push(tool)
  }
  return { tools, missing, siteFilled }
}

export interface AccuracyFigures {
  split: 'dev' | 'test' | 'all'
  /** Intents whose tool exists among the compiled tools. */
  intents: number
  /** Share (0 to 1) ranked first with a score of at least 0.9. */
  top1: number
  /** Share whose tool is among the matches (score >= 0.9, at most 10). */
  recall: number
  /** Mean of 1 / rank of the right tool in the full ranking. */
  mrr: number
  /** Intents that must match nothing. */
  nothing: number
  /** Of those, how many matched a tool. */
  falseMatches: number
  /** Intents skipped because their workflow has no compiled tool. */
  skipped: number
  misses: Array<{ text: string; expect: string | null; got: string | null; score: number }>
  /** Per app (`<app>` of `<app>/<workflow>`): intents and how many were ranked first at 0.9+. */
  perApp: Record<string, { intents: number; top1: number }>
}

/** Routes every paraphrase of `split` among `tools` and measures the figures above. */
export function measureAccuracy(
  tools: ToolSpec[],
  paraphrases: Paraphrase[],
  split: 'dev' | 'test' | 'all',
  router: ToolRouter = createToolRouter(),
): AccuracyFigures {
  const ids = new Set(tools.map((t) => t.id))
  const figures: AccuracyFigures = {
    split,
    intents: 0,
    top1: 0,
    recall: 0,
    mrr: 0,
    nothing: 0,
    falseMatches: 0,
    skipped: 0,
    misses: [],
    perApp: {},
  }
  for (const p of paraphrases.filter((x) => split === 'all' || x.split === split)) {
    const wanted = p.expect === null ? null : [p.expect].flat()
    const right = (id: string | undefined) => id !== undefined && wanted!.includes(id)
    if (wanted !== null && !wanted.some((id) => ids.has(id))) {
      figures.skipped++
      continue
    }
    const routed = router.route(p.text, tools)
    const first = routed.tools[0] ?? null
    if (wanted === null) {
      figures.nothing++
      if (first) {
        figures.falseMatches++
        figures.misses.push({ text: p.text, expect: null, got: first.id, score: first.score })
      }
      continue
    }
    figures.intents++
    const app = (figures.perApp[wanted[0]!.split('/')[0]!] ??= { intents: 0, top1: 0 })
    app.intents++
    const ranked = router.rank(p.text, tools)
    const rank = ranked.findIndex((m) => right(m.id)) + 1
    if (rank > 0) figures.mrr += 1 / rank
    if (routed.tools.some((m) => right(m.id))) figures.recall++
    if (right(first?.id) && first!.score >= MIN_SCORE) {
      figures.top1++
      app.top1++
    } else
      figures.misses.push({
        text: p.text,
        expect: wanted.join(' or '),
        got: ranked[0]?.id ?? null,
        score: ranked[0]?.score ?? 0,
      })
  }
  const n = figures.intents || 1
  figures.top1 /= n
  figures.recall /= n
  figures.mrr /= n
  return figures
}

/**
 * Prints the router's held-out figures (issue 25 F): leave-one-app-out on the development half as
 * the fitting script measured it (`rankerParams.json`), the test half and the held-out paraphrases
 * of the newer apps measured now (never tuned on, never asserted), and the development half, among
 * the tools of every corpus app; the test half's misses by kind only. Returns the figures.
 */
export async function runRouterAccuracyBench(): Promise<AccuracyFigures[]> {
  const corpus = await loadCorpusTools(appNames())
  const router = createToolRouter()
  const sets: Array<[string, Paraphrase[], 'dev' | 'test' | 'all']> = [
    ['dev', loadParaphrases(), 'dev'],
    ['test', loadParaphrases(), 'test'],
    ...BLIND_SETS.map(([name, file]): [string, Paraphrase[], 'all'] => [
      name,
      loadParaphrases(file),
      'all',
    ]),
  ]
  const results = sets.map(([, list, split]) => measureAccuracy(corpus.tools, list, split, router))
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7)
  const { loao, tools, paraphrases } = FITTED_RECORD.fitted
  console.log(
    `Router (fitted ranker), leave one app out on the development half when fitted (${paraphrases} paraphrases, ${tools} tools): ` +
      `top-1 ${pct(loao.top1)}, recall ${pct(loao.recall)}, MRR ${loao.mrr.toFixed(3)}, false matches ${pct(loao.falseMatches)}`,
  )
  console.log(
    `Router accuracy: ${corpus.tools.length} tools from every corpus app` +
      ` (${corpus.missing.length} workflows without a tool; site names filled from the trace for ${corpus.siteFilled})`,
  )
  console.log(`${'set'.padEnd(9)} intents   top-1  recall     MRR  nothing  false matches  skipped`)
  results.forEach((r, i) =>
    console.log(
      `${sets[i]![0].padEnd(9)} ${String(r.intents).padStart(7)} ${pct(r.top1)} ${pct(r.recall)} ${r.mrr.toFixed(3).padStart(7)} ${String(r.nothing).padStart(8)} ${String(r.falseMatches).padStart(14)} ${String(r.skipped).padStart(8)}`,
    ),
  )
  const measured = sets.slice(1).map(([name], i) => [i + 1, name] as const)
  for (const [i, name] of measured)
    console.log(
      `${name} top-1 per app: ${Object.entries(results[i]!.perApp)
        .map(([app, a]) => `${app} ${a.top1}/${a.intents}`)
        .join(', ')}`,
    )
  // The held-out texts stay unread by whoever tunes the router: only what kind of miss.
  for (const [i, name] of measured) {
    const r = results[i]!
    const wrongTool = r.misses.filter(
      (m) => m.expect !== null && !m.expect.split(' or ').includes(m.got ?? ''),
    )
    console.log(
      `${name} misses: ${r.misses.length} (right tool first under ${MIN_SCORE}: ${r.misses.length - wrongTool.length - r.falseMatches}, another tool first: ${wrongTool.length}, false matches: ${r.falseMatches})`,
    )
  }
  const own = measureOwnApps(
    corpus.tools,
    BLIND_SETS.flatMap(([, file]) => loadParaphrases(file)),
    router,
  )
  console.log(
    `Blind sets, each intent among its own app's tools alone: right tool first ${own.first}/${own.intents}, at ${MIN_SCORE} or more ${own.matched}/${own.intents}`,
  )
  return results
}

/**
 * Routes each paraphrase of `paraphrases` that expects a tool among the tools of that tool's app
 * alone (a workspace of one site): how many put the right tool first, and first with a score of
 * at least `MIN_SCORE`. What it leaves out of {@link measureAccuracy} is telling apps apart (seven
 * wikis in the corpus); what it keeps is the choice among a site's own tools and the calibration.
 */
export function measureOwnApps(
  tools: ToolSpec[],
  paraphrases: Paraphrase[],
  router: ToolRouter = createToolRouter(),
): { intents: number; first: number; matched: number } {
  const out = { intents: 0, first: 0, matched: 0 }
  for (const p of paraphrases) {
    if (p.expect === null) continue
    const wanted = [p.expect].flat()
    const app = wanted[0]!.split('/')[0]!
    const own = tools.filter((t) => t.id.startsWith(`${app}/`))
    if (!own.some((t) => wanted.includes(t.id))) continue
    out.intents++
    const top = router.rank(p.text, own)[0]
    if (!top || !wanted.includes(top.id)) continue
    out.first++
    // Matched as `measureAccuracy` counts it: the route's first match (a tie matches nothing).
    const routed = router.route(p.text, own).tools[0]
    if (routed && wanted.includes(routed.id) && routed.score >= MIN_SCORE) out.matched++
  }
  return out
}
