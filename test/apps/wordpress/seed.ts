/**
 * WordPress's seed data: one admin, one editor, four categories and a dozen posts, written by
 * `php/install.php` in this order so every instance has the same ids. Workflows and answer keys
 * name their values from here.
 */

/** The admin the workflows sign in as. */
export const ADMIN = { name: 'ada', password: 'ada-garden-2024', email: 'ada@example.com' }

/**
 * Two more accounts with the admin's password: the login key's user name is an input (the person
 * typed it) while the password is the saved secret, so these are what the login tool can be
 * called with instead. Ids 2 and 3.
 */
export const USERS = [
  {
    id: 2,
    name: 'grace',
    password: ADMIN.password,
    email: 'grace@example.com',
    display: 'Grace',
    role: 'editor',
  },
  {
    id: 3,
    name: 'linus',
    password: ADMIN.password,
    email: 'linus@example.com',
    display: 'Linus',
    role: 'author',
  },
]

export interface SeedCategory {
  id: number
  name: string
  slug: string
}

/** Categories; `Uncategorized` (id 1) comes with the install. */
export const CATEGORIES: SeedCategory[] = [
  { id: 2, name: 'Vegetables', slug: 'vegetables' },
  { id: 3, name: 'Flowers', slug: 'flowers' },
  { id: 4, name: 'Recipes', slug: 'recipes' },
  { id: 5, name: 'News', slug: 'news' },
]

export interface SeedPost {
  id: number
  title: string
  slug: string
  content: string
  status: 'publish' | 'draft'
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  date: string
  category: number
}

const post = (
  id: number,
  title: string,
  slug: string,
  category: number,
  day: number,
  content: string,
): SeedPost => ({
  id,
  title,
  slug,
  content: `<!-- wp:paragraph -->\n<p>${content}</p>\n<!-- /wp:paragraph -->`,
  status: 'publish',
  date: `2024-03-${String(day).padStart(2, '0')} 09:00:00`,
  category,
})

/** Published posts with fixed ids (WordPress's `import_id`), titles, slugs and dates. */
export const POSTS: SeedPost[] = [
  post(
    11,
    'Garden Planning for Spring',
    'garden-planning',
    2,
    1,
    'Sketch the beds on paper first: where the sun falls at noon decides what grows where.',
  ),
  post(
    12,
    'Tomato Seedlings Week One',
    'tomato-seedlings',
    2,
    2,
    'The first true leaves are out; the seedlings move to the cold frame on Saturday.',
  ),
  post(
    13,
    'Growing Sweet Peas',
    'sweet-peas',
    3,
    3,
    'Soak the seeds overnight and sow them in deep pots: sweet peas hate root disturbance.',
  ),
  post(
    14,
    'Dahlia Tubers in Winter',
    'dahlia-tubers',
    3,
    4,
    'Lift the dahlia tubers after the first frost and store them dry in a cool shed.',
  ),
  post(
    15,
    'Green Tomato Chutney',
    'green-tomato-chutney',
    4,
    5,
    'Unripe tomatoes, onions, raisins and vinegar, simmered for two hours.',
  ),
  post(
    16,
    'Zucchini Bread',
    'zucchini-bread',
    4,
    6,
    'Two grated zucchini make one loaf; squeeze the water out before mixing.',
  ),
  post(
    17,
    'Weekly Update',
    'weekly-update',
    5,
    7,
    'This week: the compost bins are full and the greenhouse door is fixed.',
  ),
  post(
    18,
    'Old Announcement',
    'old-announcement',
    5,
    8,
    'The plant sale moved to the village hall. (Kept for the record.)',
  ),
  post(
    19,
    'Summer Fair Notice',
    'summer-fair-notice',
    5,
    9,
    'The summer fair is on the last Sunday of June; bring cuttings to swap.',
  ),
  post(
    20,
    'Seed Swap Reminder',
    'seed-swap-reminder',
    5,
    10,
    'Label every packet with the variety and the year you saved it.',
  ),
  post(
    21,
    'Pruning Roses',
    'pruning-roses',
    3,
    11,
    'Cut above an outward-facing bud, at a slant, so the rain runs off.',
  ),
  post(
    22,
    'Pickled Beetroot',
    'pickled-beetroot',
    4,
    12,
    'Roast the beetroot whole, peel it warm and pack it into hot jars with spiced vinegar.',
  ),
]

/** The seed as `php/install.php` reads it (JSON), for the instance at `origin`. */
export function seedJson(origin: string): string {
  return JSON.stringify({
    origin,
    title: 'Allotment Diary',
    tagline: 'Notes from plot 7',
    theme: 'twentytwentyone',
    admin: ADMIN,
    users: USERS,
    categories: CATEGORIES,
    posts: POSTS,
  })
}

/** A seeded post by id; throws when there is none (a typo in a workflow). */
export function seedPost(id: number): SeedPost {
  const found = POSTS.find((p) => p.id === id)
  if (!found) throw new Error(`no seeded post ${id}`)
  return found
}
