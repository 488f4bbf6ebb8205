import type { Page } from 'playwright-core'
import { parseIntent } from '../router/parseIntent'

/** Words that open the value of a search intent ("search the directory for writing"). */
const VALUE_OPENERS = new Set([
  'for',
  'about',
  'matching',
  'named',
  'called',
  'titled',
  'containing',
])
/** Words that end the value phrase ("for writing on the directory"). */
const PHRASE_ENDERS = new Set(['on', 'at', 'in', 'by', 'from', 'with', 'and', 'then'])
const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']+)'(?=\s|$|[.,;:!?])/
const MAX_VALUE_WORDS = 5

/**
 * The value an intent asks to search for, or null: the first quoted string
 * (`find "deep learning" tools`), else the words after the last `for` / `about` / `matching` /
 * `named` / `called` / `titled` / `containing`, up to a word that opens another phrase (`on`,
 * `in`, `by`...) or the end, at most 5 words, trailing punctuation dropped. Only intents whose
 * verb reads (search, list, read) or that have no verb name a search value: an indexing run never
 * types into a form for an intent that creates, changes, deletes or signs in.
 */
export function intentSearchValue(intent: string): string | null {
  const verb = parseIntent(intent).verb
  if (verb && !['search', 'list', 'read'].includes(verb.verbClass)) return null
  const quoted = QUOTED.exec(intent)
  if (quoted) {
    const value = (quoted[1] ?? quoted[2] ?? quoted[3] ?? '').trim()
    return value || null
  }
  const words = intent.trim().split(/\s+/)
  let at = -1
  words.forEach((w, i) => {
    if (i > 0 && VALUE_OPENERS.has(w.toLowerCase())) at = i
  })
  if (at < 0) return null
  const phrase: string[] = []
  for (const word of words.slice(at + 1)) {
    if (PHRASE_ENDERS.has(word.toLowerCase()) || phrase.length === MAX_VALUE_WORDS) break
    phrase.push(word)
  }
  const value = phrase
    .join(' ')
    .replace(/[.,;:!?]+$/, '')
    .trim()
  return value || null
}

/** The one search box a page offers, as {@link findSearchBox} found it. */
export interface SearchBox {
  /** Index of the field among the page's `input, textarea` elements. */
  index: number
  /** Its `name`, else `id`, else null (for the receipt). */
  field: string | null
  /** Index of its form's one submit button among `button, input` elements; null: press Enter. */
  submitIndex: number | null
}

// Runs in the page. A field is a search box when its type is search, its role is searchbox, it
// sits in a search landmark, or its name, id, placeholder or label says search / query / q /
// keyword / find; failing those, the only text field of a GET form is one. Hidden and read-only
// fields, and every password field, never count.
const FIND_SCRIPT = `(() => {
  const fields = [...document.querySelectorAll('input, textarea')]
  const controls = [...document.querySelectorAll('button, input')]
  const visible = (el) => {
    const r = el.getBoundingClientRect()
    const s = getComputedStyle(el)
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
  }
  const texty = (el) => {
    if (el.tagName === 'TEXTAREA') return true
    const t = (el.getAttribute('type') || 'text').toLowerCase()
    return t === 'text' || t === 'search'
  }
  const usable = fields.filter((el) => texty(el) && visible(el) && !el.disabled && !el.readOnly)
  const words = /search|query|^q$|keyword|find/i
  const labelOf = (el) => (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]')?.textContent) || ''
  const searchy = usable.filter((el) =>
    (el.getAttribute('type') || '').toLowerCase() === 'search' ||
    el.getAttribute('role') === 'searchbox' ||
    el.closest('[role=search], search') ||
    [el.name, el.id, el.placeholder, el.getAttribute('aria-label'), labelOf(el)].some((v) => v && words.test(v.trim())))
  let box = searchy.length === 1 ? searchy[0] : null
  if (!box && searchy.length === 0) {
    const getForms = [...document.forms].filter((f) => (f.getAttribute('method') || 'get').toLowerCase() === 'get')
    const lone = getForms.map((f) => usable.filter((el) => el.form === f)).filter((list) => list.length === 1)
    if (lone.length === 1 && getForms.length === 1) box = lone[0][0]
  }
  if (!box) return { count: searchy.length, box: null }
  const submits = box.form
    ? controls.filter((el) => el.form === box.form && visible(el) && (el.type === 'submit' || (el.tagName === 'BUTTON' && !el.getAttribute('type'))))
    : []
  return {
    count: 1,
    box: {
      index: fields.indexOf(box),
      field: box.name || box.id || null,
      submitIndex: submits.length === 1 ? controls.indexOf(submits[0]) : null,
    },
  }
})()`

/**
 * Finds the page's one obvious search box (see the rules in the script above); null when there
 * is none or more than one, so indexing never guesses between fields. Never throws: a page that
 * cannot be read has no search box.
 */
export async function findSearchBox(page: Page): Promise<SearchBox | null> {
  try {
    const found = (await page.evaluate(FIND_SCRIPT)) as { box: SearchBox | null }
    return found.box
  } catch {
    // A page that navigated or closed while being read has no search box to offer.
    return null
  }
}

/**
 * Types `value` into the box and submits it the way a person would: a click on its form's one
 * submit button, else Enter in the field. Playwright input goes through the page's own event
 * handlers, so the recorder's action script records the fill and the submit as a person's.
 */
export async function submitSearch(
  page: Page,
  box: SearchBox,
  value: string,
  timeoutMs: number,
): Promise<void> {
  const field = page.locator('input, textarea').nth(box.index)
  await field.fill(value, { timeout: timeoutMs })
  if (box.submitIndex !== null)
    await page.locator('button, input').nth(box.submitIndex).click({ timeout: timeoutMs })
  else await field.press('Enter', { timeout: timeoutMs })
}
