import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** One seeded tiddler: the same title, tags and text on every start. */
export interface SeedTiddler {
  title: string
  tags: string[]
  text: string
}

/** The wiki's content: a small team wiki with notes, recipes and plans. */
const SEED_TIDDLERS: SeedTiddler[] = [
  {
    title: 'Welcome',
    tags: [],
    text: 'This is the team wiki. See [[Meeting Notes]] and [[Project Roadmap]].',
  },
  { title: 'Meeting Notes', tags: ['Work'], text: 'Discuss the quarterly budget with Dana.' },
  {
    title: 'Project Roadmap',
    tags: ['Work'],
    text: 'Ship the beta in March, then the budget app.',
  },
  { title: 'Recipe Lentil Soup', tags: ['Cooking'], text: 'Red lentils, cumin, lemon.' },
  { title: 'Recipe Pancakes', tags: ['Cooking'], text: 'Flour, milk, eggs, a pinch of salt.' },
  { title: 'Reading List', tags: ['Personal'], text: 'Dune; The Left Hand of Darkness.' },
  { title: 'Travel Plans', tags: ['Personal'], text: 'Lisbon in May, Oslo in August.' },
  // Tiddlers that only the tools' runs touch (a run must not meet a recording's change).
  { title: 'Budget Review', tags: ['Work'], text: 'Costs are up four percent.' },
  { title: 'Team Offsite', tags: ['Work'], text: 'Two days at the lake in June.' },
  { title: 'Garden Notes', tags: ['Personal'], text: 'Plant tomatoes after the frost.' },
  // Three throwaway tiddlers: the delete workflow removes one when recorded, one per tool run.
  { title: 'Old Draft', tags: [], text: 'Nothing worth keeping here.' },
  { title: 'Scratch Pad', tags: [], text: 'Phone numbers to sort out.' },
  { title: 'Unused Ideas', tags: [], text: 'A wiki for the garden.' },
]

/** The seeded tiddler titled `title`; throws when the seed has none (a key's typo). */
export function seeded(title: string): SeedTiddler {
  const found = SEED_TIDDLERS.find((t) => t.title === title)
  if (!found) throw new Error(`no seeded tiddler ${title}`)
  return found
}

/** Fixed timestamps (TiddlyWiki's `YYYYMMDDhhmmssmmm`, UTC) so seeded files never differ. */
const STAMP = '20260101090000000'

/**
 * The `.tid` file of a tiddler: header fields, a blank line, the text. Tags with spaces would
 * need `[[...]]`; the seed's tags have none.
 */
function tidFile(fields: Record<string, string>, text: string): string {
  const header = Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
  return `${header}\n\n${text}\n`
}

/**
 * Writes the seed into `<wikiDir>/tiddlers` as `.tid` files, plus the site title and the default
 * story (only Welcome open), so every start shows the same page.
 */
export function writeSeed(wikiDir: string): void {
  const dir = join(wikiDir, 'tiddlers')
  mkdirSync(dir, { recursive: true })
  let n = 0
  for (const t of SEED_TIDDLERS) {
    const fields: Record<string, string> = { title: t.title, created: STAMP, modified: STAMP }
    if (t.tags.length) fields['tags'] = t.tags.join(' ')
    writeFileSync(join(dir, `seed${n++}.tid`), tidFile(fields, t.text))
  }
  writeFileSync(join(dir, 'site-title.tid'), tidFile({ title: '$:/SiteTitle' }, 'Team Wiki'))
  writeFileSync(
    join(dir, 'default-tiddlers.tid'),
    tidFile({ title: '$:/DefaultTiddlers' }, '[[Welcome]]'),
  )
}
