import { mimeTypeOf, type Exchange } from '../../shared/trace'
import { parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { markOperationFields } from './learnedOperations'
import { requestValues, type RequestValue } from './requestValues'

/**
 * Field names that name the operation of an action-style API: MediaWiki's
 * `api.php?action=`, WordPress's `admin-ajax.php` `action=`, DokuWiki's `ajax.php` `call=` and
 * `doku.php?do=`, and the usual `op`, `cmd`, `method`, `task`; each also with the leading `_`
 * apps put on the fields they reserve for themselves (Roundcube's `_task=mail&_action=move`).
 */
const OPERATION_FIELD = /^_?(sub_?)?(action|do|call|op|operation|cmd|command|method|task|mode)$/i

/**
 * The operation a request names in its query or form fields (`action=inline-save`, or
 * `req_type=autoscan&action=as_edit_save` where the trace showed two), as `field=value` pairs
 * joined by `&`, or null. A value that is not a short word (an id, a URL) is no operation name.
 */
export function operationOf(exchange: Exchange): string | null {
  const ops = requestValues(exchange).filter(isOperationValue)
  return ops.length ? ops.map((op) => `${op.key}=${String(op.value)}`).join('&') : null
}

/** Words of a path or an operation that remove what they name (`/trash`, `do=remove`). */
export const DELETE_WORDS = /(^|[/_.=&-])(delete|remove|trash|destroy|erase|discard)/i

/**
 * True when a request removes what it names: a DELETE (RFC 9110 §9.3.5), or a path or operation
 * field that says so (`POST /ikiwiki.cgi` with `do=remove`, `/api/items/7/delete`).
 */
export function removesRecord(exchange: Exchange): boolean {
  if (exchange.method.toUpperCase() === 'DELETE') return true
  return DELETE_WORDS.test(
    `${httpUrl(exchange.url)?.pathname ?? ''}&${operationOf(exchange) ?? ''}`,
  )
}

/** Form fields that carry a button's label, not a value (`wp-submit`, `_submit`, `commit`, `btn`). */
const SUBMIT_FIELD = /(^|[-_.])(submit|button|btn|commit)([-_.]|$)|^(wp)?(submit|save|commit)\w*$/i

/**
 * True when a form field (urlencoded or multipart) carries the label of the button the person
 * pressed (`_submit=Save Page`, `wp-submit=Log In`): which of a form's buttons, so part of what
 * the request does (Save, not Preview), never a value the caller gives. JSON keys are left alone
 * (`{"commit": "…"}` is a message or a hash there).
 */
export function isSubmitField(v: RequestValue): boolean {
  return v.form === true && isSubmitKey(v.key)
}

/** True when a field's name is a button's (`SUBMIT_FIELD`), wherever it is sent. */
export function isSubmitKey(key: string): boolean {
  return SUBMIT_FIELD.test(key)
}

/**
 * True when a request value is the operation field of an action API: a constant, never a slot.
 * Either its name says so (`action`, `do`, `cmd`…) or the trace showed it
 * ({@link learnOperationFields}).
 */
export function isOperationValue(v: RequestValue): boolean {
  if (v.operation) return true
  return (
    OPERATION_FIELD.test(v.key) &&
    v.path === v.key &&
    typeof v.value === 'string' &&
    OPERATION_NAME.test(v.value)
  )
}

/** A short name in code form: `items`, `as_edit_save`, `inline-save`, `core.pause`. */
const OPERATION_NAME = /^[A-Za-z][\w:.-]{0,40}$/

/**
 * Learns, from the trace itself, which query or form field names the operation of an endpoint
 * that serves many (one URL, many operations), whatever the field is called:
 * Gerbera's `GET /content/interface?req_type=items&parent_id=…` and `…?req_type=remove&object_id=…`.
 * A field is an operation field when, over three or more calls of one method and path, it is
 * sent in every call with a short code-like word, takes two or more values, and its value decides
 * which other fields the call sends: calls that share its value send the same fields (at least
 * three in four calls agree with their value's usual set) and two values at least send different
 * sets. That is what an operation does and what a filter or an id does not. Marks the field on
 * each call of that endpoint, so `requestValues` reports it `operation` (a constant of the tool
 * and part of its endpoint). Calling it again on the same exchanges changes nothing.
 */
export function learnOperationFields(exchanges: Exchange[]): void {
  const endpoints = new Map<string, Array<{ exchange: Exchange; values: RequestValue[] }>>()
  for (const exchange of exchanges) {
    const url = httpUrl(exchange.url)
    if (!url) continue
    const values = requestValues(exchange).filter(
      (v) => !v.inJson && (v.location === 'query' || v.form === true) && !v.path.includes('#'),
    )
    if (values.length < 2) continue
    const key = `${exchange.method.toUpperCase()} ${url.origin}${url.pathname}`
    const calls = endpoints.get(key) ?? []
    calls.push({ exchange, values })
    endpoints.set(key, calls)
  }
  for (const calls of endpoints.values()) {
    if (calls.length < 3) continue
    const fields = new Set<string>()
    for (const path of new Set(calls[0]!.values.map((v) => v.path)))
      if (operationFieldOf(calls, path)) fields.add(path)
    if (fields.size > 0) for (const call of calls) markOperationFields(call.exchange, fields)
  }
}

/** True when `path` decides the other fields of `calls` (see {@link learnOperationFields}). */
function operationFieldOf(calls: Array<{ values: RequestValue[] }>, path: string): boolean {
  const byValue = new Map<string, string[]>()
  for (const call of calls) {
    const own = call.values.find((v) => v.path === path)
    if (!own || typeof own.value !== 'string' || !OPERATION_WORD.test(own.value)) return false
    const others = [...new Set(call.values.filter((v) => v.path !== path).map((v) => v.path))]
    const sets = byValue.get(own.value) ?? []
    sets.push(others.sort().join('&'))
    byValue.set(own.value, sets)
  }
  if (byValue.size < 2) return false
  let agreeing = 0
  const usual = new Set<string>()
  for (const sets of byValue.values()) {
    const counts = new Map<string, number>()
    for (const set of sets) counts.set(set, (counts.get(set) ?? 0) + 1)
    const [set, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!
    agreeing += n
    usual.add(set)
  }
  return usual.size >= 2 && agreeing / calls.length >= 0.75
}

/**
 * An operation's name: a code-like word of letters (`items`, `as_edit_save`), no id or number,
 * or a route of such words that a front controller dispatches on (phpMyAdmin's
 * `index.php?route=/table/search`, its home `route=/`, `?r=site/login`, `?route=account/edit`).
 */
const OPERATION_WORD =
  /^(\/|(?=.{2,60}$)\/?[A-Za-z][A-Za-z_.:-]*(\/[A-Za-z][A-Za-z_.:-]*){0,3}\/?)$/

/** Operation names that change state (`action=trash`, `call=mediaupload`, `do=save`). */
export const WRITE_OPERATION =
  /^(save|edit|delete|remove|trash|untrash|create|add|update|upload|mediaupload|move|rename|submit|post|publish|inline|insert|set|purge|rollback|undelete|protect|approve|spam|archive)$/

/**
 * True when a request names a write in its operation field, whatever its method: apps send
 * some writes as GET links (`post.php?action=trash&_wpnonce=…`, `index.html?action=stop`),
 * against RFC 9110 §9.2.1, and some APIs send every operation as a GET (`req_type=remove`,
 * or in the path: Rspamd's `GET /historyreset`).
 */
export function writesByOperation(exchange: Exchange): boolean {
  const get = exchange.method.toUpperCase() === 'GET'
  if (get && answersData(exchange) && actSegments(exchange).some((s) => PATH_ACT.test(s)))
    return true
  const ops = requestValues(exchange).filter(isOperationValue)
  if (!ops.length) return false
  // A GET that opens an editor (`do=edit`, `action=edit`) reads; only a destructive link writes.
  // A GET that answers data to a script is an API call, and a GET link answered by a redirect
  // acted and sent the browser back (Post/Redirect/Get done with a link: Supervisor's
  // `index.html?action=stop`): their operation's words say what they do, control words
  // (stop, restart, clear…) included, and one that loads or gets something (`edit_load`) reads.
  const api = get && answersData(exchange)
  const acted = get && (api || (exchange.status >= 300 && exchange.status < 400))
  return ops.some((op) => {
    const words = String(op.value)
      .toLowerCase()
      .split(/[^a-z]+/)
    if (!get) return words.some((w) => WRITE_OPERATION.test(w))
    if (!acted) return words.some((w) => GET_WRITE_OPERATION.test(w))
    return (
      words.some((w) => WRITE_OPERATION.test(w) || CONTROL_OPERATION.test(w)) &&
      !words.some((w) => LOAD_WORD.test(w))
    )
  })
}

/**
 * Operations that control a running thing rather than a record (`stop`, `restartall`,
 * `clearlog`): a word that starts with one of these.
 */
const CONTROL_OPERATION =
  /^(stop|start|restart|kill|pause|resume|clear|reset|enable|disable|flush|reload|shutdown|reboot|cancel|retry|trigger)/

/**
 * A path segment of an API call that names a destructive act, alone or joined to what it acts on
 * (`/historyreset`, `/queue/purge`, `/clear_cache`), or followed by the record it acts on
 * (Graphite's `/dashboard/delete/<name>`): a GET that does it writes.
 */
const PATH_ACT =
  /^(?:[a-z]{3,}[_-]?)?(reset|delete|remove|clear|purge|flush|wipe|trash|restart|shutdown|reboot)(?:[_-]?[a-z]{3,})?$/

/** The last two non-empty segments of an exchange's path, lower-cased, the last first. */
function actSegments(exchange: Exchange): string[] {
  const segments = (httpUrl(exchange.url)?.pathname ?? '').split('/').filter(Boolean)
  return segments
    .slice(-2)
    .reverse()
    .map((s) => s.toLowerCase())
}

/** Words of an API operation that fetch something (`edit_load`, `get_config`): it reads. */
const LOAD_WORD = /^(load|get|list|show|view|read|fetch|find|search|query|info|status|check)$/

/** True when an exchange was a script's call answered with data (JSON or XML), not a page. */
function answersData(exchange: Exchange): boolean {
  if (exchange.resourceType === 'xhr' || exchange.resourceType === 'fetch') return true
  if (exchange.resourceType === 'document') return false
  return (
    /json|xml/.test(mimeTypeOf(exchange.responseHeaders)) &&
    !/html/.test(mimeTypeOf(exchange.responseHeaders))
  )
}

/** The operations a GET link performs in apps that write through links (WordPress, wikis). */
const GET_WRITE_OPERATION =
  /^(delete|remove|trash|untrash|purge|spam|unspam|approve|unapprove|archive|restore|undelete|lock|unlock)$/

/**
 * True when a JSON body is a remote procedure call envelope: a `method` string naming the
 * operation with its `params` (JSON-RPC 1.0 and 2.0, and the many APIs shaped like them: one
 * URL, many operations).
 */
function isRpcCall(body: unknown): boolean {
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
    v.location === 'body' && /^params\.\d+$/.test(v.path) && isRpcCall(parseJsonRequest(exchange))
  )
}

/** A name written as code: words joined by case, a dot or an underscore (`GroupPause`, `a.b_c`). */
const CODE_NAME = /^[A-Za-z][a-z0-9]*(?:(?:[A-Z]|[._][A-Za-z])[a-z0-9]*)+$/

/**
 * Verbs that, said by a GET's own path or operation field, name the write it does. Each counts as
 * a whole word (`action=add`); the glued ones also count joined to what they act on
 * (`/admin/killsource`, `moveclients`). The others begin everyday words when glued (`address`,
 * `startup`, `stopwatch`, `banner`, `blocklist`, `submitted`, `saved`), so only their whole word
 * counts; `submit` and `save` name a form sent by GET (Privoxy's `edit-actions-submit`).
 */
const GLUED_ACTS = `kill move delete remove create rename update insert restart pause resume
  clear reset enable disable purge flush approve publish revoke grant`.split(/\s+/)
const ACT_WORDS: ReadonlySet<string> = new Set([
  ...GLUED_ACTS,
  ...'add start stop ban unban block unblock submit save'.split(' '),
])

/** A word of letters that is an act ({@link GLUED_ACTS}), whole or glued to 3+ more letters. */
function namesAct(word: string): boolean {
  return (
    ACT_WORDS.has(word) || GLUED_ACTS.some((v) => word.length >= v.length + 3 && word.startsWith(v))
  )
}

/**
 * True when a GET writes by the agreement of two independent witnesses: the person asked for a
 * write (`asksWrite`, from the intent's verb) and the request's own words (its path, operation
 * field, or the button it was sent by) name a write or control act ({@link namesAct}). Apps send such acts as GET links or GET forms against RFC 9110
 * §9.2.1 (Icecast's `/admin/killsource?mount=…`, `manageauth?…&action=add`). Either witness alone
 * is not enough: a write intent is often answered by a page read, and `/updates` is a list.
 */
export function getActsAsAsked(exchange: Exchange, asksWrite: boolean): boolean {
  if (!asksWrite || exchange.method.toUpperCase() !== 'GET') return false
  const segments = (httpUrl(exchange.url)?.pathname ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/\.[a-z0-9]+$/i, '').toLowerCase())
  const values = requestValues(exchange)
  const ops = values.filter(isOperationValue).map((op) => String(op.value).toLowerCase())
  // The button a GET form was sent by names itself and says its label (Xymon's critical systems
  // editor: `Update=Update record`).
  const buttons = values
    .filter((v) => v.location === 'query' && isButtonField(v))
    .map((v) => v.key.toLowerCase())
  const words = [...segments, ...ops, ...buttons].flatMap((w) => w.split(/[^a-z]+/)).filter(Boolean)
  return words.some(namesAct)
}

/** A field sent by the button pressed: its value, the label, begins with its name. */
function isButtonField(v: RequestValue): boolean {
  const label = String(v.value ?? '').toLowerCase()
  const name = v.key.toLowerCase()
  return /^[a-z]{3,}$/.test(name) && (label === name || label.startsWith(`${name} `))
}
