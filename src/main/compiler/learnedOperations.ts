import type { Exchange } from '../../shared/trace'

/**
 * The query or form fields a trace showed to name its requests' operations, per exchange
 * (`req_type` of `GET /content/interface?req_type=remove&object_id=128`). Written once per trace
 * by `learnOperationFields` (operation.ts) and read by `requestValues`, which marks those values
 * `operation`; kept apart from both so neither imports the other.
 */
const LEARNED = new WeakMap<Exchange, ReadonlySet<string>>()

/** Records that `paths` (query or form field names) name `exchange`'s operation. */
export function markOperationFields(exchange: Exchange, paths: ReadonlySet<string>): void {
  LEARNED.set(exchange, paths)
}

/** The field names learned to name `exchange`'s operation, or undefined when none were. */
export function learnedOperationFields(exchange: Exchange): ReadonlySet<string> | undefined {
  return LEARNED.get(exchange)
}
