/**
 * The router's text normalisation: words out of intents, tool names, URL paths and slot names,
 * reduced to comparable stems. Deterministic and dictionary-free on purpose: the same intent gives
 * the same stems on every machine, so a score means the same thing everywhere.
 */

/** Plural and inflected forms that the suffix rules below would get wrong. */
const IRREGULAR: Record<string, string> = {
  // (Too short for the rules below: the plural of `ID`.)
  ids: 'id',
  children: 'child',
  people: 'person',
  men: 'man',
  women: 'woman',
  data: 'data',
  news: 'news',
  analyses: 'analysis',
  indices: 'index',
  indexes: 'index',
  series: 'series',
  status: 'status',
  statuses: 'status',
  address: 'address',
  addresses: 'address',
  business: 'business',
  bus: 'bus',
  gas: 'gas',
  login: 'login',
  logins: 'login',
  signin: 'login',
  signup: 'signup',
}

const VOWEL = /[aeiouy]/

/**
 * A light stem of one lower-case word (a small subset of Porter's 1980 suffix rules): plural
 * `-ies/-es/-s`, `-ing`, `-ed`, a doubled final consonant, and a final `-e`, so `searching`,
 * `searches` and `search` agree, as do `write` and `writing`, `update` and `updated`.
 */
export function stem(word: string): string {
  let stemmed = STEMS.get(word)
  if (stemmed === undefined) {
    // The scorer asks the same few words again for every candidate tool.
    if (STEMS.size >= STEM_MEMO_SIZE) STEMS.clear()
    STEMS.set(word, (stemmed = stemOnce(word)))
  }
  return stemmed
}

/** Stems already computed, by word; cleared when it reaches {@link STEM_MEMO_SIZE}. */
const STEMS = new Map<string, string>()
const STEM_MEMO_SIZE = 50_000

function stemOnce(word: string): string {
  const irregular = IRREGULAR[word]
  if (irregular) return irregular
  let w = word
  if (w.length <= 3 || /\d/.test(w)) return w
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`
  else if (/(ss|x|ch|sh|z)es$/.test(w)) w = w.slice(0, -2)
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.endsWith('ied') && w.length > 5) w = `${w.slice(0, -3)}y`
  else if (w.endsWith('ing') && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = w.slice(0, -3)
  else if (w.endsWith('ed') && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = w.slice(0, -2)
  if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1)
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1)
  return w
}

/** True for a plural noun form (`orders`, `categories`), by its suffix. */
export function isPlural(word: string): boolean {
  return word.endsWith('s') && !word.endsWith('ss') && stem(word) !== word
}

/**
 * Lower-case words of `text`: camelCase, snake_case, kebab-case, dots and slashes split, accents
 * dropped, anything but letters and digits a separator. Quoted parts are not special here (see
 * `parseIntent`).
 */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // (`IDs`, `URLs`: an acronym's plural is one word.)
      .replace(/\b([A-Z]{2,})s\b/g, (_, acronym: string) => `${acronym.toLowerCase()}s`)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
  )
}

/** Words that carry no meaning of their own in an intent or a tool's text. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'my',
  'our',
  'your',
  'their',
  'his',
  'her',
  'its',
  'this',
  'that',
  'these',
  'those',
  'some',
  'any',
  'me',
  'i',
  'we',
  'you',
  'it',
  'is',
  'are',
  'be',
  'am',
  'was',
  'please',
  'can',
  'could',
  'would',
  'will',
  'want',
  'wants',
  'need',
  'needs',
  'help',
  'let',
  'lets',
  'us',
  'so',
  'then',
  'just',
  'also',
  'there',
  'what',
  'which',
  'who',
  'how',
  'do',
  'does',
  'up',
  'out',
  'one',
  'via',
  'using',
  'use',
])

/**
 * Words that name no particular thing (site, page, results, data...): an intent's generic word the
 * tool does not share costs little, and none can be the intent's head noun.
 */
export const GENERIC_STEMS = new Set(
  [
    'site',
    'website',
    'web',
    'online',
    'result',
    'data',
    'info',
    'information',
    'detail',
    'record',
    'entry',
    'thing',
    'stuff',
    'list',
    'all',
    'every',
    'each',
    'available',
    'new',
    'latest',
    'recent',
    'current',
    'existing',
    'app',
    'application',
    'service',
    'server',
    'instance',
    // When, not what or where (`to say hiking on [saturday]`).
    ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
    ...['today', 'tomorrow', 'tonight', 'yesterday', 'morning', 'afternoon'],
    'evening',
    // What any web app is called by what it is, not by what it holds (`the ticket [system]`).
    'system',
    'platform',
    'portal',
    'ui',
    'gui',
    'interface',
    'api',
    'endpoint',
    'database',
    'catalog',
    'many',
    'more',
    'most',
    'few',
    'other',
    'same',
    'first',
    'last',
    'next',
    'everything',
    'anything',
    // The pieces of a screen say where a person clicks, not what a tool works on (`the flow
    // [tab]`, `the inject [button]`).
    'button',
    'tab',
    'screen',
    'menu',
    'dialog',
    'window',
    'panel',
  ].map(stem),
)

/** Host labels that say nothing about the site (`www`, top-level domains, `example`). */
export const HOST_NOISE = new Set([
  'www',
  'api',
  'app',
  'com',
  'org',
  'net',
  'io',
  'co',
  'uk',
  'de',
  'fr',
  'dev',
  'ai',
  'example',
  'localhost',
  'local',
])
