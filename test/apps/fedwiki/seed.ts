/**
 * The seed data of the Federated Wiki instance: a data dir with a claimed site (the friends
 * security module's `status/owner.json`, whose `friend.secret` is the reclaim code the owner
 * pastes into the padlock dialog to sign in) and a handful of pages, each a JSON file named by its
 * slug under `pages/`. Item ids are fixed 16-hex strings so the stored traces stay valid.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The site's owner: the nickname the footer shows and the reclaim code (its "password"). */
export const OWNER = {
  name: 'ada',
  secret: 'b7c1e9a04f3d2e6a8c5b1f0e9d7a6c4b3e2f1a0d9c8b7a6e5f4d3c2b1a0f9e8d',
}

/** One paragraph of a seeded page. */
interface SeedItem {
  type: 'paragraph'
  id: string
  text: string
}

/** A seeded page: slug, title and paragraphs. */
export interface SeedPage {
  slug: string
  title: string
  story: SeedItem[]
}

const p = (id: string, text: string): SeedItem => ({ type: 'paragraph', id, text })

/** The pages of a fresh instance (besides the welcome page wiki-server supplies by default). */
export const PAGES: SeedPage[] = [
  {
    slug: 'welcome-visitors',
    title: 'Welcome Visitors',
    story: [
      p('a1b2c3d4e5f60718', 'Welcome to the Riverside Allotment wiki, kept by [[Ada]].'),
      p(
        'b2c3d4e5f6071829',
        'Our pages: [[Garden Plan]], [[Sourdough Bread]], [[Tool Shed]], [[Compost Heap]], [[Meeting Notes]].',
      ),
    ],
  },
  {
    slug: 'ada',
    title: 'Ada',
    story: [p('c3d4e5f607182930', 'Ada looks after plot 7 and the tool shed keys.')],
  },
  {
    slug: 'garden-plan',
    title: 'Garden Plan',
    story: [
      p('d4e5f60718293041', 'Tomatoes go along the south fence this year.'),
      p('e5f6071829304152', 'Water the tomatoes every evening in July.'),
      p('f607182930415263', 'Beans climb the old trellis by the gate.'),
      p('0718293041526374', 'Leeks in the raised bed, sown in March.'),
    ],
  },
  {
    slug: 'sourdough-bread',
    title: 'Sourdough Bread',
    story: [
      p('1829304152637485', 'Feed the starter twice a day with rye flour.'),
      p('2930415263748596', 'Bake at 230 degrees in the cast iron pot.'),
    ],
  },
  {
    slug: 'tool-shed',
    title: 'Tool Shed',
    story: [
      p('3041526374859607', 'The padlock code changes every spring.'),
      p('4152637485960718', 'Return the wheelbarrow to the back corner.'),
      p('5263748596071829', 'The broken rake is waiting for a new handle.'),
    ],
  },
  {
    slug: 'compost-heap',
    title: 'Compost Heap',
    story: [
      p('6374859607182930', 'Turn the heap once a fortnight.'),
      p('7485960718293041', 'No cooked food or meat in the compost.'),
    ],
  },
  {
    slug: 'meeting-notes',
    title: 'Meeting Notes',
    story: [
      p('8596071829304152', 'March meeting: agreed to buy a second water butt.'),
      p('9607182930415263', 'April meeting: plot 12 goes to the school garden club.'),
      p('c930415263748596', 'Next: plan the [[Harvest Festival]] and the [[Winter Jobs]] list.'),
    ],
  },
  {
    slug: 'old-rota',
    title: 'Old Rota',
    story: [p('a718293041526374', 'Watering rota for 2023, kept for the record.')],
  },
  {
    slug: 'seed-swap',
    title: 'Seed Swap',
    story: [p('b829304152637485', 'Bring spare seeds to the hut on the first Saturday.')],
  },
]

/** Pages already deleted, kept in the site's recycler (`recycle/<slug>`), as the owner can list them. */
const RECYCLED: SeedPage[] = [
  {
    slug: 'draft-budget',
    title: 'Draft Budget',
    story: [p('d930415263748596', 'Draft of the 2025 budget, superseded.')],
  },
  {
    slug: 'old-minutes',
    title: 'Old Minutes',
    story: [p('e041526374859607', 'Minutes of the 2022 meetings.')],
  },
  {
    slug: 'spare-plots',
    title: 'Spare Plots',
    story: [p('f152637485960718', 'No spare plots this year.')],
  },
]

/** A fixed date (1 March 2026) for the seeded journals, so the pages are the same every time. */
const SEEDED_AT = Date.UTC(2026, 2, 1, 9, 0, 0)

/** Writes the owner file and the pages into the data dir `data`. */
export function writeSeed(data: string): void {
  mkdirSync(join(data, 'status'), { recursive: true })
  mkdirSync(join(data, 'pages'), { recursive: true })
  writeFileSync(
    join(data, 'status', 'owner.json'),
    JSON.stringify({ name: OWNER.name, friend: { secret: OWNER.secret } }, null, 2),
  )
  mkdirSync(join(data, 'recycle'), { recursive: true })
  const write = (dir: string, page: SeedPage, i: number) => {
    const date = SEEDED_AT + i * 60_000
    const journal = [
      { type: 'create', item: { title: page.title, story: [] }, date },
      ...page.story.map((item, j) => ({
        type: 'add',
        id: item.id,
        item,
        ...(j > 0 ? { after: page.story[j - 1]!.id } : {}),
        date: date + (j + 1) * 1000,
      })),
    ]
    writeFileSync(
      join(data, dir, page.slug),
      JSON.stringify({ title: page.title, story: page.story, journal }, null, 2),
    )
  }
  PAGES.forEach((page, i) => write('pages', page, i))
  RECYCLED.forEach((page, i) => write('recycle', page, PAGES.length + i))
}
