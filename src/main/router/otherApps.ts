/**
 * Apps and sites an intent names that no tool is on (`upload x.pdf to my Dropbox`, `open a GitHub
 * issue`, `log in to Slack`, `search Jira for ...`): a proper name where an app stands is a
 * site, never a value a slot may take, so a tool of another site does not do what was asked.
 *
 * A name is a run of capitalised words (or a product's name English lacks in lower case: `n8n`,
 * `gmail`; not quoted) that is no site name of any tool and that English lacks (no WordNet word)
 * or that names a product or begins with one (`simple-icons`: `Notion`, `Box`, `Docker Hub`), or
 * any name at all where only a site can stand (after `log in to`). The request's first word is
 * an app only as a label (`GitLab: create issue X`); a lower-case one only after `my`, `our`,
 * `your`, `to` or where an app stands (`the readme of X` is no ReadMe's).
 *
 * Where an app stands: after `on`, `in`, `into`, `onto`, `from`, `at`, `via` (with `my`, `our`,
 * `the` or `your` between; not a secret's source: `a code from Google Authenticator`), `to
 * my|our` (`to my Dropbox`) or a `to` that gives no new name, last or before `as`, `for`...
 * (`upload a.pdf to Google Drive`); between `a`, `my`, `our` or `your` and a thing apps hold (`a
 * GitHub issue`, `my Box folder`), or `the` and a thing named after it (`the Squarespace page Old
 * Offers`: `the Todo tiddler` is one named so), or a product's name English lacks and any noun
 * (`the GitHub Actions workflow`) or such a product before a thing apps hold, after any word
 * (`open Figma file X`); before a place apps are (`our Ghost blog`) or a thing numbered or keyed
 * (`Zendesk ticket #4521`, `Linear issue ENG-214`); after `search`, `query`, `filter` or
 * `browse` before `for` or a thing (`search Jira for`, `filter Zendesk tickets`, `search my
 * gmail for`); after `log me into`. A file's or a namespaced page's name
 * (`README.md`, `Category:Events`) is a value.
 */

/** What the detector asks of the router's vocabularies. */
export interface AppVocabulary {
  /** True when lower-case `word` names the site of some tool (`redmine`, `nodered`). */
  isSite(word: string): boolean
  /** True when lower-case `word` is an English word (WordNet) or a word some tool says. */
  isKnown(word: string): boolean
  /** True when lower-case `word` names a thing apps hold (`issue`, `page`, `folder`). */
  isThing(word: string): boolean
  /**
   * True when lower-case `name` (words joined by spaces: `google drive`) is a product's name
   * that is no record of the tools' (`meaning/products.ts`): `notion`, `box`, `ghost`.
   */
  isProduct(name: string): boolean
}

const BEFORE_APP = new Set(['on', 'in', 'into', 'onto', 'from', 'at', 'via'])
/** Verbs whose object may be the app searched (`search Jira for X`, `filter Zendesk tickets`). */
const SEARCHING = new Set(['search', 'query', 'filter', 'browse'])
const OWNERS = new Set(['my', 'our', 'the', 'your'])
const DETERMINERS = new Set([...OWNERS, 'a', 'an'])
/** Words after which a request goes on past the place it names (`to YouTube [as] unlisted`). */
const CLAUSE_GOES_ON = new Set(['as', 'for', 'with', 'and', 'so', 'then', 'because'])
/** Secrets an app gives (`a code from Google Authenticator`). */
const SECRETS = new Set(['code', 'codes', 'token', 'otp', 'password', 'passcode', 'key'])
/** Where an app holds its things: `our Ghost blog`, `my Obsidian vault`. */
const PLACES = new Set(['blog', 'wiki', 'site', 'app', 'account', 'workspace', 'vault', 'space'])
/** Words that give a thing a new name, so `to X` after them is the name (`rename a to Notion`). */
const NAMING = /\b(?:re-?name|name|call|title|retitle|change|set|switch|update)\w*\b/i
const SIGN_IN =
  /\b(?:log|sign)\s*(?:me\s+|us\s+)?(?:in|on)?\s*(?:to|into)\s+(?:my\s+|our\s+|the\s+)?$/i

/** Lower-case names of apps `text` names where an app stands that no tool's site is. */
export function namedApps(text: string, vocabulary: AppVocabulary): string[] {
  // Quoted text is a value whatever it says.
  const bare = text.replace(/"[^"]*"|“[^”]*”|‘[^’]*’|(?<=^|\s)'[^']+'(?=\s|$|[.,;:!?])/g, ' ” ')
  const tokens = [...bare.matchAll(/[A-Za-z][\w-]*|[^\sA-Za-z]+/g)].map((m) => ({
    word: m[0],
    at: m.index!,
  }))
  // (A product's name English lacks is one in lower case too: `the n8n workflow`, `my gmail`.)
  const lowerProduct = (t: string) =>
    /^[a-z]/.test(t) && vocabulary.isProduct(t) && !vocabulary.isKnown(t)
  const found: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    if (!/^[A-Z]/.test(tokens[i]!.word) && !lowerProduct(tokens[i]!.word)) continue
    // A run of capitalised words is one name (`Google Drive`).
    let end = i
    while (end + 1 < tokens.length && /^[A-Z]/.test(tokens[end + 1]!.word)) end++
    const words = tokens.slice(i, end + 1).map((t) => t.word.toLowerCase())
    const start = i
    i = end
    // (A file's or a namespaced page's name: `README.md`, `Category:Events`.)
    const next = bare.slice(tokens[end]!.at + tokens[end]!.word.length)
    if (/^[.:/_][A-Za-z0-9]/.test(next)) continue
    // (`Node-RED` is the site labelled `nodered`, `Sitecall Wiki` the one labelled `sitecallwiki`.)
    const forms = [...words, words.join('')].flatMap((w) => [
      w,
      w.replace(/-/g, ''),
      w.replace(/-/g, '_'),
    ])
    if (forms.some((w) => vocabulary.isSite(w))) continue
    const before = (tokens[start - 1]?.word ?? '').toLowerCase()
    const before2 = (tokens[start - 2]?.word ?? '').toLowerCase()
    const after = (tokens[end + 1]?.word ?? '').toLowerCase()
    const signingIn = SIGN_IN.test(bare.slice(0, tokens[start]!.at))
    // (`Docker Hub`, `Google Doc Q3`: a product's name may begin a longer one.)
    const product = words.some((_, n) => vocabulary.isProduct(words.slice(0, n + 1).join(' ')))
    const unknown = words.some((w) => !vocabulary.isKnown(w))
    const foreign = product || unknown
    // (A common noun after the name: `the Docker images`, `the Airtable base Inventory`.)
    const noun = /^[a-z]/.test(tokens[end + 1]?.word ?? '')
    // (`the Squarespace page Old Offers`: the page is named after, so the name before is its app.)
    const named = /^\s*(?:[A-Z"“‘]|'(?!s\b)|called|named|titled)/.test(
      bare.slice(
        tokens[end + 1] ? tokens[end + 1]!.at + tokens[end + 1]!.word.length : bare.length,
      ),
    )
    // (`a one-time code from Google Authenticator` says where a secret comes from, not where to act.)
    const secretFrom = before === 'from' && SECRETS.has(before2)
    // (`GitLab: create issue X`: a name that labels the request says where; only there may the
    // request's first word be an app.)
    const label = /^:\s/.test(next)
    if (start === 0) {
      if (label && product) found.push(...words)
      continue
    }
    const where =
      (BEFORE_APP.has(before) && !secretFrom) ||
      (BEFORE_APP.has(before2) && OWNERS.has(before)) ||
      (before2 === 'to' && (before === 'my' || before === 'our')) ||
      // (`attach x.png to Bugzilla bug 5531`: a thing of that app; `to Fieldtrips` a new name.)
      (before === 'to' && vocabulary.isThing(after)) ||
      // (`a GitHub issue` is made on GitHub; `the Todo tiddler` is one named Todo.)
      ((before === 'a' || before === 'an') && vocabulary.isThing(after)) ||
      // (`search Jira for X`, `filter Zendesk tickets`, `search my gmail for X`.)
      (SEARCHING.has(before) && (after === 'for' || vocabulary.isThing(after))) ||
      (SEARCHING.has(before2) && OWNERS.has(before) && (after === 'for' || label)) ||
      // (`upload a.pdf to Google Drive`, unless `to` gives a new name: `rename a to Fieldtrips`.)
      (before === 'to' &&
        (!tokens[end + 1] || CLAUSE_GOES_ON.has(after)) &&
        !NAMING.test(bare.slice(0, tokens[start]!.at))) ||
      // (`my Box folder`, `our Ghost blog`, `the Squarespace page Old Offers`.)
      (OWNERS.has(before) && PLACES.has(after)) ||
      (OWNERS.has(before) && before !== 'the' && vocabulary.isThing(after)) ||
      ((OWNERS.has(before) || before === 'new') && vocabulary.isThing(after) && named) ||
      // (`the Miro board Roadmap`, `list the Docker images`: a thing no tool's site holds; `the
      // Scratch tiddler` is one named so.)
      (DETERMINERS.has(before) && noun && !vocabulary.isThing(after) && (product || named)) ||
      // (`the GitHub Actions workflow`: a product's name English lacks names no record.)
      (DETERMINERS.has(before) && noun && product && unknown) ||
      // (`open Figma file X`: so is one before a thing apps hold, whatever comes before.)
      (product && vocabulary.isThing(after) && unknown) ||
      // (`set Zendesk ticket #4521 to Solved`, `Linear issue ENG-214`: a numbered thing of that
      // app, by number or by key.)
      (vocabulary.isThing(after) && /^(?:#?\d|[A-Z]{2,}-\d)/.test(tokens[end + 2]?.word ?? ''))
    // (A lower-case brand is an app only where nothing else could stand: `my gmail`, `on github`;
    // `the readme of X` is no ReadMe's.)
    const lower = /^[a-z][^\d]*$/.test(tokens[start]!.word)
    const owned =
      ['my', 'our', 'your'].includes(before) || BEFORE_APP.has(before) || before === 'to'
    if (signingIn || (foreign && where && (!lower || owned))) found.push(...words)
  }
  return found
}
