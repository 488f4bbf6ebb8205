/**
 * Ablation of the rule engine's groups of phrasing rules (issue 25 "phrase rules that no longer
 * earn their place are gone"): leave-one-app-out on the development half (`routerLoao.ts`, the
 * fitting script's seed and penalty) with every group, then with each group switched off on its
 * own (`ruleEngine.ts` `RULE_GROUPS`), then without the rule engine at all. A group whose removal
 * neither lowers top-1 at 0.9 nor raises false matches does not earn its place.
 *
 * Run: `npx tsx test/bench/routerAblation.ts [--only g1,g2] [--together g1,g2]` (`--only`:
 * ablate just these, one at a time; `--together`: one run without all of them at once). The
 * compiled corpus is kept in `bench-results/router-corpus.json` between runs (delete it after a
 * compiler change). Prints one line per run; fails nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createRuleScorer,
  RULE_GROUPS,
  type RuleGroup,
  type RuleScorer,
} from '../../src/main/router/ruleEngine'
import type { ToolSpec } from '../../src/shared/toolSpec'
import { appNames } from '../apps/registry'
import { L2 } from './routerFit'
import { loadCorpusTools, loadParaphrases } from './routerAccuracy'
import { leaveOneAppOut, prepareChoices, type Figures } from './routerLoao'

const CACHE = fileURLToPath(new URL('../../bench-results/router-corpus.json', import.meta.url))

/** The corpus tools, compiled once and kept in {@link CACHE}. */
async function corpusTools(): Promise<ToolSpec[]> {
  if (existsSync(CACHE)) return JSON.parse(readFileSync(CACHE, 'utf8')) as ToolSpec[]
  const { tools } = await loadCorpusTools(appNames())
  mkdirSync(dirname(CACHE), { recursive: true })
  writeFileSync(CACHE, JSON.stringify(tools))
  return tools
}

/** A rule engine that scores nothing (the ranker without its rule features). */
const NO_RULES: RuleScorer = { scores: () => new Map() }

function line(name: string, f: Figures, base?: Figures): string {
  const d = (k: number, b?: number) =>
    b === undefined ? '' : ` (${k - b >= 0 ? '+' : ''}${k - b})`
  return `${name.padEnd(18)} top-1 ${f.top1.k}/${f.top1.n}${d(f.top1.k, base?.top1.k)}  false ${f.falseMatches.k}/${f.falseMatches.n}${d(f.falseMatches.k, base?.falseMatches.k)}  MRR ${f.mrr.toFixed(4)}`
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name)
    return i < 0 ? null : ((process.argv[i + 1] ?? '').split(',').filter(Boolean) as RuleGroup[])
  }
  const tools = await corpusTools()
  const dev = loadParaphrases().filter((p) => p.split === 'dev')
  const run = (rules: RuleScorer) => leaveOneAppOut(prepareChoices(tools, dev, rules), L2).figures
  const base = run(createRuleScorer())
  console.log(line('all groups', base))
  const together = arg('--together')
  if (together) {
    console.log(
      line(
        `without ${together.join('+')}`,
        run(createRuleScorer({ without: new Set(together) })),
        base,
      ),
    )
    return
  }
  for (const group of arg('--only') ?? RULE_GROUPS)
    console.log(
      line(`without ${group}`, run(createRuleScorer({ without: new Set([group]) })), base),
    )
  if (!arg('--only')) console.log(line('no rule engine', run(NO_RULES), base))
}

await main()
