/**
 * The pinned answers of the development half (issue 25 F): what the router answers to each
 * development paraphrase (`answerOf` in `routerAccuracy.ts`) among the tools of every corpus app,
 * kept in `test/integration/router/devPins.json` and asserted by `accuracy.test.ts`, so a change
 * lists exactly which intents it moved, like the compiler's `expected.json`.
 *
 * Run: `npx tsx test/bench/routerPins.ts` lists the intents whose answer moved (each marked
 * right or wrong by its paraphrase's expectation) and the totals; `--write` pins the answers of
 * now among the pinned apps, `--write --add-apps` over every corpus app (the apps are kept in the file, so a new app's tools move nothing
 * until pinned). Re-pin after a change only when what it moved is what was meant.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { appNames } from '../apps/registry'
import {
  answerIsRight,
  DEV_PINS,
  devAnswers,
  loadCorpusTools,
  loadParaphrases,
} from './routerAccuracy'

/** The pins file: answers by development paraphrase text. */
export interface DevPins {
  /** What the answers are of. */
  about: string
  /**
   * The corpus apps whose tools the answers were pinned among. A new app's tools move answers
   * only when the pins are written again with it, so adding an app is a change of its own.
   */
  apps?: string[]
  answers: Record<string, string>
}

/** The pins as committed. */
export function loadPins(): DevPins {
  return JSON.parse(readFileSync(DEV_PINS, 'utf8')) as DevPins
}

/** The apps the pins were written over (every corpus app for pins that do not say). */
export function pinnedApps(pins: DevPins = loadPins()): string[] {
  return pins.apps ?? appNames()
}

/** The intents whose answer moved from `pins` to `now`, one line each. */
export function movedAnswers(
  pins: Readonly<Record<string, string>>,
  now: Readonly<Record<string, string>>,
): string[] {
  const byText = new Map(loadParaphrases().map((p) => [p.text, p]))
  const moved: string[] = []
  for (const text of new Set([...Object.keys(pins), ...Object.keys(now)])) {
    if (pins[text] === now[text]) continue
    const p = byText.get(text)
    const mark =
      p && now[text] !== undefined ? (answerIsRight(p, now[text]) ? 'right' : 'wrong') : '?'
    moved.push(
      `${JSON.stringify(text)}: ${pins[text] ?? '(unpinned)'} -> ${now[text] ?? '(gone)'} [${mark}]`,
    )
  }
  return moved
}

async function main(): Promise<void> {
  const write = process.argv.includes('--write')
  // A new app joins the pins only when asked: its tools change the corpus the router scores in.
  const apps = write && process.argv.includes('--add-apps') ? appNames() : pinnedApps()
  const corpus = await loadCorpusTools(apps)
  const paraphrases = loadParaphrases()
  const now = devAnswers(corpus.tools, paraphrases)
  const right = paraphrases.filter((p) => p.split === 'dev' && answerIsRight(p, now[p.text]!))
  console.log(`${right.length}/${Object.keys(now).length} development answers right`)
  if (write) {
    const pins: DevPins = {
      about:
        'What the router answers to each development paraphrase of test/apps/paraphrases.json among the tools of the corpus apps listed (test/bench/routerPins.ts).',
      apps,
      answers: now,
    }
    writeFileSync(DEV_PINS, `${JSON.stringify(pins, null, 1)}\n`)
    console.log(`pinned ${DEV_PINS}`)
    return
  }
  const moved = movedAnswers(loadPins().answers, now)
  for (const line of moved) console.log(line)
  console.log(`${moved.length} answers moved`)
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) await main()
