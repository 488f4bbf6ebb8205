/**
 * A write chosen by clicking a row and ids picked by click (architecture.md "What recorded
 * traffic asks", 2 and 3), at target choice: the record the person named reaches the write only as
 * its id. "mark the article 'Tram depot open day on Saturday' as read" sends `ids=6`, and 6 is the
 * `id` of the record whose `title` is that text in an earlier list answer. No request carries the
 * person's value, so nothing typed would point at the write; its id stands in for it, as a value
 * the person chose. Its slot is optional with the recorded id as default (`context`), which
 * `lookupPickedRecords` then replaces by a lookup of the record by the person's value.
 */
import { fold } from '../../shared/jsonPath'
import type { Exchange, Trace } from '../../shared/trace'
import { findPickedRecord, isIdValue } from './pickedRecords'
import { personValues, type PersonValue } from './personValues'
import { requestValues } from './requestValues'
import type { TypedValue } from './typedValues'

/** Words of the intent that name a record by themselves ("Tram depot open day on Saturday"). */
const MIN_PHRASE_WORDS = 3

/**
 * Whether a person's value names the record the act is on: typed, quoted, or a phrase of the
 * intent of at least three words, or what they clicked when the intent names it too. A click the
 * intent does not name is where the person went (the feed "All articles" they opened to search
 * in), not what the act is on.
 */
function naming(p: PersonValue, intent: string): boolean {
  if (p.source === 'typed' || p.source === 'quoted') return true
  if (p.source === 'clicked') return fold(intent).includes(fold(p.value))
  return p.source === 'intent' && p.value.split(/\s+/).length >= MIN_PHRASE_WORDS
}

/**
 * The ids that `eligible` requests send for records the person named (`naming`) when no request
 * carries that value itself; each id once, in the order
 * the requests sent them. Empty when every strong value reaches a request as given. Pure.
 */
export function referencedValues(
  trace: Trace,
  intent: string,
  eligible: readonly Exchange[],
  known: readonly TypedValue[],
): TypedValue[] {
  const carried = new Set(
    eligible.flatMap((e) =>
      requestValues(e).flatMap((v) => (typeof v.value === 'string' ? [fold(v.value)] : [])),
    ),
  )
  const unsent = new Set(
    personValues(trace, intent)
      .filter((p) => naming(p, intent) && !carried.has(fold(p.value)))
      .map((p) => fold(p.value)),
  )
  if (!unsent.size) return []
  const taken = new Set(known.map((t) => t.value))
  const out: TypedValue[] = []
  for (const exchange of eligible)
    for (const v of requestValues(exchange)) {
      if (!isIdValue(v.value) || taken.has(String(v.value))) continue
      const found = findPickedRecord(v.value, exchange, trace, intent)
      if (!found || !unsent.has(fold(found.person.value))) continue
      taken.add(String(v.value))
      out.push({
        value: String(v.value),
        fieldName: v.key,
        name: null,
        kind: 'select',
        inputType: null,
        at: exchange.startedAt,
        fromIntent: true,
        context: true,
      })
    }
  return out
}
