import type { Exchange } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { requestValues, type RequestValue } from './requestValues'

/**
 * Field names that name the operation of an action-style API: MediaWiki's
 * `api.php?action=`, WordPress's `admin-ajax.php` `action=`, DokuWiki's `ajax.php` `call=` and
 * `doku.php?do=`, and the usual `op`, `cmd`, `method`, `task`.
 */
const OPERATION_FIELD = /^(action|do|call|op|operation|cmd|command|method|task|_action|mode)$/i

/**
 * The operation a request names in a query or form field (`action=inline-save`), as
 * `field=value`, or null. A value that is not a short word (an id, a URL) is no operation name.
 */
export function operationOf(exchange: Exchange): string | null {
  const op = requestValues(exchange).find(isOperationValue)
  return op ? `${op.key}=${String(op.value)}` : null
}

/** True when a request value is the operation field of an action API: a constant, never a slot. */
export function isOperationValue(v: RequestValue): boolean {
  return (
    OPERATION_FIELD.test(v.key) &&
    v.path === v.key &&
    typeof v.value === 'string' &&
    /^[A-Za-z][\w:.-]{0,40}$/.test(v.value)
  )
}

/** Operation names that change state (`action=trash`, `call=mediaupload`, `do=save`). */
export const WRITE_OPERATION =
  /^(save|edit|delete|remove|trash|untrash|create|add|update|upload|mediaupload|move|rename|submit|post|publish|inline|insert|set|purge|rollback|undelete|protect|approve|spam|archive)$/

/**
 * True when a request names a write in its operation field, whatever its method: apps send
 * some writes as GET links (`post.php?action=trash&_wpnonce=…`), against RFC 9110 §9.2.1.
 */
export function writesByOperation(exchange: Exchange): boolean {
  const action = operationOf(exchange)
  if (!action) return false
  // A GET that opens an editor (`do=edit`, `action=edit`) reads; only a destructive link writes.
  const pattern = exchange.method.toUpperCase() === 'GET' ? GET_WRITE_OPERATION : WRITE_OPERATION
  return action
    .split('=')[1]!
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => pattern.test(w))
}

/** The operations a GET link performs in apps that write through links (WordPress, wikis). */
const GET_WRITE_OPERATION =
  /^(delete|remove|trash|untrash|purge|spam|unspam|approve|unapprove|archive|restore|undelete|lock|unlock)$/

/**
 * True when a JSON body is a remote procedure call envelope: a `method` string naming the
 * operation with its `params` (JSON-RPC 1.0 and 2.0, and the many APIs shaped like them: one
 * URL, many operations).
 */
export function isRpcCall(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  const call = body as Record<string, unknown>
  return typeof call.method === 'string' && ('params' in call || 'jsonrpc' in call)
}

/**
 * True when a request value is the `id` of a JSON-RPC call: a counter the client picks to match
 * the answer to the call (JSON-RPC 2.0 §4), the same for any run, never an input.
 */
export function isRpcCorrelation(v: RequestValue, exchange: Exchange): boolean {
  return v.location === 'body' && v.path === 'id' && isRpcCall(parseJsonRequest(exchange))
}

/**
 * True when a positional parameter of a JSON-RPC call names a sub-operation in code form
 * (`GroupPause`, `core.pause_torrent`, `set_rate`): a command word the client picks, the same for
 * any run, never an input. A value the person typed is never one (the caller checks typed first).
 */
export function isRpcSubOperation(v: RequestValue, exchange: Exchange): boolean {
  return typeof v.value === 'string' && CODE_NAME.test(v.value) && isRpcPositional(v, exchange)
}

/** True when a request value is a top-level positional parameter of a JSON-RPC call. */
export function isRpcPositional(v: RequestValue, exchange: Exchange): boolean {
  return (
    v.location === 'body' &&
    /^params\.\d+$/.test(v.path) &&
    isRpcCall(parseJsonRequest(exchange))
  )
}

/** A name written as code: words joined by case, a dot or an underscore (`GroupPause`, `a.b_c`). */
const CODE_NAME = /^[A-Za-z][a-z0-9]*(?:(?:[A-Z]|[._][A-Za-z])[a-z0-9]*)+$/
