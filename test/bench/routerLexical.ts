/**
 * Would BM25 help the router's ranker? (issue 25: the stop-14 design, rebuilt and measured.)
 * Features added after `features.ts`'s, here only: `lex`, the Okapi BM25 score (Robertson &
 * Zaragoza 2009, k1 1.2, b 0.75) of the intent's words over one document per tool (its name
 * without the site prefix, its recorded intent, the site's names and page titles, its slot names,
 * the labels its slot descriptions quote, its recorded values of 60 characters or fewer that are
 * not secrets, its target's path), divided by the most the intent's words could score, so it does
 * not depend on the choice set; `lex_best` (the set's best) and `lex_gap` (to the best other),
 * which do.
 *
 * Data: a sixth of the development half (every sixth paraphrase) and every blind set through wave
 * 14, each app weighing the same (`routerLoao.ts` `weighByApp`), fitted with `routerFit.ts`'s
 * penalty; leave one app out. Then weights fitted on all of it route the sets no fit has seen
 * (waves 15, 16a, 16b). Variants: `base` (without the three), `lex` (the score alone), `lexRel`
 * (all three).
 *
 * Measured 2026-12-01 at b4f9e62 (427 tools of every corpus app; leave one app out, the apps
 * without development paraphrases): base 20.1% top-1 at 0.9 with 1.3% false matches, lex 19.9%
 * with 1.6%, lexRel 24.7% with 2.7%. On the sets no fit saw (waves 15, 16a, 16b): base 10.0%,
 * 0.0%, 20.0%; lex the same; lexRel 12.5%, 2.5%, 17.5%; no false match in any. What BM25 adds
 * comes from comparing tools inside a set, and it doubles false matches, so the router does not
 * take these features (issue 25, closing note of 2026-12-01).
 *
 * Run: `npx tsx test/bench/routerLexical.ts [--only=base|lex|lexRel]` (about 15 minutes on two
 * cores; the compiled corpus is kept in `bench-results/router-corpus.json`:
 * `routerLoao.ts` `cachedCorpusTools`). Prints; fails nothing.
 */
import { fitChoiceModel, fitPlatt } from '../../src/main/router/choiceModel'
import { FactIndex } from '../../src/main/router/factIndex'
import { DIMENSIONS, FEATURES, type ExpandedWord } from '../../src/main/router/features'
import { viewOf } from '../../src/main/router/ranker'
import { STOP_WORDS, stem, words } from '../../src/main/router/text'
import fitted from '../../src/main/router/rankerParams.json' with { type: 'json' }
import type { ToolSpec } from '../../src/shared/toolSpec'
import {
  HELD_OUT,
  HELD_OUT_NEW,
  HELD_OUT_WAVE10,
  HELD_OUT_WAVE11,
  HELD_OUT_WAVE12,
  HELD_OUT_WAVE13,
  HELD_OUT_WAVE14,
  HELD_OUT_WAVE15,
  HELD_OUT_WAVE16A,
  HELD_OUT_WAVE16B,
  HELD_OUT_WAVE6,
  HELD_OUT_WAVE78,
  HELD_OUT_WAVE9,
  loadParaphrases,
  paraphrasedApps,
} from './routerAccuracy'
import {
  cachedCorpusTools,
  figuresOf,
  formatFigures,
  groupOf,
  leaveOneAppOut,
  outcomeOf,
  prepareChoices,
  weighByApp,
  type Choice,
} from './routerLoao'

const K1 = 1.2
const B = 0.75
/** Recorded values longer than this are content (a page's text), not a name a person says. */
const SHORT_VALUE = 60
const NAMES = ['lex', 'lex_best', 'lex_gap'] as const
const L2 = fitted.fitted.l2

/** A tool's document: how often it says each stem, and how many stems it says in all. */
interface LexicalDocument {
  terms: Map<string, number>
  length: number
}

function lexicalDocument(tool: ToolSpec): LexicalDocument {
  const terms = new Map<string, number>()
  let length = 0
  const add = (text: string) => {
    for (const w of words(text))
      if (w.length > 1 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)) {
        terms.set(stem(w), (terms.get(stem(w)) ?? 0) + 1)
        length++
      }
  }
  const [site = '', object = tool.name] = tool.name.includes('__') ? tool.name.split('__', 2) : []
  add(object)
  add(tool.intent)
  for (const name of [...(tool.site?.names ?? []), ...(tool.site?.titles ?? [])]) add(name)
  if (!tool.site?.names?.length) add(site)
  for (const [name, slot] of Object.entries(tool.inputs.properties ?? {})) {
    add(name)
    for (const quoted of (slot.description ?? '').matchAll(/"([^"]{2,40})"/g)) add(quoted[1]!)
    const value = slot.default
    if (
      !slot.writeOnly &&
      (typeof value === 'string' || typeof value === 'number') &&
      String(value).length <= SHORT_VALUE
    )
      add(String(value))
  }
  const url = tool.steps.at(-1)?.request.url ?? ''
  add(
    url
      .replace(/^[a-z]+:\/\/[^/]+/i, '')
      .split('?')[0]!
      .replace(/\{\{[^}]*\}\}/g, ' '),
  )
  return { terms, length }
}

/** BM25 of `doc` for `query` over `docs`, divided by the most the words could score. */
function lexicalScore(
  query: readonly ExpandedWord[],
  doc: LexicalDocument,
  frequency: ReadonlyMap<string, number>,
  documents: number,
  meanLength: number,
): number {
  const norm = K1 * (1 - B + (B * doc.length) / meanLength)
  let score = 0
  let most = 0
  for (const word of query) {
    let best = 0
    let top = 0
    for (const [s, strength] of word.stems) {
      const df = frequency.get(s) ?? 0
      const weight = strength * Math.log(1 + (documents - df + 0.5) / (df + 0.5))
      top = Math.max(top, weight)
      const tf = doc.terms.get(s) ?? 0
      if (tf) best = Math.max(best, (weight * tf) / (tf + norm))
    }
    score += best
    most += top
  }
  return most > 0 ? score / most : 0
}

/** `choices` with the three lexical features after their rows' own. */
function withLexical(choices: readonly Choice[], tools: readonly ToolSpec[]): Choice[] {
  const index = new FactIndex()
  index.sync(tools)
  const docs = new Map(tools.map((t) => [t.id, lexicalDocument(t)]))
  const frequency = new Map<string, number>()
  let total = 0
  for (const doc of docs.values()) {
    for (const s of doc.terms.keys()) frequency.set(s, (frequency.get(s) ?? 0) + 1)
    total += doc.length
  }
  const meanLength = total / Math.max(1, docs.size)
  return choices.map((c) => {
    const query = viewOf(c.text, index).words
    const lex = c.entries.map((e) =>
      lexicalScore(query, docs.get(e.tool.id)!, frequency, docs.size, meanLength),
    )
    const sorted = [...lex].sort((a, b) => b - a)
    const [best = 0, second = -Infinity] = sorted
    const rows = c.rows.map((x, i) => {
      const s = lex[i]!
      const other = s >= best ? second : best
      const gap = Number.isFinite(other) ? Math.max(-1, Math.min(1, s - other)) : s
      return [...x, s, s >= best && s > 0 ? 1 : 0, gap]
    })
    return { ...c, rows, width: DIMENSIONS + NAMES.length }
  })
}

/** `choices` with the features at `drop` (indexes) set to 0. */
function without(choices: readonly Choice[], drop: readonly number[]): Choice[] {
  return choices.map((c) => ({
    ...c,
    rows: c.rows.map((x) => x.map((v, i) => (drop.includes(i) ? 0 : v))),
  }))
}

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)
  const tools = await cachedCorpusTools()
  const learned = [
    ...loadParaphrases()
      .filter((p) => p.split === 'dev')
      .filter((_, i) => i % 6 === 0),
    ...[
      HELD_OUT,
      HELD_OUT_NEW,
      HELD_OUT_WAVE6,
      HELD_OUT_WAVE78,
      HELD_OUT_WAVE9,
      HELD_OUT_WAVE10,
      HELD_OUT_WAVE11,
      HELD_OUT_WAVE12,
      HELD_OUT_WAVE13,
      HELD_OUT_WAVE14,
    ].flatMap((file) => loadParaphrases(file)),
  ]
  const unseen: Array<[string, string]> = [
    ['wave 15', HELD_OUT_WAVE15],
    ['wave 16a', HELD_OUT_WAVE16A],
    ['wave 16b', HELD_OUT_WAVE16B],
  ]
  console.log(`${tools.length} tools, ${learned.length} paraphrases to learn from`)
  const all = weighByApp(withLexical(prepareChoices(tools, learned), tools))
  const tests = unseen.map(
    ([name, file]) =>
      [name, withLexical(prepareChoices(tools, loadParaphrases(file)), tools)] as const,
  )
  const devApps = paraphrasedApps(loadParaphrases())
  const at = (name: (typeof NAMES)[number]) => DIMENSIONS + NAMES.indexOf(name)
  const variants: Record<string, number[]> = {
    base: NAMES.map(at),
    lex: [at('lex_best'), at('lex_gap')],
    lexRel: [],
  }
  for (const [name, drop] of Object.entries(variants)) {
    if (only && only !== name) continue
    const choices = without(all, drop)
    const loao = leaveOneAppOut(choices, L2)
    const blindOnly = figuresOf(loao.outcomes.filter((o) => !devApps.has(o.choice.fold)))
    const head = (title: string, text: string) => text.replace(/^[^\n]*/, title).split('\n')
    console.log(`== ${name}`)
    console.log(head('leave one app out', formatFigures('', loao.figures)).slice(0, 5).join('\n'))
    console.log(
      head('  of it, apps without development paraphrases', formatFigures('', blindOnly))
        .slice(0, 5)
        .join('\n'),
    )
    const weights = fitChoiceModel(
      choices.filter((c) => c.readable).map(groupOf),
      DIMENSIONS + NAMES.length,
      L2,
    )
    const platt = fitPlatt(loao.outOfFold)
    for (const [set, list] of tests)
      console.log(
        formatFigures(
          `${set} (no fit saw it)`,
          figuresOf(without(list, drop).map((c) => outcomeOf(c, weights, platt))),
        ),
      )
    console.log([...FEATURES, ...NAMES].map((f, i) => `${f}=${weights[i]!.toFixed(2)}`).join(' '))
  }
}

await main()
