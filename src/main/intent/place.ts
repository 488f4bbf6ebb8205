/**
 * Values an intent names as the place the act happens in, not as what it acts on: `the shop
 * database` in "delete the customer Emmy Noether from the customers table of the shop database".
 * The place is said as a name that modifies a common noun inside a locative prepositional phrase
 * (preposition, determiner, the name, the noun: `in the shop database`, `to our products
 * table`); what the act is about is said after its noun (`the customer Emmy Noether`), after a
 * verb (`export the orders table`) or on its own. Read from wink-nlp's tags (`tokens.ts`).
 */
import { placeholder, tagTokens, type Token } from './tokens'

/** Prepositions that locate an act (where it happens, where a thing goes or comes from). */
const LOCATIVE = new Set([
  ...['in', 'into', 'inside', 'within', 'of', 'from', 'on', 'onto', 'to', 'under', 'at'],
])
/** Words between the determiner and the name that still modify the same noun (`the shop products table`). */
const MAX_MODIFIERS = 2
const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN'])

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * True when every mention of `value` in `intent` names a place (see the file comment); false
 * when the intent does not mention it, or mentions it once as what the act is about. `value` is
 * matched by its words in order, case and punctuation aside (`new-customers` and "new
 * customers"). Pure but for the NLP model, loaded on first use.
 */
export function namesPlace(intent: string, value: string): boolean {
  const words = value.match(/[\p{L}\p{N}]+/gu)
  if (!words?.length) return false
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])${words.map(escape).join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`,
    'giu',
  )
  if (!pattern.test(intent)) return false
  const marked = intent
    .replace(pattern, ` ${placeholder(0)} `)
    .replace(/\s+/g, ' ')
    .trim()
  const tokens = tagTokens(marked)
  const mentions = tokens.flatMap((t, i) => (t.value === 0 ? [i] : []))
  return mentions.length > 0 && mentions.every((i) => isPlace(tokens, i))
}

function isPlace(tokens: readonly Token[], at: number): boolean {
  const head = tokens[at + 1]
  if (!head || head.value !== undefined || head.pos !== 'NOUN') return false
  let i = at - 1
  for (let skipped = 0; skipped < MAX_MODIFIERS && i >= 0; skipped++, i--) {
    const t = tokens[i]!
    if (t.value !== undefined || !MODIFIER.has(t.pos)) break
  }
  const determiner = tokens[i]
  const preposition = tokens[i - 1]
  return (
    !!determiner &&
    (determiner.pos === 'DET' || determiner.pos === 'PRON') &&
    !!preposition &&
    preposition.pos === 'ADP' &&
    LOCATIVE.has(preposition.lower)
  )
}
