/**
 * Requests an agent or a script writes as a record of fields (`Action: rename file. Site:
 * Jupyter. Target: data.json. New name: data-old.json`, `Step 3 -> open DokuWiki page. ID:
 * howto:vpn_setup`), read as the sentence they stand for (`rename file 'data.json' to
 * 'data-old.json' on Jupyter`), so the parser sees the act, the site and the values where a
 * sentence has them; and `key=value` filters inside a sentence, as the filters they are.
 */

/** `Key: value` — a key of one to three words, capitalised as a label is. */
const FIELD = /^([A-Z][A-Za-z]*(?: [a-zA-Z]+){0,2}):\s*(.+)$/

/** What leads the act: `Action:`, `Task:`, `Step 3 ->`, `3.` ... */
const LEAD = /^(?:(?:action|task|goal|operation|op|do)\s*:\s*|step\s*\d+\s*(?:->|→|:|-|\.)\s*)/i

/** Keys whose value is the site. */
const SITE_KEYS = new Set(['site', 'app', 'application', 'system', 'service', 'where', 'registry'])
/** Keys whose value is what to look for. */
const QUERY_KEYS = new Set(['query', 'search', 'term', 'keyword', 'keywords', 'q', 'prefix'])
/** Keys whose value is a new name. */
const NEW_NAME_KEYS = new Set(['to', 'new name', 'new title', 'rename to'])
/** Keys whose value is the text a record is to say. */
const TEXT_KEYS = new Set(['new text', 'text', 'body', 'content', 'contents', 'message'])
/** Keys whose value is who signs in. */
const USER_KEYS = new Set(['user', 'username', 'login', 'account', 'as'])
/** Keys whose value says how one signs in (`Second factor: TOTP code`). */
const HOW_KEYS = new Set(['credential', 'credentials', 'method', 'second factor', 'auth', '2fa'])
/** Keys that only say which of the record's names the value is (`ID`, `Title`, `Path`). */
const NAME_KEYS = new Set([
  'id',
  'title',
  'name',
  'path',
  'target',
  'source',
  'key',
  'slug',
  'ref',
  'file',
  'filename',
])
/** Acts that narrow a list by the fields that follow (`filter issues`). */
const FILTERING = /^\s*(?:filter|narrow|list|show)\b/i
/** Values that say yes to a key that is an act (`Deploy: yes`). */
const YES = /^(yes|true|y|1|on)$/i
const NO = /^(no|false|n|0|off)$/i

/**
 * The sentence a record of fields stands for, or `intent` unchanged when it is no such record:
 * it must lead with its act (`Action: X`, `Step N -> X`) and go on with `Key: value` fields,
 * one per sentence. Values are quoted, so they stay values whatever words they hold.
 */
export function fieldsAsSentence(intent: string): string {
  const text = intent.trim()
  if (!LEAD.test(text)) return intent
  const parts = splitFields(text.replace(LEAD, ''))
  if (parts.length < 2) return text.replace(LEAD, '')
  const [act, ...rest] = parts
  const fields = rest.map((p) => FIELD.exec(p))
  if (fields.some((f) => f === null)) return intent
  let sentence = act!
  let site = ''
  let narrowed = false
  for (const f of fields) {
    const key = f![1]!.toLowerCase()
    const value = unquote(f![2]!)
    // (`fetch issue. Issue: 21`: a thing the act names already.)
    const actSays = new RegExp(`\\b${key}`, 'i').test(act!)
    if (SITE_KEYS.has(key)) site = ` on ${value}`
    else if (QUERY_KEYS.has(key)) sentence += ` for "${value}"`
    else if (NEW_NAME_KEYS.has(key)) sentence += ` to "${value}"`
    else if (key === 'from') sentence += ` "${value}"`
    else if (TEXT_KEYS.has(key)) sentence += ` saying "${value}"`
    else if (USER_KEYS.has(key)) sentence += ` as ${value}`
    else if (HOW_KEYS.has(key)) sentence += ` with ${value}`
    else if (YES.test(value)) sentence += ` and ${key}`
    else if (NO.test(value)) continue
    // (`Match: title starts with`: words that say how, not a value.)
    else if (key === 'match') sentence += ` ${value}`
    else if (key.startsWith('new ')) sentence += ` to "${value}"`
    // (`Issue: 9`: a record's number, as a sentence says it; of another thing than the act's,
    // where the act happens: `add watcher. Issue: 7` adds one on issue #7.)
    else if (/^#?\d+$/.test(value))
      sentence += `${actSays ? '' : ' on'} ${key} #${value.replace('#', '')}`
    // (`delete page. Title: X`: which name it is, or a thing the act names already, is no
    // object of its own.)
    else if (NAME_KEYS.has(key) || actSays) sentence += ` "${value}"`
    // (`filter issues. Status: open. Tracker: Bug`: what the list is narrowed by.)
    else if (FILTERING.test(act!)) {
      sentence += ` ${narrowed ? 'and' : 'by'} ${key} "${value}"`
      narrowed = true
    } else sentence += ` ${key} "${value}"`
  }
  return sentence + site
}

/**
 * The record's parts: sentences ending in `.` before the next capitalised key, so a value
 * keeps its own dots (`config.yaml`, `"1. Budget 2. Hiring"`).
 */
function splitFields(text: string): string[] {
  const parts: string[] = []
  let quote: string | null = null
  let current = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote) {
      if (ch === quote) quote = null
    } else if (ch === '"' || ch === '“' || (ch === "'" && /[\s:]/.test(text[i - 1] ?? ' ')))
      quote = ch === '“' ? '”' : ch
    else if ((ch === '.' || ch === ';') && /^\s+[A-Z]/.test(text.slice(i + 1))) {
      parts.push(current.trim())
      current = ''
      continue
    }
    current += ch
  }
  const last = current.trim().replace(/[.;]$/, '')
  if (last) parts.push(last)
  return parts
}

/** `value` without the quotes around it. */
function unquote(value: string): string {
  return value
    .trim()
    .replace(/[.;]$/, '')
    .replace(/^["“'](.*)["”']$/, '$1')
}

/** A filter written as `key=value` (`status=open`, `tracker = "Bug"`). */
const KEY_VALUE = /(?<![?&])\b([A-Za-z][\w-]*)\s*=\s*("[^"]*"|'[^']*'|[^\s,;]+)/g

/**
 * `intent` with its `key=value` filters said as a sentence says them (`filter issues
 * status=open tracker=Bug`: `filter issues by status open and tracker Bug`), so each key is
 * what the list is narrowed by, not the object.
 */
export function filtersAsSentence(intent: string): string {
  let first = true
  return intent.replace(KEY_VALUE, (_, key: string, value: string) => {
    const said = `${first ? 'by' : 'and'} ${key} ${value}`
    first = false
    return said
  })
}

/** A text given after its label, unquoted, to the end (`text Call the plumber`, `body: Hi`). */
const LABELLED_TEXT =
  /\b(text|body|content|contents)(\s*(?:[:=]|->|→)?\s+)(?!(?:of|to|with|in|on|from|for|that|and|is|as)\b)([A-Z][^"“”]*?)\s*[.!]?\s*$/
/** The same after a colon, an equals sign or an arrow, in any case (`new content: build it`). */
const MARKED_TEXT =
  /\b(text|body|content|contents)(\s*(?:[:=]|->|→)\s*)([^"“”'‘\s][^"“”]*?)\s*[.!]?\s*$/

/**
 * `intent` with a text given unquoted after its label quoted (`tiddlywiki update tiddler Todo
 * text Call the plumber`: `... text "Call the plumber"`), so its words are the value the tool
 * writes, not words of the request. Only a text that runs to the end and starts with a capital
 * letter, or follows a colon, `=` or an arrow (`new content: build it`), is taken: `text of the
 * page` is the request's own words.
 */
export function labelledTextQuoted(intent: string): string {
  const quote = (_: string, label: string, gap: string, text: string) => `${label}${gap}"${text}"`
  return MARKED_TEXT.test(intent)
    ? intent.replace(MARKED_TEXT, quote)
    : intent.replace(LABELLED_TEXT, quote)
}
