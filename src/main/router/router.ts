/**
 * The tool router (DESIGN.md §3 "router: intent ► ranked tools, calibrated scores"): an intent in
 * plain words, ranked tools out, each with a score whose meaning is fixed. Pure: no I/O, no clock.
 *
 * Scoring (spec "B": "never falls back to keyword matching"). The intent is parsed, not bagged:
 * 1. Normalise and stem (`text.ts`): camelCase/snake_case split, accents dropped, a light suffix
 *    stemmer so `searching`/`searches`/`search` agree; stop words dropped.
 * 2. Parse (`parseIntent.ts`): the leading verb and its class (search, list, read; create,
 *    update, delete; auth) through a table of common verbs (`find`, `look up`, `browse` search;
 *    `add`, `post`, `submit` create; ...), then the object (`core`), `by` qualifiers, `for`/
 *    `with` values, `in`/`from` places, `on`/`at` sites, quoted strings.
 * 3. Profile each tool (`toolProfile.ts`): the stems of its intent, name, site host labels, URL
 *    path, slot names and output fields, each with a strength (its own intent and name 1.0; path
 *    and slot names 0.9; output fields 0.8), its verb class (intent verb, else name verb, made
 *    consistent with `mutating`), whether a text slot can take free values, and its head noun.
 * 4. Score (`score.ts`): every intent word must be accounted for by the tool: found (own stem at
 *    its field's strength, a noun synonym ×0.95, a slot that takes a `by` role ×0.95, part of the
 *    site's host label 0.85), or, for values and places only, absorbed by a text slot. Each word
 *    not accounted for costs a penalty scaled by (1 − strength): the head noun 0.35, any other
 *    specific word 0.12, a generic word (`results`, `data`, `site`) 0.02; the tool's own head noun
 *    absent from the intent costs 0.08. `base = 1 − Σ penalties`; `score = base × verb agreement`
 *    (same class 1; two read classes 0.96; no verb and a read tool 0.97; a write of unknown kind
 *    0.93). A contradicting verb (a write asked of a read-only tool, a read of a writing one, a
 *    delete of a create, no verb for a write) caps the score at 0.6; an intent naming nothing
 *    caps it at 0.8.
 *
 * Calibration (spec "Tool match": score at least 0.9). The penalties are set so that 0.9 sits
 * exactly on "this tool does what the intent asks": with agreeing verbs it is reached only when
 * the head noun is the tool's, every specific word of object, qualifiers and sites is the tool's,
 * and every value can be taken by a slot; one missing specific word (0.12) already gives at most
 * 0.88, a missing head at most 0.65, a contradiction at most 0.6. Two read classes (0.96) leave
 * room for one weak match (a slot-only word costs 0.012) but not for a tool that is about
 * something else (0.96 × 0.92 = 0.88). The table test in `test/unit/router/router.test.ts` holds
 * these claims over the compiler corpus's tools: every pair not expected scores below 0.9.
 *
 * Ranking: score, then closeness (the share of the tool's own intent words the intent used), then
 * verified before candidate, then the newest, then id: the same tools always rank the same way.
 */
import type { JsonSchema, ToolSpec } from '../../shared/toolSpec'
import { verbAgreement } from './lexicon'
import { isWord } from './meaning/related'
import { parseIntent, type IntentWord, type ParsedIntent } from './parseIntent'
import { scoreTool, type MatchEvidence } from './score'
import { slotInputSchema, type SlotInputs } from './slotSchema'
import { ToolIndex, type Expanded, type IndexEntry } from './toolIndex'

/** Spec "Limits": search matches at most 10, minimum score 0.9. */
export const MIN_SCORE = 0.9
export const MAX_MATCHES = 10

/** Spec "Search result status". */
export type RouteStatus = 'matched' | 'candidate' | 'needs_observation' | 'unavailable'

/** One ranked tool (spec "Tool match"). */
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
}

export interface RouteOptions {
  /** Bare host: only tools on it or its subdomains (spec "B" `domain`); a port must also match. */
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
}

/**
 * Creates a router. It keeps one profile per tool (replaced when the tool changes) and an inverted
 * index over them (`toolIndex.ts`): `route` scores only the tools that share a word with the
 * intent by meaning (the others cannot reach 0.9: their head word is missing, `score.ts`);
 * `rank` scores every tool.
 */
export function createToolRouter(): ToolRouter {
  const index = new ToolIndex()
  const scoreEntries = (parsed: ParsedIntent, entries: IndexEntry[], options: RouteOptions) => {
    const memo = new Map<IntentWord, Expanded>()
    const expand = (w: IntentWord, pos: 'noun' | 'verb' = 'noun') => {
      if (pos === 'verb') return index.expand(w, pos)
      let e = memo.get(w)
      if (!e) memo.set(w, (e = index.expand(w)))
      return e
    }
    const scored = entries
      .filter((e) => !options.domain || hostInDomain(e.tool.siteHost, options.domain))
      .map((e) => ({ tool: e.tool, ...scoreTool(parsed, e.profile, expand) }))
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.closeness - a.closeness ||
        statusRank(a.tool) - statusRank(b.tool) ||
        b.tool.updatedAt - a.tool.updatedAt ||
        a.tool.id.localeCompare(b.tool.id),
    )
    return { scored, expand }
  }
  // A word that names the site of some tool (`Redmine`, `dokuwiki`) names a site wherever it
  // stands: the tool must be on that site, it is no value a slot may take.
  const parse = (intent: string): ParsedIntent => {
    const parsed = parseIntent(intent)
    // A name (`Redmine`, `node-red`) or a word English does not have (`redmine`); an English word
    // that is also a host label (`jobs` of jobs.example) stays a word.
    const named = (w: IntentWord) =>
      w.literal
        ? index.isSiteName(w.stem)
        : index.isSiteName(w.word) && !isWord(w.word, 'noun') && !isWord(w.word, 'verb')
    const moved = [parsed.core, parsed.values, parsed.places].flat().filter(named)
    if (!moved.length) return parsed
    const keep = (list: IntentWord[]) => list.filter((w) => !moved.includes(w))
    return {
      ...parsed,
      core: keep(parsed.core),
      values: keep(parsed.values),
      places: keep(parsed.places),
      sites: [...parsed.sites, ...moved.map((w) => ({ ...w, siteName: true }))],
    }
  }
  const candidatesOf = (intent: string, tools: readonly ToolSpec[]) => {
    index.sync(tools)
    const parsed = parse(intent)
    // The head decides (score.ts): with specific object words, the head is one of them and a tool
    // must show it at MIN_HEAD_STRENGTH or more to reach 0.9; without, it may be a generic object
    // word, a value or a place, or be implicit (the site named, a sign-in, a typed value).
    const specific = parsed.core.filter((w) => !w.generic && !w.literal)
    const heads = specific.length
      ? specific
      : [...parsed.core, ...parsed.values, ...parsed.places].filter((w) => !w.literal)
    const verb = parsed.verb?.verbClass
    const keys = [
      ...(verb === 'auth' || verb === 'logout' ? [`verb:${verb}`] : []),
      ...parsed.values.flatMap((v) => (v.value ? [`kind:${v.value}`] : [])),
    ]
    const siteWords = specific.length ? [] : [...parsed.sites, ...parsed.core]
    const entries = index.candidates(
      heads.map((w) => index.expand(w)),
      siteWords.map((w) => (w.literal ? w.stem : w.word)),
      keys,
      siteWords.map((w) => index.expand(w)),
    )
    return { parsed, entries }
  }
  return {
    rank(intent, tools, options = {}) {
      const entries = index.sync(tools)
      return scoreEntries(parse(intent), entries, options).scored.map((s) =>
        toMatch(s.tool, s.score, s.evidence),
      )
    },
    route(intent, tools, options = {}) {
      const { parsed, entries } = candidatesOf(intent, tools)
      // A tool whose verb contradicts the intent's scores at most 0.6 (`score.ts`): not scored.
      const asked = parsed.verb?.verbClass ?? null
      const possible = entries.filter((e) => !verbAgreement(asked, e.profile.verb).contradicts)
      const confident = scoreEntries(parsed, possible, options)
        .scored.filter((s) => s.score >= MIN_SCORE)
        .map((s) => toMatch(s.tool, s.score, s.evidence))
      const verified = confident.filter((m) => m.status === 'verified')
      if (verified.length) return { status: 'matched', tools: verified.slice(0, MAX_MATCHES) }
      const candidate = confident.find((m) => m.status === 'candidate')
      if (candidate) return { status: 'candidate', tools: [], candidate }
      const quarantined = confident.find((m) => m.status === 'quarantined')
      if (quarantined)
        return {
          status: 'unavailable',
          tools: [],
          reason: `${quarantined.name} fits this intent but failed its checks and is quarantined; it is rechecked automatically. Index the workflow again to get a fresh candidate.`,
        }
      return {
        status: 'needs_observation',
        tools: [],
        reason:
          'No tool of this account does this with confidence: index the workflow with the browser, then inspect the routing result.',
      }
    },
  }
}

/**
 * True when `siteHost` (`host[:port]`) is `domain` or one of its subdomains (spec "B": "limits
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

function statusRank(tool: ToolSpec): number {
  return tool.status === 'verified' ? 0 : tool.status === 'candidate' ? 1 : 2
}

function toMatch(tool: ToolSpec, score: number, evidence: MatchEvidence): ToolMatch {
  return {
    id: tool.id,
    name: tool.name,
    siteHost: tool.siteHost,
    status: tool.status,
    mutating: tool.mutating,
    intent: tool.intent,
    description: tool.description,
    score,
    endpoint: `/v1/tools/${tool.id}/execute`,
    inputs: slotInputSchema(tool),
    schema: { input: tool.inputs, output: tool.output },
    evidence: {
      ...evidence,
      compiled: {
        traceId: tool.evidence?.traceId ?? '',
        targetExchangeId: tool.evidence?.targetExchangeId ?? '',
        signals: (tool.evidence?.signals ?? []).map((s) => s.name),
      },
    },
  }
}
