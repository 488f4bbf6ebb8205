import type { CompileExplanation } from '../../shared/appApi'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER, type Action, type Exchange, type Trace } from '../../shared/trace'
import { applyBindings, stepsAfterBindings } from './bindings'
import { rankCandidates } from './candidates'
import { isWriteMethod, parseJsonRequest, rejectionReason } from './classify'
import { httpUrl } from '../../shared/urls'
import { getActsAsAsked, learnOperationFields, writesByOperation } from './operation'
import { titleFreeOf } from './verifyRule'
import { graphqlOfExchange } from './graphql'
import { planDependencies, type DependencyPlan } from './dependencies'
import { withFileSteps } from './fileBodies'
import { withFormBodies } from './formBodies'
import { readFormSiblings } from './formSiblings'
import { readLinkTokens } from './linkTokens'
import { withFirstFactor } from './firstFactor'
import { explainMissing } from './explain'
import { intentValues } from './intentValues'
import { formatSuffix, pickedNames } from './pathValues'
import { pathSegments, requestValues } from './requestValues'
import { lookupByName } from './lookupByName'
import { lookupPickedRecords } from './pickedRecords'
import { pickOptionsByLabel } from './optionPicks'
import { readSameRecord } from './sameRecordReads'
import { readPrefilledFields } from './prefilledFields'
import { splitEmbeddedValues } from './embeddedValues'
import { inputsForRedacted } from './redactedFields'
import { referencedValues } from './referencedValues'
import { commandArguments } from './commandArguments'
import { parametriseGraphqlLiterals } from './graphqlLiterals'
import { readModifyWrite } from './readModifyWrite'
import { guardRecordedRecord } from './recordedRecord'
import { asPageSearch, findPageSearch } from './pageSearch'
import { alternativesOf, scoreChosen, TARGET_THRESHOLD, withHandSignal } from './selectTarget'
import type { ScoredExchange } from './targetSignals'
import { shapeTarget } from './shapeTarget'
import { bindSignIn } from './signIn'
import { intentToolName } from './intentName'
import { siteOfTrace } from './siteOfTrace'
import { sameField } from './stepTemplate'
import { normalValue, wordsOf } from './valueSpelling'
import { intentVerbClass, isWriteClass } from './intentVerb'
import {
  commitTime,
  markContext,
  signInAccounts,
  typedValues,
  type TypedValue,
} from './typedValues'
import {
  calibratedConfidence,
  rankByModel,
  TARGET_MODEL,
  type TargetModelParams,
} from './ranker/targetModel'

export interface CompileOptions {
  /** UUID for the new tool. */
  toolId: string
  /** Milliseconds since the Unix epoch: stamps `createdAt` and the version. */
  now: number
  /** Overrides the trace's intent (the interface's search or prepare intent). */
  intent?: string
  /** Compile exactly this exchange (manual compile); its evidence is still reported. */
  targetExchangeId?: string
  /** Observed exchanges the target depends on (manual compile); each becomes a dependency step. */
  dependencyExchangeIds?: string[]
  /**
   * The ranker that orders the candidate targets: the fitted one by default; another (a fold of
   * the leave-one-app-out evaluation) or null for the rules' own order.
   */
  targetModel?: TargetModelParams | null
}

export type CompileResult =
  { ok: true; candidate: ToolSpec } | { ok: false; explanation: CompileExplanation }

/** Refusals a manual compile cannot override (never targets). */
const NEVER_A_TARGET =
  /^(not an http|CORS preflight|ad request|static asset|analytics beacon|translation dictionary|feature-flag)/

/**
 * The lowest evidence score that makes a candidate: any
 * request that carries something of the intent is plausible and becomes a candidate with its
 * confidence and alternatives; only when none carries anything is the answer an explanation.
 */
const MIN_TARGET_SCORE = 0.01

// --- hooks around the compile (page searches, lookups by name), kept apart ---
/**
 * Compiles a trace (see `compileOnce`), then: a search the page did on data it had loaded
 * targets that data with a result filter (`findPageSearch`, `asPageSearch`),
 * and ids read by position from a list are looked up by the name the person gave
 * (`lookupByName`). Pure.
 */
export function compileTrace(recorded: Trace, options: CompileOptions): CompileResult {
  const intent = options.intent ?? recorded.intent
  // A form post with a file whose body a plain HAR left out is written from its form.
  const trace = withFormBodies(recorded, intent)
  learnOperationFields(trace.exchanges)
  const inPage = options.targetExchangeId === undefined ? findPageSearch(trace, intent) : null
  const searched = inPage && compileOnce(trace, { ...options, targetExchangeId: inPage.exchangeId })
  const result = searched?.ok ? searched : compileOnce(trace, options)
  if (!result.ok) return result
  // A write that sends a whole resource reads it first and changes only what the person did.
  const signedIn = withFirstFactor(result.candidate, trace, intent)
  // Values a page gives the person: ids behind names, the picked record's page, its fields.
  const picked = [pickOptionsByLabel, readSameRecord, readPrefilledFields].reduce(
    (tool, pass) => pass(tool, trace),
    lookupPickedRecords(
      lookupByName(splitEmbeddedValues(signedIn, trace, intent), trace, intent),
      trace,
      intent,
    ),
  )
  const looked = readLinkTokens(parametriseGraphqlLiterals(picked, trace, intent), trace)
  const guarded = guardRecordedRecord(
    readModifyWrite(commandArguments(looked, intent), trace, intent),
    trace,
    intent,
  )
  const defaults = Object.values(guarded.inputs.properties).map((p) => p.default)
  const tool = { ...guarded, verify: titleFreeOf(guarded.verify, defaults) }
  // A lookup that added a read of its own (a list the person picked from) made that step from the
  // recorded request; compiled again with it as a dependency, its own values (a token in a
  // header) are traced to their sources like the target's.
  const added = looked.steps
    .filter((s) => !result.candidate.steps.some((o) => o.exchangeId === s.exchangeId))
    .flatMap((s) => (s.exchangeId ? [s.exchangeId] : []))
  if (added.length && options.dependencyExchangeIds === undefined) {
    const again = compileTrace(recorded, { ...options, dependencyExchangeIds: added })
    if (again.ok) return again
  }
  return { ok: true, candidate: inPage && searched?.ok ? asPageSearch(tool, inPage) : tool }
}
// --- end of the compile hooks ---

/**
 * Compiles a trace into a candidate tool, deterministically and without a language model. Pure:
 * trace in, ToolSpec or explanation out; no I/O. Never guesses: when no exchange carries the
 * intent's evidence it explains what is missing.
 */
function compileOnce(trace: Trace, options: CompileOptions): CompileResult {
  const target = chooseTarget(trace, options)
  if ('explanation' in target) return { ok: false, explanation: target.explanation }
  return {
    ok: true,
    candidate: candidateOf(trace, target, planRequests(trace, target, options), options),
  }
}

/** The chosen target with what chose it: the values typed, the candidates, the site's hosts. */
interface ChosenTarget {
  intent: string
  siteHosts: Set<string>
  eligible: Exchange[]
  typed: TypedValue[]
  scored: ScoredExchange[]
  chosen: ScoredExchange
  /** The person named the target (manual compile). */
  byHand: boolean
  /** The fitted ranker's calibrated chance that `chosen` is right (absent without a model). */
  confidence?: number
}

/** The candidate targets of a trace in the rules' order, with what scored them. */
export interface TargetCandidates {
  intent: string
  /** The intent asks for a write (its verb's class, `intentVerb.ts`). */
  asksWrite: boolean
  siteHosts: Set<string>
  eligible: Exchange[]
  typed: TypedValue[]
  committedAt: number | null
  /** Every candidate with evidence of the intent, in the order the rules rank them. */
  scored: ScoredExchange[]
  /** Requests that cannot be targets and why (for an explanation). */
  considered: CompileExplanation['considered']
}

/**
 * The candidate targets of a trace for an intent, as the rules score and order them, before any
 * learned ranker: what the ranker is fitted on (`test/apps/fitTargetRanker.ts`) and reorders.
 */
export function targetCandidates(
  trace: Trace,
  intent: string,
  byHandId?: string,
): TargetCandidates {
  const start = httpUrl(trace.startUrl)
  const siteHosts = new Set(
    [start?.host, ...trace.actions.map((a) => httpUrl(a.pageUrl)?.host)].filter(
      Boolean,
    ) as string[],
  )
  const considered: CompileExplanation['considered'] = []
  // A GET link or form that does the act asked (`/edit-actions-add-url?…` for "block …") and is
  // answered by a redirect writes as a form post does (Post/Redirect/Get), so it stays a candidate.
  const asksWrite = isWriteClass(intentVerbClass(intent))
  // So does a GET form that sends a value the intent names and is answered by a redirect
  // (Privoxy's `edit-actions-url?…&u=wiki.corp.example` for "change the pattern … to
  // wiki.corp.example"): a read would answer with what it found.
  const acts = (e: Exchange) =>
    writes(e) ||
    getActsAsAsked(e, asksWrite) ||
    (asksWrite &&
      e.method.toUpperCase() === 'GET' &&
      e.status >= 300 &&
      e.status < 400 &&
      intentValues(intent, [e]).length > 0)
  const eligible = trace.exchanges.filter((e) => {
    const why = rejectionReason(e, siteHosts, acts)
    if (why)
      considered.push({ exchangeId: e.id, method: e.method, url: e.url, rejectedBecause: why })
    // A request chosen by hand may be a page or another host's API, never an asset or noise.
    return !why || (e.id === byHandId && !NEVER_A_TARGET.test(why))
  })
  // A HAR has no actions, and a recording may hold only clicks: then the values the intent names
  // stand in for what was typed.
  const accounts = signInAccounts(trace.actions, intent)
  const fromActions = typedValues(trace.actions).filter((t) => !accounts.has(t.value))
  // A value the intent names that a request carries counts beside what was typed: the row the
  // person ticked or clicked (`s=batch2`) is named in the intent, not typed (a write chosen by clicking a row).
  const siteWords = new Set(siteOfTrace(trace).names.flatMap(wordsOf))
  const named = intentValues(intent, eligible).filter(
    (v) =>
      !fromActions.some((t) => normalValue(t.value) === normalValue(v.value)) &&
      !namesTheSite(v.value, intent, siteWords),
  )
  const base = [...fromActions, ...named]
  // An item picked by a click (a version, a tab) that a later request sends as a query or body
  // value is a value the person chose, as a `<select>` would be.
  const picked = [...base, ...pickedValues(trace.actions, eligible, base)]
  // A record the person named that the write sends only by its id (kinds 2 and 3).
  const typed = markContext(
    [...picked, ...referencedValues(trace, intent, eligible, picked)],
    intent,
  )
  const committedAt = commitTime(trace.actions)
  const scored = rankCandidates(trace, eligible, typed, committedAt, intent)
  return { intent, asksWrite, siteHosts, eligible, typed, committedAt, scored, considered }
}

/**
 * True when `value` is the site's own name (or part of it) said unquoted in the intent ("sign in
 * to Icinga Web and …" while a theme is called `Icinga`): the intent says where, not what to send.
 */
function namesTheSite(value: string, intent: string, siteWords: ReadonlySet<string>): boolean {
  const words = wordsOf(value)
  if (!words.length || !words.every((w) => siteWords.has(w))) return false
  const spelled = value.toLowerCase()
  return ![...intent.matchAll(/["“'‘]([^"”'’]{1,200})["”'’]/g)].some((m) =>
    m[1]!.toLowerCase().includes(spelled),
  )
}

/**
 * The target exchange: the candidate the ranker puts first (the fitted model by default, else the
 * rules' order; at least {@link MIN_TARGET_SCORE} of evidence), or the one named by hand; else an
 * explanation of what is missing.
 */
function chooseTarget(
  trace: Trace,
  options: CompileOptions,
): ChosenTarget | { explanation: CompileExplanation } {
  const intent = options.intent ?? trace.intent
  const found = targetCandidates(trace, intent, options.targetExchangeId)
  const { typed, committedAt, eligible, considered, asksWrite } = found
  const model = options.targetModel === undefined ? TARGET_MODEL : options.targetModel
  const ranked = confirmedByForm(
    actingGetFirst(
      pageReadFirst(
        completedSignIn(rankByModel(found.scored, { intent, exchanges: trace.exchanges }, model)),
      ),
      asksWrite,
    ),
    asksWrite,
  )
  const scored = ranked.map((r) => r.candidate)
  const byHand = options.targetExchangeId !== undefined
  const chosen = byHand
    ? chosenByHand(options.targetExchangeId!, scored, eligible, {
        typed,
        committedAt,
        trace,
        intent,
      })
    : scored[0]
  if (!chosen || (!byHand && chosen.score < MIN_TARGET_SCORE))
    return { explanation: explainMissing(trace, intent, typed, scored, considered, committedAt) }
  const probability = ranked.find((r) => r.candidate.exchange === chosen.exchange)?.probability
  return {
    intent,
    siteHosts: found.siteHosts,
    eligible,
    typed,
    scored,
    chosen,
    byHand,
    ...(model && probability !== undefined
      ? {
          // The calibration has seen few guesses (a lone fallback candidate is certain among one):
          // the rules' own confidence caps it, so a weak choice still reads as one to review.
          confidence: roundTo(
            Math.min(
              calibratedConfidence(probability, chosen.score, model),
              confidenceOf(chosen, scored),
            ),
          ),
        }
      : {}),
  }
}

const roundTo = (n: number) => Math.round(n * 100) / 100

/**
 * An intent that asks to read a page ("read the tool page", "open the article") is answered by
 * the page the person reached when one qualifies (`TARGET_THRESHOLD` of the rules' evidence),
 * not by the data a script fetched around it: the page is what was asked for.
 */
function pageReadFirst<T extends { candidate: ScoredExchange }>(ranked: T[]): T[] {
  const page = ranked.find(
    (r) =>
      r.candidate.score >= TARGET_THRESHOLD &&
      r.candidate.signals.some((s) => s.name === 'page_read_intent'),
  )
  return page && page !== ranked[0] ? [page, ...ranked.filter((r) => r !== page)] : ranked
}

/**
 * A write chosen by clicking a row (kind 2) and sent as a link's GET (DAViCal's
 * `?subaction=delete_principal&id=…`): when the intent asks a write, the first candidate is a
 * read with no more evidence than such a GET (the same rules' score), the GET whose own words name
 * the act (`getActsAsAsked`) goes first. The list read around it only ties with it.
 */
function actingGetFirst<T extends { candidate: ScoredExchange }>(
  ranked: T[],
  asksWrite: boolean,
): T[] {
  const first = ranked[0]
  if (!first || !asksWrite || getActsAsAsked(first.candidate.exchange, true)) return ranked
  if (first.candidate.exchange.method.toUpperCase() !== 'GET') return ranked
  const acting = ranked.find(
    (r) => r.candidate.score >= first.candidate.score && getActsAsAsked(r.candidate.exchange, true),
  )
  return acting ? [acting, ...ranked.filter((r) => r !== acting)] : ranked
}

/**
 * A confirmation page and its answer (kind 2): a GET whose words name the act
 * (`/user/remove?user=frank`) shows a form, and its "Yes" posts to the same address. When the
 * intent asks a write and the first candidate is such a GET, the later POST to its address (path
 * and query alike) that the ranker kept as a candidate goes first: the GET only asked.
 */
function confirmedByForm<T extends { candidate: ScoredExchange }>(
  ranked: T[],
  asksWrite: boolean,
): T[] {
  const first = ranked[0]?.candidate.exchange
  if (!first || !asksWrite || first.method.toUpperCase() !== 'GET') return ranked
  const address = (url: string) => {
    const u = httpUrl(url)
    return u ? `${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}` : url
  }
  const answer = ranked.find(
    (r) =>
      r.candidate.exchange.method.toUpperCase() === 'POST' &&
      r.candidate.exchange.startedAt > first.startedAt &&
      address(r.candidate.exchange.url) === address(first.url),
  )
  return answer ? [answer, ...ranked.filter((r) => r !== answer)] : ranked
}

/**
 * A sign-in the site answered by asking for a second factor is not done: the later request that
 * sends the code completes it (RFC 6238 flows), so it goes first whatever the ranker said.
 */
function completedSignIn<T extends { candidate: ScoredExchange }>(ranked: T[]): T[] {
  const first = ranked[0]
  const has = (r: T, name: string) => r.candidate.signals.some((s) => s.name === name)
  if (!first || !has(first, 'asks_second_factor')) return ranked
  const code = ranked.find(
    (r) =>
      has(r, 'sends_second_factor') &&
      r.candidate.exchange.startedAt > first.candidate.exchange.startedAt,
  )
  return code ? [code, ...ranked.filter((r) => r !== code)] : ranked
}

/** The target's request and the steps before it: its shape, dependencies, sign-in and files. */
interface PlannedRequests {
  shaped: ReturnType<typeof shapeTarget>
  dependencies: DependencyPlan
  signIn: ReturnType<typeof bindSignIn>
  files: ReturnType<typeof withFileSteps>
}

/**
 * The target shaped into slots, output and verify rule; the values it needs traced to earlier
 * steps, the login or fresh values; a sign-in bound; a file upload step given the caller's file.
 */
function planRequests(
  trace: Trace,
  { chosen, eligible, typed, siteHosts, intent }: ChosenTarget,
  options: CompileOptions,
): PlannedRequests {
  const { exchange } = chosen
  const shaped = shapeTarget(chosen, eligible, isWriteClass(intentVerbClass(intent)))
  const slotPlan = shaped.plan
  const pathInputs = Object.values(slotPlan.inputs.properties).filter((p) => p['x-in'] === 'path')
  const planned = planDependencies(trace, exchange, {
    typed: typed.map((t) => t.value),
    slotOf: typedSlots(slotPlan.inputs, chosen.exactMatches),
    forced: options.dependencyExchangeIds ?? [],
    pathSlots: pathInputs.map((p) => Number(p['x-path'])),
    pathInputs: new Map(
      pathInputs.map((p) => [
        Number(p['x-path']),
        `{{input.${p['x-slot']}}}${valueSuffix(exchange.url, p)}`,
      ]),
    ),
    sameSite: (e) => siteHosts.has(httpUrl(e.url)?.host ?? ''),
  })
  const dependencies = readFormSiblings(
    trace,
    exchange,
    planned,
    typed.map((t) => t.value),
  )
  const cls = intentVerbClass(intent)
  // A sign-in sends the sealed password as a field of its own (a login form's `password`); an
  // intent of no known verb is taken for one only then.
  const loginField = requestValues(exchange).some(
    (v) => v.path === v.key && String(v.value).includes(SECRET_PLACEHOLDER),
  )
  // Slot ids before the bindings renumber them (applyBindings renumbers in place).
  const before = new Map(
    Object.entries(slotPlan.inputs.properties).map(([name, p]) => [
      p['x-slot'],
      { name, default: p.default },
    ]),
  )
  const bound = applyBindings(slotPlan, dependencies.bindings)
  dependencies.steps = stepsAfterBindings(dependencies.steps, before, bound.inputs)
  const signIn = bindSignIn(
    bound,
    httpUrl(exchange.url)!.host,
    chosen.signals.some((s) => s.name === 'sends_second_factor'),
    cls !== 'auth' && (cls !== null || !loginField),
  )
  // A dependency step that uploads a file (Redmine's POST /uploads.js) sends the caller's file.
  const files = withFileSteps(trace, signIn.plan, dependencies.steps)
  return { shaped, dependencies, signIn, files }
}

/** The candidate ToolSpec: named, versioned, with its steps and the evidence that chose them. */
function candidateOf(
  trace: Trace,
  { intent, chosen, scored, byHand, confidence }: ChosenTarget,
  { shaped, dependencies, signIn, files }: PlannedRequests,
  options: CompileOptions,
): ToolSpec {
  const { exchange } = chosen
  const { output } = shaped
  // A secret typed into a form that signs nobody in (a new account's password) is the caller's.
  const sealed = { ...signIn.plan, inputs: files.inputs }
  const plan = signIn.signIn ? sealed : inputsForRedacted(sealed, trace, intent)
  const siteUrl = httpUrl(exchange.url)!
  const site = siteOfTrace(trace)
  // GraphQL operations and page reads keep their names (operationName; the interface's `read_page`).
  const keepsName =
    /__read_page$/.test(shaped.name) || !!graphqlOfExchange(exchange, parseJsonRequest(exchange))
  const name = (!keepsName && intentToolName(intent, siteUrl.host, site)) || shaped.name
  return {
    id: options.toolId,
    siteHost: siteUrl.host,
    name,
    capabilityId: `${siteUrl.host}/${name}`,
    intent,
    description: `${intent} — ${exchange.method} ${siteUrl.pathname}`,
    version: versionOf(options.now),
    mutating: shaped.mutating && !signIn.signIn,
    status: 'candidate',
    inputs: plan.inputs,
    steps: [
      ...files.steps,
      { id: 'target', exchangeId: exchange.id, request: plan.request, extract: [] },
    ],
    // A sign-in starts from no session: the saved one would skip the login form it reads.
    ...(dependencies.login && !signIn.signIn ? { login: dependencies.login } : {}),
    output,
    verify: shaped.verify,
    ...(shaped.result ? { result: shaped.result } : {}),
    via: 'http',
    site,
    evidence: {
      traceId: trace.id,
      targetExchangeId: exchange.id,
      exchangeIds: [...dependencies.steps.map((s) => s.exchangeId!), exchange.id],
      score: chosen.score,
      confidence: confidence ?? confidenceOf(chosen, scored),
      signals: [...chosen.signals, ...shaped.signals, ...dependencies.signals, ...signIn.signals],
      alternatives: alternativesOf(
        chosen,
        scored.filter((s) => s.exchange !== exchange),
        byHand,
      ),
    },
    createdAt: options.now,
    updatedAt: options.now,
  }
}

/**
 * The target the person named (manual compile): its ranked evidence when it has some, else its
 * evidence scored alone (an exchange with none still compiles: the choice is the person's).
 * Undefined when the trace holds no such exchange.
 */
function chosenByHand(
  id: string,
  scored: ScoredExchange[],
  eligible: Exchange[],
  at: { typed: TypedValue[]; committedAt: number | null; trace: Trace; intent: string },
): ScoredExchange | undefined {
  const ranked = scored.find((s) => s.exchange.id === id)
  if (ranked) return withHandSignal(ranked)
  const exchange = eligible.find((e) => e.id === id)
  if (!exchange) return undefined
  return scoreChosen(exchange, at.typed, at.committedAt, {
    actions: at.trace.actions,
    exchanges: at.trace.exchanges,
    intent: at.intent,
  })
}

/** A request writes by its method, or by a destructive operation a GET link names. */
const writes = (e: Exchange): boolean => isWriteMethod(e.method) || writesByOperation(e)

/**
 * How sure the choice is, 0..1: the evidence score, scaled down when the best other endpoint has
 * nearly as much (a margin of 0.2 or more keeps it whole; an equal runner-up halves it).
 */
function confidenceOf(chosen: ScoredExchange, scored: ScoredExchange[]): number {
  const key = `${chosen.exchange.method} ${chosen.exchange.url.split('?')[0]}`
  const runnerUp = scored.find(
    (s) => s !== chosen && `${s.exchange.method} ${s.exchange.url.split('?')[0]}` !== key,
  )
  const margin = runnerUp ? Math.max(0, chosen.score - runnerUp.score) : 0.2
  const scale = 0.5 + 0.5 * Math.min(1, margin / 0.2)
  return Math.round(Math.min(1, chosen.score) * scale * 100) / 100
}

/**
 * The names of clicked items (links, options, tabs) that a request sent after the click carries
 * exactly as a query or body value, each once, as typed values.
 */
function pickedValues(actions: Action[], eligible: Exchange[], known: TypedValue[]): TypedValue[] {
  const out: TypedValue[] = []
  for (const p of pickedNames(actions)) {
    if (known.some((k) => k.value === p.value) || out.some((o) => o.value === p.value)) continue
    const carried = eligible.some(
      (e) => e.startedAt >= p.at && requestValues(e).some((v) => v.value === p.value),
    )
    if (carried)
      out.push({
        value: p.value,
        fieldName: null,
        name: null,
        kind: 'fill',
        inputType: null,
        at: p.at,
      })
  }
  return out
}

/** Tool versions are dates (interface.md "Versioning" 3): `YYYY.MM.DD`. */
function versionOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10).replace(/-/g, '.')
}

/** The input placeholder of each typed value, for dependency requests that carry it too. */
/**
 * The format extension a path input's segment keeps after the value (`.json` of `old-rota.json`
 * when the input holds `old-rota`): a step that names the same record writes it too.
 */
function valueSuffix(url: string, input: SlotSchema): string {
  const segment = pathSegments(url)[Number(input['x-path'])] ?? ''
  const suffix = formatSuffix(segment)
  return suffix && typeof input.default === 'string' && !input.default.endsWith(suffix)
    ? suffix
    : ''
}

/** Typed values shorter than this match a step's value only at the target's own place. */
const SHORT_VALUE = 3

function typedSlots(
  inputs: ToolSpec['inputs'],
  matches: Array<{ typed: { value: string }; value: { location: string; path: string } }>,
): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of matches) {
    const slot = Object.values(inputs.properties).find(
      (p) => p['x-in'] === m.value.location && p['x-path'] === m.value.path,
    )
    if (!slot) continue
    // A short value (`2`, an id the intent names) is taken only where the target sends it: in a
    // step it may be anything else (the second of a list of groups).
    if (m.typed.value.length >= SHORT_VALUE) out.set(m.typed.value, `{{input.${slot['x-slot']}}}`)
    out.set(sameField(m.value.path, m.typed.value), `{{input.${slot['x-slot']}}}`)
  }
  // A dependency request that sends what an input holds (the page it opens the editor of) takes
  // that input too, so the tool reads the token of the page it writes.
  for (const p of Object.values(inputs.properties))
    if (
      typeof p.default === 'string' &&
      p.default.length >= 6 &&
      /[^a-z]/i.test(p.default) &&
      !out.has(p.default)
    )
      out.set(p.default, `{{input.${p['x-slot']}}}`)
  for (const p of Object.values(inputs.properties))
    if (
      (p['x-in'] === 'body' || p['x-in'] === 'query') &&
      typeof p.default === 'string' &&
      p.default.length >= 3
    )
      out.set(sameField(p['x-path'], p.default), `{{input.${p['x-slot']}}}`)
  return out
}
