/**
 * Fits the compiler's target ranker (issue 24 C) on the real-app corpus and writes
 * `src/main/compiler/ranker/targetModel.params.json`.
 *
 * Each workflow and recording path is one choice set: the candidates the compiler's rules find
 * (`targetCandidates`), each labelled right when it is the answer key's target request. The model
 * is a conditional logit (`conditionalLogit.ts`) on standardised features (`targetFeatures.ts`).
 * The prior is the rules' own weighting (each signal counts its hand weight), and the L2 penalty
 * pulls toward it. It is evaluated by leave-one-app-out: for each app, fitted on the other apps and asked to pick
 * the targets of this one; the out-of-fold probabilities of its choices fit the Platt calibration.
 * The final weights are fitted on every app whose arrival was measured (`arrivals.ts`) and on the
 * compiler's fixture traces (synthetic, one mechanism each: trained on, never evaluated). Full-batch
 * gradient descent from zero weights has no random draw: a rerun on the same corpus writes the
 * same file.
 *
 * Run: `npx tsx test/apps/fitTargetRanker.ts [--dry-run] [--json FILE]`.
 */
import { execSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { targetCandidates } from '../../src/main/compiler/compileTrace'
import { withFormBodies } from '../../src/main/compiler/formBodies'
import { fitPlatt } from '../../src/main/compiler/ranker/calibration'
import {
  fitConditionalLogit,
  type ChoiceGroup,
  type FitOptions,
} from '../../src/main/compiler/ranker/conditionalLogit'
import { targetFeatures, vectorOf } from '../../src/main/compiler/ranker/targetFeatures'
import type { TargetModelParams } from '../../src/main/compiler/ranker/targetModel'
import { loadCorpus } from '../fixtures/traces/corpus'
import { arrivedApps } from './arrivals'
import { compileStored, judge, loadStoredWorkflows, type StoredWorkflow } from './corpus'
import { exchangeMatches } from './match'
import type { RecordingPath } from './store'

/** Set before looking at any fold: the penalty is not tuned on the figures it reports. */
export const FIT: FitOptions = { l2: 0.1, iterations: 2000, learningRate: 0.5 }

export const PARAMS_FILE = fileURLToPath(
  new URL('../../src/main/compiler/ranker/targetModel.params.json', import.meta.url),
)

/** One choice set with its raw features and where it comes from. */
export interface RawGroup {
  app: string
  ref: string
  path: RecordingPath
  raw: Array<Record<string, number>>
  right: boolean[]
  /** The workflow, compiled again with each fold's model; null for a fixture trace. */
  entry: StoredWorkflow | null
  /** The rules' own compile (no ranker) reached the key's target. */
  rulesRight: boolean
}

/** The choice sets of every stored recording of `entries`. */
export function choiceSets(entries: StoredWorkflow[]): RawGroup[] {
  const out: RawGroup[] = []
  for (const entry of entries)
    for (const path of ['recording', 'har'] as const) {
      const stored = path === 'recording' ? entry.recording : entry.har
      if (!stored) continue
      const intent = entry.workflow.intent
      const trace = withFormBodies({ ...stored.trace, intent }, intent)
      const { scored } = targetCandidates(trace, intent)
      // A candidate is right when it is the key's target, or when the rules' compile from it
      // ends in the key's target (a rename's PUT that the compiler completes with its DELETE).
      const ruled = compileStored(entry, path, { targetModel: null })
      const composed =
        ruled?.ok && judge(ruled, entry.workflow.key).target ? scored[0]?.exchange.id : null
      out.push({
        app: entry.app.name,
        ref: entry.ref,
        path,
        raw: targetFeatures(scored, { intent, exchanges: trace.exchanges }),
        entry,
        rulesRight: composed !== null && composed !== undefined,
        right: scored.map(
          (c) =>
            c.exchange.id === composed || exchangeMatches(c.exchange, entry.workflow.key.target),
        ),
      })
    }
  return out
}

/** The app name of the fixture traces: always trained on, never held out. */
export const FIXTURES = '(fixtures)'

/**
 * Choice sets of the compiler's fixture traces (`test/fixtures/traces`): synthetic traces written
 * to show one mechanism each (a page read, a count next to a list, a typeahead). They teach the
 * ranker those mechanisms; as we wrote them, they never count in an evaluation.
 */
export function fixtureChoiceSets(): RawGroup[] {
  const out: RawGroup[] = []
  for (const fixture of loadCorpus()) {
    if (!('target' in fixture.expected)) continue
    const want = fixture.expected.target
    const trace = withFormBodies({ ...fixture.trace, intent: fixture.intent }, fixture.intent)
    const { scored } = targetCandidates(trace, fixture.intent)
    const right = scored.map(
      (c) =>
        c.exchange.method.toUpperCase() === want.method.toUpperCase() &&
        new URL(c.exchange.url).pathname === want.path,
    )
    out.push({
      app: FIXTURES,
      ref: `fixtures/${fixture.name}`,
      path: 'har',
      raw: targetFeatures(scored, { intent: fixture.intent, exchanges: trace.exchanges }),
      right,
      entry: null,
      rulesRight: right[0] === true,
    })
  }
  return out
}

/** Feature names seen in `groups`, sorted, and each one's largest magnitude. */
export function featureSpace(groups: RawGroup[]): {
  names: string[]
  scales: Record<string, number>
} {
  const scales: Record<string, number> = {}
  for (const g of groups)
    for (const r of g.raw)
      for (const [name, v] of Object.entries(r))
        scales[name] = Math.max(scales[name] ?? 0, Math.abs(v))
  const names = Object.keys(scales)
    .filter((n) => scales[n]! > 0)
    .sort()
  return { names, scales: Object.fromEntries(names.map((n) => [n, scales[n]!])) }
}

/**
 * The rules' own weighting as the prior: a signal's raw value is its hand weight, so the rules'
 * sum is a weight equal to its scale on each scaled signal feature; facts start at zero.
 */
export function rulesPrior(names: string[], scales: Record<string, number>): number[] {
  return names.map((n) => (n.startsWith('signal_') ? scales[n]! : 0))
}

function toChoice(g: RawGroup, names: string[], scales: Record<string, number>): ChoiceGroup {
  return {
    id: `${g.ref} [${g.path}]`,
    features: g.raw.map((r) => vectorOf(r, names, scales)),
    right: g.right,
  }
}

/** How a fold did on one held-out group: was the top choice right, and its probability. */
export interface HeldOut {
  app: string
  ref: string
  path: RecordingPath
  /** False also when no candidate was right (the rules never offered the target). */
  right: boolean
  reachable: boolean
  probability: number
  /** The rules' evidence score of the choice (0..1). */
  evidence: number
  /** The rules' own first choice was right (the baseline before any fitting). */
  rulesRight: boolean
}

/**
 * Leave-one-app-out, as the compiler runs: for each app, a model fitted on the other apps (its
 * feature scales from them too, its calibration the identity) compiles this app's recordings,
 * and the tool's target is judged against the key. `probability` is the fold model's raw
 * probability of its choice (the tool's confidence under an identity calibration).
 */
export function leaveOneAppOut(groups: RawGroup[], fit: FitOptions = FIT): HeldOut[] {
  const apps = [...new Set(groups.map((g) => g.app))].filter((a) => a !== FIXTURES).sort()
  const out: HeldOut[] = []
  for (const app of apps) {
    const training = groups.filter((g) => g.app !== app)
    const { names, scales } = featureSpace(training)
    const weights = fitConditionalLogit(
      training.map((g) => toChoice(g, names, scales)),
      names.length,
      fit,
      rulesPrior(names, scales),
    )
    const fold: TargetModelParams = {
      model: 'conditional-logit',
      features: names,
      scales,
      weights,
      platt: { a: 1, b: 0 },
      provenance: { fold: app },
    }
    for (const g of groups.filter((x) => x.app === app)) {
      if (!g.entry) continue
      const compiled = compileStored(g.entry, g.path, { targetModel: fold })
      const right = compiled?.ok ? judge(compiled, g.entry.workflow.key).target : false
      out.push({
        app,
        ref: g.ref,
        path: g.path,
        right,
        reachable: g.right.some(Boolean),
        probability: compiled?.ok ? (compiled.candidate.evidence.confidence ?? 0) : 0,
        evidence: compiled?.ok ? compiled.candidate.evidence.score : 0,
        rulesRight: g.rulesRight,
      })
    }
  }
  return out
}

/** Share of `held` that is right, by app and path, and in all. */
export function foldTable(held: HeldOut[]): string {
  const rows: string[] = ['app          path       n  model  rules  reachable']
  const apps = [...new Set(held.map((h) => h.app))].sort()
  const pct = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : '-').padStart(5)
  const line = (app: string, path: RecordingPath, hs: HeldOut[]) =>
    `${app.padEnd(12)} ${path.padEnd(9)} ${String(hs.length).padStart(3)} ${pct(hs.filter((h) => h.right).length, hs.length)}  ${pct(hs.filter((h) => h.rulesRight).length, hs.length)}  ${pct(hs.filter((h) => h.reachable).length, hs.length)}`
  for (const app of [...apps, 'ALL'])
    for (const path of ['recording', 'har'] as const) {
      const hs = held.filter((h) => (app === 'ALL' || h.app === app) && h.path === path)
      if (hs.length) rows.push(line(app, path, hs))
    }
  return rows.join('\n')
}

/** Fits the final model on `groups` with its calibration from the out-of-fold `held`. */
export function fitModel(groups: RawGroup[], held: HeldOut[], apps: string[]): TargetModelParams {
  const { names, scales } = featureSpace(groups)
  const weights = fitConditionalLogit(
    groups.map((g) => toChoice(g, names, scales)),
    names.length,
    FIT,
    rulesPrior(names, scales),
  )
  const platt = fitPlatt(
    held.map((h) => ({ p: h.probability, right: h.right, evidence: h.evidence })),
  )
  const right = held.filter((h) => h.right).length
  let commit = 'unknown'
  try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim()
  } catch {
    // Not a checkout: the provenance says so.
  }
  return {
    model: 'conditional-logit',
    features: names,
    scales,
    weights: weights.map((w) => Math.round(w * 1e6) / 1e6),
    platt: {
      a: Math.round(platt.a * 1e6) / 1e6,
      b: Math.round(platt.b * 1e6) / 1e6,
      c: Math.round((platt.c ?? 0) * 1e6) / 1e6,
    },
    provenance: {
      fittedBy: 'test/apps/fitTargetRanker.ts',
      commit,
      seed: 'none: full-batch gradient descent from the rules prior draws nothing at random',
      prior: 'the rules: each signal at its hand weight, facts at zero',
      fit: FIT,
      apps,
      choiceSets: groups.length,
      leaveOneAppOut: {
        right,
        of: held.length,
        share: Math.round((1000 * right) / held.length) / 1000,
      },
    },
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const dryRun = args.includes('--dry-run')
  const jsonAt = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined
  const apps = arrivedApps()
  const groups = [...choiceSets(await loadStoredWorkflows(apps)), ...fixtureChoiceSets()]
  const held = leaveOneAppOut(groups)
  console.log(foldTable(held))
  for (const h of held.filter((x) => !x.right))
    console.log(`miss ${h.ref} [${h.path}]${h.reachable ? '' : ' (no candidate was the target)'}`)
  const params = fitModel(groups, held, apps)
  console.log(
    `platt a=${params.platt.a} b=${params.platt.b} c=${params.platt.c}; ${params.features.length} features`,
  )
  if (jsonAt) {
    mkdirSync(dirname(jsonAt), { recursive: true })
    writeFileSync(jsonAt, `${JSON.stringify(held, null, 1)}\n`)
  }
  if (!dryRun) {
    writeFileSync(PARAMS_FILE, `${JSON.stringify(params, null, 1)}\n`)
    console.log(`wrote ${PARAMS_FILE}`)
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!))
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
