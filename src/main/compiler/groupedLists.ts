/**
 * Values by key, not position (architecture.md "What recorded traffic asks", 8), one level up: a list of records nested in a list of groups (a feed reader's
 * feeds, one list per category: `items[5].items[?name==…]`) is searched in every group, so a
 * record the run names in another group than the recorded one is found too. Pure.
 */
import { fold, valueAt, valuesAt, type PathPart } from '../../shared/jsonPath'

/**
 * `prefix` (the path to a list of records in `json`) with each group position (`[5]`) made `[]`
 * when `value` is still held by `field` (a dot path in a record) of exactly one record across
 * all the lists the path then reaches; a position stays when the value alone would not tell the
 * records apart. The engine reads `a[].b[?name==x]` as the first match in any group.
 */
export function everyGroup(
  json: unknown,
  prefix: PathPart[],
  field: string,
  value: string,
): PathPart[] {
  const out = [...prefix]
  const wanted = fold(value)
  out.forEach((part, i) => {
    if (part.kind !== 'index') return
    const trial: PathPart[] = [...out.slice(0, i), { kind: 'each' }, ...out.slice(i + 1)]
    const holders = valuesAt(json, trial)
      .flatMap((list) => (Array.isArray(list) ? list : []))
      .filter((record) => {
        const text = valueAt(record, field)
        return (
          (typeof text === 'string' || typeof text === 'number') && fold(String(text)) === wanted
        )
      })
    if (holders.length === 1) out[i] = { kind: 'each' }
  })
  return out
}
