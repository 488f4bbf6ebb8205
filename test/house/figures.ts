// The house's figures of issue 28 "Done when", for src/: `npx tsx test/house/figures.ts`.
// `--list` also prints every function over 120 lines, every file over 400 and every bare catch;
// `--json` prints the figures as one JSON object; `--pins` prints the pinned lists of
// test/unit/houseRules.test.ts as they stand now. Dead exports come from knip (knip.jsonc names
// the entries, as for `npm run lint`); KNIP_BIN names another knip binary, `--no-knip` leaves that
// figure out.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MAX_FUNCTION_LINES, measureSources, roomOf } from './measure'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** One export or type knip finds imported nowhere, in a file under src/. */
interface DeadExport {
  file: string
  name: string
  kind: 'export' | 'type'
}

/** The shape of `knip --reporter json` this script reads (knip 6). */
interface KnipReport {
  issues: { file: string; exports?: { name: string }[]; types?: { name: string }[] }[]
}

/**
 * Exports and types under src/ that nothing imports, by `knip --include exports,types` with the
 * repository's knip.json. Throws when knip cannot run or prints no report.
 */
function deadExports(repoRoot: string): DeadExport[] {
  const local = join(repoRoot, 'node_modules/.bin/knip')
  const bin = process.env.KNIP_BIN ?? (existsSync(local) ? local : 'knip')
  const run = spawnSync(
    bin,
    ['--include', 'exports,types', '--reporter', 'json', '--no-progress'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  if (run.error) throw new Error(`knip did not run (${bin}): ${run.error.message}`)
  const start = run.stdout.indexOf('{')
  if (start < 0) throw new Error(`knip printed no report: ${run.stderr.slice(0, 2000)}`)
  const report = JSON.parse(run.stdout.slice(start)) as KnipReport
  const dead: DeadExport[] = []
  for (const issue of report.issues) {
    if (!issue.file.startsWith('src/')) continue
    for (const e of issue.exports ?? [])
      dead.push({ file: issue.file, name: e.name, kind: 'export' })
    for (const t of issue.types ?? []) dead.push({ file: issue.file, name: t.name, kind: 'type' })
  }
  return dead
}

/** `counts` as `key n` lines, biggest first. */
function tally(keys: string[]): [string, number][] {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
}

/** The pinned lists of the house-rules test, as TypeScript rows to paste. */
function pinLists(figures: ReturnType<typeof measureSources>): string {
  const long = figures.functions
    .filter((f) => f.lines > MAX_FUNCTION_LINES)
    .sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name))
    .map((f) => `  [${JSON.stringify(f.file)}, ${JSON.stringify(f.name)}, ${f.lines}],`)
  const catches = tally(figures.bareCatches.map((c) => `${c.file}\t${c.function}`))
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([key, n]) => {
      const [file, name] = key.split('\t')
      return `  [${JSON.stringify(file)}, ${JSON.stringify(name)}, ${n}],`
    })
  return [
    'const LONG_FUNCTIONS: Pin[] = [',
    ...long,
    ']',
    '',
    'const BARE_CATCHES: Pin[] = [',
    ...catches,
    ']',
  ].join('\n')
}

function main(args: string[]): void {
  const figures = measureSources(root)
  if (args.includes('--pins')) {
    console.log(pinLists(figures))
    return
  }
  const over80 = figures.functions.filter((f) => f.lines > 80)
  const over120 = figures.functions.filter((f) => f.lines > MAX_FUNCTION_LINES)
  const bigFiles = figures.files.filter((f) => f.lines > 400)
  const dead = args.includes('--no-knip') ? undefined : deadExports(root)
  const summary = {
    sourceFiles: figures.files.length,
    functions: figures.functions.length,
    functionsOver80: over80.length,
    functionsOver120: over120.length,
    filesOver400: bigFiles.length,
    casts: figures.casts.length,
    bareCatches: figures.bareCatches.length,
    bareCatchesCommented: figures.bareCatches.filter((c) => c.commented).length,
    deadExports: dead?.filter((d) => d.kind === 'export').length,
    deadTypes: dead?.filter((d) => d.kind === 'type').length,
  }
  if (args.includes('--json')) {
    const rooms = {
      bareCatches: Object.fromEntries(tally(figures.bareCatches.map((c) => roomOf(c.file)))),
      deadExports: dead && Object.fromEntries(tally(dead.map((d) => roomOf(d.file)))),
    }
    console.log(JSON.stringify({ ...summary, rooms }, null, 2))
    return
  }
  const lines = [
    `src/: ${summary.sourceFiles} files, ${summary.functions} functions`,
    `functions over 80 lines:   ${summary.functionsOver80}`,
    `functions over 120 lines:  ${summary.functionsOver120}`,
    `files over 400 lines:      ${summary.filesOver400}`,
    `type casts (not as const): ${summary.casts}`,
    `bare catches:              ${summary.bareCatches} (${summary.bareCatchesCommented} with a comment inside)`,
    dead
      ? `dead exports (knip):       ${dead.length} (${summary.deadExports} values, ${summary.deadTypes} types)`
      : 'dead exports (knip):       not measured (--no-knip)',
  ]
  console.log(lines.join('\n'))
  if (!args.includes('--list')) return
  console.log('\nfunctions over 120 lines:')
  for (const f of [...over120].sort((a, b) => b.lines - a.lines))
    console.log(`  ${f.lines}\t${f.file}\t${f.name}`)
  console.log('\nfiles over 400 lines:')
  for (const f of [...bigFiles].sort((a, b) => b.lines - a.lines))
    console.log(`  ${f.lines}\t${f.file}`)
  console.log('\nbare catches by room:')
  for (const [room, n] of tally(figures.bareCatches.map((c) => roomOf(c.file))))
    console.log(`  ${n}\t${room}`)
  if (dead) {
    console.log('\ndead exports by room:')
    for (const [room, n] of tally(dead.map((d) => roomOf(d.file)))) console.log(`  ${n}\t${room}`)
  }
}

main(process.argv.slice(2))
