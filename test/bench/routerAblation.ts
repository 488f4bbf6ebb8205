/**
 * Ablation of the rule engine's groups of phrasing rules (issue 25 "phrase rules that no longer
 * earn their place are gone"): leave-one-app-out on the development half (`routerLoao.ts`, the
 * fitting script's seed and penalty) with every group, then with each group switched off on its
 * own (`ruleEngine.ts` `RULE_GROUPS`), then without the rule engine at all. A group whose removal
 * neither lowers top-1 at 0.9 nor raises false matches does not earn its place.
 *
 * Only the paraphrases whose reading by the rules (`RuleScorer.read`) a group changes are
 * prepared again without it; a group that changes none is not run (its figures are those with
 * every group).
 *
 * Run: `npx tsx test/bench/routerAblation.ts [--readings] [--only g1,g2] [--together g1,g2]`
 * (`--readings`: only count the readings each group changes; `--only`: ablate just these, one
 * at a time; `--together`: one run without all of them at once). The
 * compiled corpus is kept in `bench-results/router-corpus.json` between runs (delete it after a
 * compiler change). Prints one line per run; fails nothing.
 */
import {
  createRuleScorer,
  RULE_GROUPS,
  type RuleGroup,
  type RuleScorer,
} from '../../src/main/router/ruleEngine'
import type { ToolSpec } from '../../src/shared/toolSpec'
import fitted from '../../src/main/router/rankerParams.json' with { type: 'json' }
import { loadParaphrases } from './routerAccuracy'
import { cachedCorpusTools, leaveOneAppOut, prepareChoices, type Figures } from './routerLoao'

/** The fitting script's penalty, as it recorded it (importing `routerFit.ts` would run it). */
const L2 = fitted.fitted.l2

/** A rule engine that scores nothing (the ranker without its rule features). */
const NO_RULES: RuleScorer = { scores: () => new Map() }

function line(name: string, f: Figures, base?: Figures): string {
  const d = (k: number, b?: number) =>
    b === undefined ? '' : ` (${k - b >= 0 ? '+' : ''}${k - b})`
  return `${name.padEnd(18)} top-1 ${f.top1.k}/${f.top1.n}${d(f.top1.k, base?.top1.k)}  false ${f.falseMatches.k}/${f.falseMatches.n}${d(f.falseMatches.k, base?.falseMatches.k)}  MRR ${f.mrr.toFixed(4)}`
}

/** A reading as text, sets and maps in order (two readings are the same when their texts are). */
function readingText(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) =>
    v instanceof Set ? [...(v as Set<unknown>)].sort() : v instanceof Map ? [...v.entries()] : v,
  )
}

/**
 * Per group, the paraphrases whose rule reading (`RuleScorer.read`) changes without it. A group
 * that changes none changes no rule score, no choice set and no feature: its leave-one-app-out
 * figures are those with every group, without running them.
 */
export function readingsChanged(
  tools: readonly ToolSpec[],
  texts: readonly string[],
  groups: readonly RuleGroup[] = RULE_GROUPS,
): Map<RuleGroup, string[]> {
  const all = createRuleScorer()
  const base = texts.map((t) => readingText(all.read!(t, tools)))
  const out = new Map<RuleGroup, string[]>()
  for (const group of groups) {
    const without = createRuleScorer({ without: new Set([group]) })
    out.set(
      group,
      texts.filter((t, i) => readingText(without.read!(t, tools)) !== base[i]),
    )
  }
  return out
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name)
    return i < 0 ? null : ((process.argv[i + 1] ?? '').split(',').filter(Boolean) as RuleGroup[])
  }
  const tools = await cachedCorpusTools()
  const dev = loadParaphrases().filter((p) => p.split === 'dev')
  const together = arg('--together')
  const groups = together ?? arg('--only') ?? RULE_GROUPS
  const changed = readingsChanged(
    tools,
    dev.map((p) => p.text),
    groups,
  )
  for (const [group, texts] of changed)
    console.log(
      `${group.padEnd(16)} changes the reading of ${texts.length} development paraphrases${texts.length ? `, e.g. ${JSON.stringify(texts[0])}` : ''}`,
    )
  if (process.argv.includes('--readings')) return
  const baseChoices = prepareChoices(tools, dev, createRuleScorer())
  const base = leaveOneAppOut(baseChoices, L2).figures
  console.log(line('all groups', base))
  // Without `without`: only the paraphrases whose reading it changes are prepared again (the
  // others' choices are the same); each keeps its fold.
  const runWithout = (without: ReadonlySet<RuleGroup>, texts: ReadonlySet<string>) => {
    const again = dev.filter((p) => texts.has(p.text))
    const redone = new Map(
      prepareChoices(tools, again, createRuleScorer({ without })).map((c) => [c.text, c]),
    )
    const choices = baseChoices.map((c) =>
      redone.has(c.text) ? { ...redone.get(c.text)!, fold: c.fold } : c,
    )
    return leaveOneAppOut(choices, L2).figures
  }
  if (together) {
    const texts = new Set(together.flatMap((g) => changed.get(g)!))
    const f = runWithout(new Set(together), texts)
    console.log(line(`without ${together.join('+')}`, f, base))
    return
  }
  for (const group of groups) {
    const texts = changed.get(group)!
    if (!texts.length)
      console.log(`${line(`without ${group}`, base, base)} (same readings: not run)`)
    else console.log(line(`without ${group}`, runWithout(new Set([group]), new Set(texts)), base))
  }
  if (!arg('--only')) {
    const none = leaveOneAppOut(prepareChoices(tools, dev, NO_RULES), L2).figures
    console.log(line('no rule engine', none, base))
  }
}

await main()
