/**
 * The tool router (docs/architecture.md "router: intent ► ranked tools, calibrated scores"): an intent in
 * plain words, ranked tools out, each with a score whose meaning is fixed (interface.md "Tool match":
 * matches score 0.9 or more).
 *
 * 1. Read the intent once (`../intent/readIntent.ts`). Text the router cannot read (another
 *    script, another language) answers `needs_observation` and says so: a match
 *    built from the few words left would be a guess.
 * 2. The choice set: the tools that share a word with the intent by meaning, or are on the site
 *    it names, or do the sign-in it asks (`factIndex.ts`), and those the rule engine finds
 *    (`ruleEngine.ts`, one feature source among the others). Exact by construction:
 *    what the indexes guarantee of a tool they leave out bounds its features (`features.ts`
 *    `UNFOUND_RANGES`; the rules count such a tool at most 0.899), and so its score under the
 *    fitted weights (`INDEX_IS_EXACT`): `route` answers what ranking every tool (`rank`) would.
 * 3. Rank (`ranker.ts`): features of each tool from what its request does (`toolFacts.ts`), a
 *    conditional logit whose weights and calibration `test/bench/routerFit.ts` fits
 *    (`rankerParams.json`; calibrated on leave-one-app-out scores).
 * 4. Answer: the verified tools at 0.9 or more (at most 10), else an untested candidate, else a
 *    quarantined tool (`unavailable`), else `needs_observation`, naming tied tools and what would
 *    tell them apart when two that do different things share the intent.
 *
 * Speed: facts are kept per tool (`factIndex.ts`, the rules' own index in `ruleEngine.ts`); a
 * search looks only at its choice set. `warm(tools)` builds both ahead of the first search;
 * `build(tools)` does it in steps that leave the event loop free (the build at start:
 * the first search after a start is as fast as the next), and `ready()` is what a search awaits.
 */
import { performance } from 'node:perf_hooks'
import type { JsonSchema, ToolSpec } from '../../shared/toolSpec'
import { languageName } from '../intent/language'
import { warmTagger } from '../intent/tokens'
import { FactIndex, type FactEntry } from './factIndex'
import { UNFOUND_RULE_MAX, type IntentView } from './features'
import {
  FITTED,
  namedFeatures,
  rankEntries,
  tieOf,
  unfoundCeiling,
  viewOf,
  type RankedTool,
  type Ranking,
  type Tie,
} from './ranker'
import { createRuleScorer, type RuleScore, type RuleScorer } from './ruleEngine'
import type { MatchEvidence as RuleEvidence } from './score'
import { slotInputSchema, type SlotInputs } from './slotSchema'

/** interface.md "Limits": search matches at most 10, minimum score 0.9. */
export const MIN_SCORE = 0.9
export const MAX_MATCHES = 10

/** interface.md "Search result status". */
type RouteStatus = 'matched' | 'candidate' | 'needs_observation' | 'unavailable'

/** Why a tool was ranked where it is. */
interface MatchEvidence {
  /** The act asked and the tool's act (from its request: `toolFacts.ts`). */
  verb: { intent: string | null; tool: string; from: string }
  /** The intent's head noun, or null. */
  head: string | null
  /** Site names the intent said. */
  sites: string[]
  /** The ranker's features of this tool, by name. */
  features: Record<string, number>
  /** Probability among the choices before calibration, and of no tool at all. */
  probability: number
  none: number
  /**
   * The rule engine's score as the ranker counts it and its evidence, when it scored the tool (a
   * feature source); `scored`: its own score, when capped (`ChoiceSet.rules`).
   */
  rules?: RuleEvidence & { score: number; scored?: number }
}

/** One ranked tool (interface.md "Tool match"). */
export interface ToolMatch {
  /** UUID */
  id: string
  name: string
  siteHost: string
  status: ToolSpec['status']
  mutating: boolean
  intent: string
  description: string
  score: number
  /** `POST` path that runs it with slot inputs. */
  endpoint: string
  /** `p0..pn` as strings, each with its declared type. */
  inputs: SlotInputs
  schema: { input: JsonSchema; output: JsonSchema }
  evidence: MatchEvidence & {
    /** What the compiler saw: the trace and exchange the tool came from, its signal names. */
    compiled: { traceId: string; targetExchangeId: string; signals: string[] }
  }
}

export interface RouteResult {
  status: RouteStatus
  /** Callable (verified) matches, best first, each scoring at least 0.9. */
  tools: ToolMatch[]
  /** With `candidate`: the best untested candidate; its first execution must verify it. */
  candidate?: ToolMatch
  /** Why there is no match (needs_observation, unavailable). */
  reason?: string
  /** With a tie: the tools that share the intent and what would tell them apart. */
  ties?: { tools: Array<{ id: string; name: string; siteHost: string }>; tellApart: string }
}

interface RouteOptions {
  /** Bare host: only tools on it or its subdomains (interface.md "B" `domain`); a port must also match. */
  domain?: string | null
}

export interface ToolRouter {
  /**
   * Ranks `tools` for `intent` (1 to 2000 characters, checked by the caller). `matched` when a
   * verified tool scores 0.9 or more (up to 10 of them); else `candidate` when an untested
   * candidate does; else `unavailable` when only a quarantined tool does (it failed its checks);
   * else `needs_observation`.
   */
  route(intent: string, tools: readonly ToolSpec[], options?: RouteOptions): RouteResult
  /** Every tool with its score, best first (tests, diagnostics); no threshold applied. */
  rank(intent: string, tools: readonly ToolSpec[], options?: RouteOptions): ToolMatch[]
  /**
   * Builds the facts of `tools` and loads the language model now, so the first search after a
   * start does not pay for them (the first search after a start is as fast as the next).
   */
  warm(tools: readonly ToolSpec[]): void
  /**
   * Builds what {@link warm} builds, in steps of about {@link BUILD_SLICE_MS} ms between which
   * the event loop runs (a server starting with 100,000 tools keeps answering), ending with the
   * sync a search of `tools` would do: a search of the same list then looks nothing up. Resolves
   * when built; never rejects (a failure is left for the first search to meet and report).
   * A build already running is followed by this one.
   */
  build(tools: readonly ToolSpec[]): Promise<void>
  /**
   * Resolves when no build is running (at once without one). A search that arrives during the
   * build at start awaits it, then routes as usual: the tools it passes are synced then, so a
   * tool saved during the build is found.
   */
  ready(): Promise<void>
}

/**
 * True when no tool outside an intent's choice set can score {@link MIN_SCORE} under the fitted
 * weights (`ranker.ts` `unfoundCeiling`: 0.862 for the weights of now): `route` then ranks the
 * choice set only, and answers what ranking every tool would. Weights for which it is false make
 * `route` rank every tool (exact, slower: a refit must keep it true, `test/unit/router`).
 */
export const INDEX_IS_EXACT = unfoundCeiling(FITTED) < MIN_SCORE

/** Longest step of a {@link ToolRouter.build} before it lets the event loop run, in ms. */
const BUILD_SLICE_MS = 15

/** The choice set of one intent: its reading, the tools to rank, the rule engine's scores. */
export interface ChoiceSet {
  view: IntentView
  entries: FactEntry[]
  /** With `all`: the other tools, ranked outside the choice set. */
  outside: FactEntry[]
  /**
   * The rule engine's scores by tool id, as the ranker counts them: a tool the rules' index did
   * not find counts at most `UNFOUND_RULE_MAX` (0.899, `features.ts`), its own score kept in
   * `scored`. The rules' index lists the tools that may reach the rules' 0.9 and `route` looks
   * only at what the indexes list, so a rule score of 0.9 or more outside them would lift a tool
   * no search sees (Deluge's limit-speed tool, scored 0.966 by the rules for `mark the
   * latest edit to Book Club as patrolled` though their index did not find it, scored 0.918 in
   * `rank` and was absent from `route`).
   */
  rules: Map<string, RuleScore & { scored?: number }>
}

/**
 * The choice set of `intent` among `tools` (step 2 of the file comment), the same for routing,
 * ranking and fitting (`test/bench/routerFit.ts`), with the tools outside it. Only tools on
 * `domain` (and its subdomains) when one is given; the index holds them all either way, so a
 * search on one site does not drop what is known of the others. With `all`, the rule engine also
 * scores the tools outside the choice set (`rank` ranks them).
 */
export function choiceSet(
  intent: string,
  tools: readonly ToolSpec[],
  index: FactIndex,
  rules: RuleScorer,
  { all = false, domain = null }: { all?: boolean; domain?: string | null } = {},
): ChoiceSet {
  const synced = index.sync(tools)
  const inDomain = (e: FactEntry) => !domain || hostInDomain(e.tool.siteHost, domain)
  const view = viewOf(intent, index)
  if (!view.intent.readability.readable) return { view, entries: [], outside: [], rules: new Map() }
  const found = index.candidates(view).filter(inDomain)
  const entries = domain ? synced.filter(inDomain) : synced
  const scores = counted(
    rules.scores(intent, tools, new Set((all ? entries : found).map((e) => e.tool.id))),
  )
  const set = new Set(found)
  // And the tools the rules' own index finds (those that may reach the rules' 0.9), in the
  // order of `tools`: looked up by id, not by a pass over every tool (speed).
  const more: FactEntry[] = []
  for (const [id, score] of scores)
    if (score.found) {
      const e = index.current(id)
      if (e && !set.has(e) && inDomain(e)) more.push(e)
    }
  more.sort((a, b) => a.position - b.position)
  for (const e of more) set.add(e)
  const outside = all ? entries.filter((e) => !set.has(e)) : []
  return { view, entries: [...set], outside, rules: scores }
}

/** `scores` as the ranker counts them (`ChoiceSet.rules`): capped where the index did not find. */
function counted(
  scores: ReadonlyMap<string, RuleScore>,
): Map<string, RuleScore & { scored?: number }> {
  const out = new Map<string, RuleScore & { scored?: number }>()
  for (const [id, r] of scores)
    out.set(
      id,
      r.found || r.score <= UNFOUND_RULE_MAX
        ? r
        : { ...r, score: UNFOUND_RULE_MAX, scored: r.score },
    )
  return out
}

/**
 * What one router keeps between searches: the tool facts (`factIndex.ts`), the rule engine and
 * its own index (`ruleEngine.ts`), and the build running now (resolved when none is).
 */
interface RouterState {
  index: FactIndex
  rules: RuleScorer
  building: Promise<void>
}

/** A fresh {@link RouterState}: nothing indexed, no build running. */
function routerState(): RouterState {
  return { index: new FactIndex(), rules: createRuleScorer(), building: Promise.resolve() }
}

/** An intent's choice set and the ranker's ranking of it (`ranker.ts` `rankEntries`). */
interface RankedChoices {
  set: ChoiceSet
  ranking: Ranking
}

/**
 * The choice set of `intent` among `tools` ({@link choiceSet}, on `options.domain` when given)
 * ranked under the fitted weights; with `all`, the tools outside the choice set are ranked too.
 * Syncs `state`'s indexes with `tools`.
 */
function rankChoices(
  state: RouterState,
  intent: string,
  tools: readonly ToolSpec[],
  options: RouteOptions,
  all: boolean,
): RankedChoices {
  const set = choiceSet(intent, tools, state.index, state.rules, {
    all,
    domain: options.domain ?? null,
  })
  const ruleScores = new Map<string, number>()
  const ownHead = new Set<string>()
  for (const [id, r] of set.rules) {
    ruleScores.set(id, r.score)
    if (r.ownHead) ownHead.add(id)
  }
  return {
    set,
    ranking: rankEntries(set.view, set.entries, ruleScores, FITTED, set.outside, ownHead),
  }
}

/** {@link ToolRouter.warm}: loads the tagger, builds the facts and the rules' index of `tools`. */
function warmRouter(state: RouterState, tools: readonly ToolSpec[]): void {
  warmTagger()
  state.index.sync(tools)
  state.rules.scores('warm', tools)
}

/**
 * One build ({@link ToolRouter.build}): the fact index's and the rules' building steps, letting
 * the event loop run whenever a slice reaches {@link BUILD_SLICE_MS} ms, then {@link warmRouter}.
 * Starts after the event loop has run once. Rejects when a step throws (the caller swallows it).
 */
async function buildRouter(state: RouterState, tools: readonly ToolSpec[]): Promise<void> {
  await nextTurn()
  warmTagger()
  const steps = [
    state.index.building(tools),
    ...(state.rules.building ? [state.rules.building(tools)] : []),
  ]
  let slice = performance.now()
  for (const step of steps)
    for (const _ of step)
      if (performance.now() - slice >= BUILD_SLICE_MS) {
        await nextTurn()
        slice = performance.now()
      }
  warmRouter(state, tools)
}

/** {@link ToolRouter.rank}: every tool ranked, best first, each as a {@link ToolMatch}. */
function rankAll(
  state: RouterState,
  intent: string,
  tools: readonly ToolSpec[],
  options: RouteOptions,
): ToolMatch[] {
  const { set, ranking } = rankChoices(state, intent, tools, options, true)
  return ranking.ranked.map((r) => toMatch(r, set, ranking.none))
}

/**
 * {@link ToolRouter.route}: ranks the choice set (every tool when the index is not exact,
 * {@link INDEX_IS_EXACT}) and answers from it ({@link answerOf}).
 */
function routeIntent(
  state: RouterState,
  intent: string,
  tools: readonly ToolSpec[],
  options: RouteOptions,
): RouteResult {
  return answerOf(rankChoices(state, intent, tools, options, !INDEX_IS_EXACT))
}

/**
 * The search answer to a ranked choice set (step 4 of the file comment), first that applies:
 * `needs_observation` when the intent is unreadable; `matched` with the verified tools at
 * {@link MIN_SCORE} or more (at most {@link MAX_MATCHES}); `candidate` with the best untested one;
 * `unavailable` naming a quarantined one; `needs_observation` naming tied tools
 * (`ranker.ts` `tieOf`); else `needs_observation`.
 */
function answerOf({ set, ranking }: RankedChoices): RouteResult {
  const readable = set.view.intent.readability
  if (!readable.readable)
    return {
      status: 'needs_observation',
      tools: [],
      reason: `The router reads English only and cannot read this intent (${
        readable.language ? languageName(readable.language) : `${readable.script} script`
      }): say it in English, or index the workflow with the browser.`,
    }
  const confident = ranking.ranked.filter((r) => r.score >= MIN_SCORE)
  const of = (status: ToolSpec['status']) => confident.filter((r) => r.entry.tool.status === status)
  const match = (r: RankedTool) => toMatch(r, set, ranking.none)
  const verified = of('verified').slice(0, MAX_MATCHES)
  if (verified.length) return { status: 'matched', tools: verified.map(match) }
  const [candidate] = of('candidate')
  if (candidate) return { status: 'candidate', tools: [], candidate: match(candidate) }
  const [quarantined] = of('quarantined')
  if (quarantined)
    return {
      status: 'unavailable',
      tools: [],
      reason: `${quarantined.entry.tool.name} fits this intent but failed its checks and is quarantined; it is rechecked automatically. Index the workflow again to get a fresh candidate.`,
    }
  const tie = tieOf(ranking)
  if (tie) return { status: 'needs_observation', tools: [], ...tieAnswer(tie) }
  return {
    status: 'needs_observation',
    tools: [],
    reason:
      'No tool of this account does this with confidence: index the workflow with the browser, then inspect the routing result.',
  }
}

/**
 * Creates a router: its tool facts and rule index are kept between searches ({@link RouterState}).
 * A facade over {@link routeIntent}, {@link rankAll}, {@link warmRouter} and {@link buildRouter};
 * builds run one after another.
 */
export function createToolRouter(): ToolRouter {
  const state = routerState()
  return {
    warm: (tools) => warmRouter(state, tools),
    build(tools) {
      state.building = state.building.then(() => buildRouter(state, tools)).catch(() => undefined)
      return state.building
    },
    ready: () => state.building,
    rank: (intent, tools, options = {}) => rankAll(state, intent, tools, options),
    route: (intent, tools, options = {}) => routeIntent(state, intent, tools, options),
  }
}

/** Resolves after the event loop has run once (timers, I/O, other requests). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The answer to a tie: no match, the tools named, and what tells them apart. */
function tieAnswer(tie: Tie): Pick<RouteResult, 'reason' | 'ties'> {
  const tools = tie.tools.map((r) => ({
    id: r.entry.tool.id,
    name: r.entry.tool.name,
    siteHost: r.entry.tool.siteHost,
  }))
  return {
    reason: `Several tools fit this intent equally (${tools.map((t) => t.name).join(', ')}); say ${tie.tellApart}.`,
    ties: { tools, tellApart: tie.tellApart },
  }
}

/**
 * True when `siteHost` (`host[:port]`) is `domain` or one of its subdomains (interface.md "B": "limits
 * results to that host and its subdomains"). A domain with a port matches that port only.
 */
export function hostInDomain(siteHost: string, domain: string): boolean {
  const host = siteHost.toLowerCase()
  const want = domain.toLowerCase().replace(/\.$/, '')
  const withPort = /:\d+$/.test(want)
  const [hostName, hostPort] = splitPort(host)
  const [wantName, wantPort] = splitPort(want)
  if (withPort && hostPort !== wantPort) return false
  return hostName === wantName || hostName.endsWith(`.${wantName}`)
}

function splitPort(host: string): [string, string | null] {
  const m = /^(.*):(\d+)$/.exec(host)
  return m ? [m[1]!, m[2]!] : [host, null]
}

function toMatch(r: RankedTool, set: ChoiceSet, none: number): ToolMatch {
  const tool = r.entry.tool
  const { intent } = set.view
  const rule = set.rules.get(tool.id)
  return {
    id: tool.id,
    name: tool.name,
    siteHost: tool.siteHost,
    status: tool.status,
    mutating: tool.mutating,
    intent: tool.intent,
    description: tool.description,
    score: r.score,
    endpoint: `/v1/tools/${tool.id}/execute`,
    inputs: slotInputSchema(tool),
    schema: { input: tool.inputs, output: tool.output },
    evidence: {
      verb: { intent: intent.act, tool: r.entry.facts.act, from: r.entry.facts.actFrom },
      head: intent.head,
      // (A copy: the reading is kept for the next search of the same text.)
      sites: [...intent.sites],
      features: namedFeatures(r.x),
      probability: r.p,
      none,
      ...(rule
        ? {
            rules: {
              ...rule.evidence,
              score: rule.score,
              ...(rule.scored !== undefined ? { scored: rule.scored } : {}),
            },
          }
        : {}),
      compiled: {
        traceId: tool.evidence?.traceId ?? '',
        targetExchangeId: tool.evidence?.targetExchangeId ?? '',
        signals: (tool.evidence?.signals ?? []).map((s) => s.name),
      },
    },
  }
}
