/**
 * The deterministic seed of Tiny Tiny RSS: one reader, three categories, six subscribed feeds
 * and three more feed files nobody subscribed to yet, every feed a fixed RSS 2.0 document with
 * fixed items and dates. The feeds live at `http://feeds.example/<name>.xml`, served by the
 * instance's own little HTTP proxy (see `server.ts`), so a feed URL is the same on every start.
 */

/** The user every workflow signs in as (tt-rss's internal auth, MODE2 salted SHA-256). */
export const MAIN_USER = { name: 'reader', password: 'feeds-2026' }
/** A fixed salt: tt-rss hashes MODE2 passwords as sha256(salt . password). */
const MAIN_SALT = 'sitecall0ttrss0salt0for0the0reader0account0fixed0value'

/** The made-up host every feed URL names; only the instance's proxy answers for it. */
export const FEED_HOST = 'feeds.example'

/** One item of a seeded feed. */
interface SeedItem {
  title: string
  /** A short paragraph: search reads it too. */
  body: string
  /** RFC 822 date, fixed. */
  date: string
}

/** One seeded feed file, subscribed (with its category) or only served. */
export interface SeedFeed {
  /** File name under `http://feeds.example/`. */
  file: string
  title: string
  /** Category title, or null for Uncategorized; undefined: served but not subscribed. */
  category?: string | null
  items: SeedItem[]
}

/** The URL of a seeded feed file. */
export function feedUrl(file: string): string {
  return `http://${FEED_HOST}/${file}`
}

/** The categories, in id order (1, 2, 3). */
export const CATEGORIES = ['Hobbies', 'Local', 'Science']

const day = (d: number, hour: number) =>
  `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(2026, 10, d)).getUTCDay()]}, ${String(d).padStart(2, '0')} Nov 2026 ${String(hour).padStart(2, '0')}:00:00 +0000`

/** Small two-item feeds: [file, title, category (undefined: not subscribed), item titles]. */
function smallFeeds(
  rows: Array<[string, string, string | null | undefined, [string, string]]>,
): SeedFeed[] {
  return rows.map(([file, title, category, titles], n) => ({
    file,
    title,
    category,
    items: titles.map((t, i) => ({
      title: t,
      body: `${t}: a short note from ${title}.`,
      date: day(10 + n, 12 - i),
    })),
  }))
}

/** Subscribed feeds first, in the order their ids are given (1..12), then the unsubscribed ones. */
export const FEEDS: SeedFeed[] = [
  {
    file: 'garden.xml',
    title: 'Garden Notes',
    category: 'Hobbies',
    items: [
      {
        title: 'Planting garlic before the frost',
        body: 'Cloves go in six weeks before the ground freezes.',
        date: day(20, 8),
      },
      {
        title: 'Saving tomato seeds for spring',
        body: 'Ferment the tomato pulp for three days, then rinse and dry the seeds.',
        date: day(18, 9),
      },
      {
        title: 'Mulching the rose beds',
        body: 'A thick layer of straw keeps the roots warm through winter.',
        date: day(15, 10),
      },
      {
        title: 'Winter pruning of apple trees',
        body: 'Cut crossing branches while the tree is dormant.',
        date: day(12, 11),
      },
    ],
  },
  {
    file: 'transit.xml',
    title: 'City Transit News',
    category: 'Local',
    items: [
      {
        title: 'Night buses return to line 14',
        body: 'Service runs every thirty minutes after midnight from December.',
        date: day(21, 7),
      },
      {
        title: 'Tram depot open day on Saturday',
        body: 'Visitors can tour the workshop and ride a historic tram.',
        date: day(19, 12),
      },
      {
        title: 'New bicycle lanes on Harbour Street',
        body: 'The protected lanes connect the ferry terminal with the station.',
        date: day(16, 8),
      },
      {
        title: 'Fare changes from January',
        body: 'Monthly passes stay at the same price; single tickets rise slightly.',
        date: day(13, 9),
      },
    ],
  },
  {
    file: 'kitchen.xml',
    title: 'Kitchen Chronicles',
    category: 'Hobbies',
    items: [
      {
        title: 'Roasted tomato soup for cold evenings',
        body: 'Roast the tomatoes with garlic and thyme before blending.',
        date: day(22, 18),
      },
      {
        title: 'Sourdough starter in five days',
        body: 'Feed the starter twice a day with rye flour and water.',
        date: day(17, 19),
      },
      {
        title: 'Pumpkin risotto step by step',
        body: 'Stir in the roasted pumpkin at the very end.',
        date: day(14, 17),
      },
      {
        title: 'Spiced apple cake',
        body: 'Cinnamon, cloves and a little cardamom make the cake.',
        date: day(11, 16),
      },
    ],
  },
  {
    file: 'astronomy.xml',
    title: 'Astronomy Tonight',
    category: 'Science',
    items: [
      {
        title: 'Geminid meteor shower peaks in December',
        body: 'Up to one hundred and twenty meteors an hour under dark skies.',
        date: day(23, 21),
      },
      {
        title: 'Jupiter at opposition',
        body: 'The giant planet is at its brightest this month.',
        date: day(20, 22),
      },
      {
        title: 'Spotting the Andromeda galaxy',
        body: 'Find it with binoculars below the W of Cassiopeia.',
        date: day(15, 23),
      },
      {
        title: 'A beginner telescope guide',
        body: 'A small refractor on a steady mount beats a wobbly big one.',
        date: day(10, 20),
      },
    ],
  },
  {
    file: 'tech.xml',
    title: 'Tech Weekly',
    category: null,
    items: [
      {
        title: 'Open source office suites compared',
        body: 'Three suites, the same twelve documents, and the results.',
        date: day(24, 6),
      },
      {
        title: 'Why your laptop battery wears out',
        body: 'Heat and full charges age lithium cells fastest.',
        date: day(19, 6),
      },
      {
        title: 'Home routers that still get updates',
        body: 'Which vendors kept patching models from five years ago.',
        date: day(14, 6),
      },
      {
        title: 'The return of the mechanical keyboard',
        body: 'Hot-swappable switches made the hobby cheaper.',
        date: day(9, 6),
      },
    ],
  },
  {
    file: 'birds.xml',
    title: 'Backyard Birding',
    category: null,
    items: [
      {
        title: 'Feeding robins in winter',
        body: 'Chopped apple and mealworms help robins through the frost.',
        date: day(22, 8),
      },
      {
        title: 'Counting birds for the winter survey',
        body: 'One hour in the garden, write down the most of each species seen at once.',
        date: day(18, 8),
      },
      {
        title: 'Nest boxes to put up in autumn',
        body: 'Face the hole away from the prevailing wind.',
        date: day(12, 8),
      },
      {
        title: 'Owls calling at dusk',
        body: 'Tawny owls are loudest in late autumn.',
        date: day(8, 8),
      },
    ],
  },
  ...smallFeeds([
    [
      'film.xml',
      'Film Club',
      'Hobbies',
      ['Silent comedies on the big screen', 'Director talk after the matinee'],
    ],
    [
      'weather.xml',
      'Weather Watch',
      'Local',
      ['First snow expected on Thursday', 'A mild and windy weekend'],
    ],
    [
      'podcasts.xml',
      'Podcast Picks',
      null,
      ['Five history shows worth a listen', 'Interviews with bakers'],
    ],
    [
      'museum.xml',
      'Museum Diary',
      'Local',
      ['The new dinosaur hall opens', 'Late opening on Fridays'],
    ],
    [
      'running.xml',
      'Running Log',
      'Hobbies',
      ['Interval training for beginners', 'Shoes for wet trails'],
    ],
    [
      'books.xml',
      'Book Nook',
      'Hobbies',
      ['Winter reading list', 'A visit to the printing museum'],
    ],
    // Served but not subscribed: the subscribe workflow adds these.
    [
      'cycling.xml',
      'Cycling Routes',
      undefined,
      ['Riverside loop of forty kilometres', 'Winter tyres for commuters'],
    ],
    [
      'chess.xml',
      'Chess Corner',
      undefined,
      ['The Queens Gambit declined', 'Endgames every player should know'],
    ],
    [
      'photo.xml',
      'Photo Walks',
      undefined,
      ['Golden hour in the old town', 'Shooting fog by the lake'],
    ],
  ]),
]

/** The subscribed feeds, in id order. */
export const SUBSCRIBED = FEEDS.filter((f) => f.category !== undefined)

/** The feed id tt-rss gives `title` in the seed (ids are fixed by the seed's insert order). */
export function feedId(title: string): number {
  const i = SUBSCRIBED.findIndex((f) => f.title === title)
  if (i < 0) throw new Error(`no seeded feed ${title}`)
  return i + 1
}

/** The labels (created through SQL with fixed ids; tt-rss shows label N as feed -1024-N). */
const LABELS = ['Read later', 'Recipes']

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The RSS 2.0 document of `feed` (fixed guids, links and dates). */
export function feedXml(feed: SeedFeed): string {
  const base = feedUrl(feed.file).replace(/\.xml$/, '')
  const items = feed.items
    .map(
      (item, i) => `    <item>
      <title>${xml(item.title)}</title>
      <link>${base}/item-${i + 1}.html</link>
      <guid isPermaLink="false">${FEED_HOST}/${feed.file}#${i + 1}</guid>
      <pubDate>${item.date}</pubDate>
      <description>${xml(item.body)}</description>
    </item>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>${xml(feed.title)}</title>
    <link>${base}/</link>
    <description>${xml(feed.title)}, a seeded test feed</description>
${items}
  </channel>
</rss>
`
}

const sql = (s: string) => `'${s.replace(/'/g, "''")}'`

/**
 * SQL run after tt-rss's own schema: the reader (id 2; the schema's admin is 1), its categories,
 * its subscriptions and its labels, all with fixed ids. Articles come from fetching the feeds
 * with `update.php --update-feed`, in feed order.
 */
export function seedSql(): string {
  const lines: string[] = []
  lines.push(
    `insert into ttrss_users (id, login, pwd_hash, salt, access_level, full_name, email, created) values (2, ${sql(MAIN_USER.name)}, 'MODE2:' || encode(sha256(convert_to(${sql(MAIN_SALT + MAIN_USER.password)}, 'UTF8')), 'hex'), ${sql(MAIN_SALT)}, 10, 'Robin Reader', 'reader@example.org', '2026-11-01 09:00:00');`,
    `select setval('ttrss_users_id_seq', 2);`,
  )
  CATEGORIES.forEach((title, i) =>
    lines.push(
      `insert into ttrss_feed_categories (id, owner_uid, title, order_id) values (${i + 1}, 2, ${sql(title)}, ${i});`,
    ),
  )
  lines.push(`select setval('ttrss_feed_categories_id_seq', ${CATEGORIES.length});`)
  SUBSCRIBED.forEach((feed, i) => {
    const cat = feed.category ? String(CATEGORIES.indexOf(feed.category) + 1) : 'null'
    lines.push(
      `insert into ttrss_feeds (id, owner_uid, title, feed_url, cat_id, order_id) values (${i + 1}, 2, ${sql(feed.title)}, ${sql(feedUrl(feed.file))}, ${cat}, ${i});`,
    )
  })
  lines.push(`select setval('ttrss_feeds_id_seq', ${SUBSCRIBED.length});`)
  LABELS.forEach((caption, i) =>
    lines.push(
      `insert into ttrss_labels2 (id, owner_uid, caption) values (${i + 1}, 2, ${sql(caption)});`,
    ),
  )
  lines.push(`select setval('ttrss_labels2_id_seq', ${LABELS.length});`)
  return lines.join('\n') + '\n'
}

/** Articles seeded as starred (by title), set after the feeds were fetched. */
const STARRED = ['Geminid meteor shower peaks in December', 'Sourdough starter in five days']

/** SQL run once the feeds were fetched: the starred articles. */
export function afterFetchSql(): string {
  return (
    STARRED.map(
      (title) =>
        `update ttrss_user_entries set marked = true, last_marked = '2026-11-25 10:00:00' where owner_uid = 2 and ref_id = (select id from ttrss_entries where title = ${sql(title)});`,
    ).join('\n') + '\n'
  )
}
