import type { EvidenceSignal } from '../../shared/toolSpec'
import { headerValue, SECRET_PLACEHOLDER, type Action, type Exchange } from '../../shared/trace'
import { isWriteMethod, parseJsonRequest } from './classify'
import { httpUrl } from '../../shared/urls'
import { graphqlOfExchange } from './graphql'
import { mutationVerdict } from './naming'
import { DELETE_WORDS, operationOf } from './operation'
import { requestValues, type RequestValue } from './requestValues'
import { resourceHistory, type ResourceHistory } from './resourceHistory'
import { isWriteClass, type VerbClass } from './intentVerb'
import { oneTimeCodeField, secondFactorSignals } from './secondFactor'

/** Weights of the verb signals, on the scale of selectTarget's evidence weights. */
const V = {
  changeAgrees: 0.25,
  kindAgrees: 0.1,
  readForChange: -0.25,
  deleteNotAsked: -0.3,
  changeForRead: -0.3,
  signIn: 0.5,
  notSignIn: -0.2,
  signInForRead: -1,
  temporary: -0.5,
  causedByAction: 0.1,
}

/** A click, key press or submit at most this long before a write is taken as its cause, ms. */
const CAUSE_WINDOW_MS = 3_000

const AUTH_FIELD = /(^|[_-])(pass(word)?|passwd|pwd|user(name)?|login|email)$/i

/** What the intent's verb says of one exchange. */
export interface VerbEvidence {
  signals: EvidenceSignal[]
  /** The signals alone make the exchange a candidate (a write the person's click caused). */
  plausible: boolean
  /** The verb rules the exchange out (a sign-in for a read). */
  refuted?: boolean
}

/**
 * Evidence from the intent's verb: a change asked for is answered by a request that
 * changes state, of the right kind (a delete by a DELETE or a path/operation that names one), and
 * caused by the person's last click; a read is not answered by a write; a sign-in is answered by
 * the request that sends the credentials. Returns the signals and whether they alone make the
 * exchange plausible (a write the person's click caused, when a write was asked for).
 */
export function verbSignals(
  exchange: Exchange,
  cls: VerbClass | null,
  actions: Action[],
  exchanges: Exchange[] = [],
): VerbEvidence {
  // Whatever the intent asks, a draft the app writes and removes again answers none of it.
  if (!cls)
    return { signals: temporarySignals(resourceHistory(exchange, exchanges)), plausible: false }
  if (cls === 'auth') return signInSignals(exchange)
  // A GraphQL query or a search sent as a POST reads: judge by what the request does.
  const write = mutationVerdict(
    exchange,
    graphqlOfExchange(exchange, parseJsonRequest(exchange)),
  ).mutating
  if (!isWriteClass(cls)) return readSignals(exchange, cls, write, actions)
  if (write) return changeSignals(exchange, cls, actions, exchanges)
  const signal = {
    name: 'read_for_a_change',
    weight: V.readForChange,
    detail: `the intent asks to ${cls}; a ${exchange.method.toUpperCase()} reads`,
  }
  return { signals: [signal], plausible: false }
}

/** The intent signs in: the request that sends the credentials (or a one-time code) answers it. */
function signInSignals(exchange: Exchange): VerbEvidence {
  // A one-time code is a credential too: the post that sends it completes the sign-in.
  const sends = sendsCredentials(exchange) || oneTimeCodeField(exchange)
  const first: EvidenceSignal = sends
    ? {
        name: 'sends_sign_in',
        weight: V.signIn,
        detail: 'sends the credentials the person typed',
      }
    : {
        name: 'not_the_sign_in',
        weight: V.notSignIn,
        detail: 'the intent signs in; this request sends no credentials',
      }
  return { signals: [first, ...secondFactorSignals(exchange)], plausible: first.weight > 0 }
}

/**
 * The intent asks for a change and the request makes one: of the kind asked (delete, create,
 * update), not a draft the app cleans up, and caused by the person's click.
 */
function changeSignals(
  exchange: Exchange,
  cls: VerbClass,
  actions: Action[],
  exchanges: Exchange[],
): VerbEvidence {
  const method = exchange.method.toUpperCase()
  const signals: EvidenceSignal[] = [
    {
      name: 'intent_asks_a_change',
      weight: V.changeAgrees,
      detail: `the intent asks to ${cls}; ${method} changes state`,
    },
  ]
  const history = resourceHistory(exchange, exchanges)
  signals.push(...temporarySignals(history))
  const kind = kindAgreement(exchange, cls, history)
  if (kind) signals.push(kind)
  // A HAR has no clicks to tie a write to: there a write of the kind the intent asks for is
  // evidence enough by itself ("delete a file" and the trace's one DELETE).
  let plausible = !actions.length && signals.every((x) => x.weight > 0)
  const cause = causeOf(exchange, actions)
  if (cause) {
    signals.push({
      name: 'caused_by_action',
      weight: V.causedByAction,
      detail: `sent right after the person's ${cause}`,
    })
    plausible = true
  }
  return { signals, plausible }
}

/** Whether a write is of the kind the intent asks: a delete for a delete, a create, an update. */
function kindAgreement(
  exchange: Exchange,
  cls: VerbClass,
  history: ResourceHistory | null,
): EvidenceSignal | null {
  const method = exchange.method.toUpperCase()
  // The operation a JSON-RPC or action body names (`core.remove_torrents`) says what it does too.
  const where = `${httpUrl(exchange.url)?.pathname ?? ''}?${httpUrl(exchange.url)?.search ?? ''}&${formText(exchange)}&${operationOf(exchange) ?? ''}`
  const deletes = method === 'DELETE' || DELETE_WORDS.test(where)
  if (cls === 'delete' && deletes)
    return {
      name: 'delete_agrees',
      weight: V.kindAgrees,
      detail: 'the intent deletes; so does this request',
    }
  if (cls !== 'delete' && deletes)
    return {
      name: 'delete_not_asked',
      weight: V.deleteNotAsked,
      detail: `this request deletes; the intent asks to ${cls}`,
    }
  if ((cls === 'create' || cls === 'upload') && (method === 'POST' || method === 'PUT'))
    return {
      name: 'create_agrees',
      weight: V.kindAgrees,
      detail: `${method} creates, as the intent asks`,
    }
  if (cls === 'update' && ['PUT', 'PATCH', 'POST'].includes(method))
    return {
      name: 'update_agrees',
      // A record an earlier answer listed is one the person could pick to change; a resource
      // only the app wrote before (its own UI state) is a weaker guess.
      weight: history?.listedBefore ? V.kindAgrees : V.kindAgrees / 2,
      detail: history?.listedBefore
        ? `${method} changes a record an earlier answer listed (#${history.listedBefore.seq}), as the intent asks`
        : `${method} may update, as the intent asks`,
    }
  return null
}

/**
 * The intent reads (or searches): a sign-in is never its target, a search shows itself by its
 * term, a request with nothing to vary is no search, and a write other than a POST is no read.
 */
function readSignals(
  exchange: Exchange,
  cls: VerbClass,
  write: boolean,
  actions: Action[],
): VerbEvidence {
  // The sign-in a person did before reading carries what they typed (the user name) and may
  // name the intent's words (`/orders/login`), yet it answers nothing a read asks: never a target.
  if (signsIn(exchange))
    return {
      signals: [
        {
          name: 'sign_in_for_a_read',
          weight: V.signInForRead,
          detail: `the intent asks to ${cls}; this request signs in (it sends a password)`,
        },
      ],
      plausible: false,
      refuted: true,
    }
  const method = exchange.method.toUpperCase()
  const signals: EvidenceSignal[] = []
  let plausible = false
  // A search sent with no value the intent names (a HAR of "search the blog for a word") still
  // shows itself by its term field: `q`, `s`, `query`, `search`, `term`, `keyword`.
  const term = cls === 'search' && !write ? searchTerm(exchange) : null
  const inPath = cls === 'search' && !write && !term ? searchPathTerm(exchange) : null
  if (term || inPath) {
    signals.push({
      name: term ? 'search_term_field' : 'search_term_in_path',
      // A field name is a weak cue next to a value the person typed: half a kind agreement.
      weight: V.kindAgrees / 2,
      detail: term
        ? `the intent searches; ${term.location} "${term.key}" carries a search term`
        : `the intent searches; the path carries a term after "${inPath}"`,
    })
    if (!actions.length) plausible = true
  } else if (cls === 'search' && !write && carriesNothing(exchange))
    // A request with no query, no body and no term in its path cannot be a search: the page
    // the person started on, or a listing loaded before they typed.
    signals.push({
      name: 'no_search_term',
      weight: -V.kindAgrees,
      detail: 'the intent searches; this request carries no term (no query, no body)',
    })
  if (write && method !== 'POST')
    signals.push({
      name: 'change_for_a_read',
      weight: V.changeForRead,
      detail: `the intent asks to ${cls}; ${method} changes state`,
    })
  return { signals, plausible }
}

/** The `temporary_resource` signal of a write whose resource the trace creates and deletes. */
function temporarySignals(history: ResourceHistory | null): EvidenceSignal[] {
  if (!history?.temporary) return []
  const { created, deleted } = history.temporary
  return [
    {
      name: 'temporary_resource',
      weight: V.temporary,
      detail: `the trace creates this resource (${created.method} #${created.seq}) and deletes it (${deleted.method} #${deleted.seq}): a draft the app cleans up, no lasting change`,
    },
  ]
}

/** The action that caused a request: the last click, press or submit shortly before it. */
function causeOf(exchange: Exchange, actions: Action[]): string | null {
  let cause: Action | null = null
  for (const a of actions) {
    if (a.at > exchange.startedAt + 50) break
    if (a.kind === 'click' || a.kind === 'press' || a.kind === 'submit') cause = a
  }
  if (!cause || exchange.startedAt - cause.at > CAUSE_WINDOW_MS) return null
  return `${cause.kind}${cause.name ? ` on "${cause.name.slice(0, 40)}"` : ''}`
}

/**
 * True when the request is a sign-in: a write whose body sends a password (redacted by the
 * recorder, or a password field a plain HAR kept). Credentials in a header (HTTP Basic on every
 * call of an API) do not make a request a sign-in.
 */
function signsIn(exchange: Exchange): boolean {
  if (!isWriteMethod(exchange.method)) return false
  const body = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : ''
  if (!body) return false
  if (body.includes(SECRET_PLACEHOLDER) || body.includes(encodeURIComponent(SECRET_PLACEHOLDER)))
    return true
  let keys: string[]
  try {
    const json = JSON.parse(body) as unknown
    keys = json && typeof json === 'object' ? Object.keys(json) : []
  } catch {
    keys = [...new URLSearchParams(body).keys()]
  }
  return (
    keys.some((k) => PASSWORD_FIELD.test(k)) &&
    keys.some((k) => AUTH_FIELD.test(k) && !PASSWORD_FIELD.test(k))
  )
}

const PASSWORD_FIELD = /(^|[_-])(pass(word)?|passwd|pwd)$/i

/** True when the request carries a redacted secret or a password/user field. */
function sendsCredentials(exchange: Exchange): boolean {
  const body = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : ''
  if (body.includes(SECRET_PLACEHOLDER) || body.includes(encodeURIComponent(SECRET_PLACEHOLDER)))
    return true
  if (/^basic /i.test(headerValue(exchange.requestHeaders, 'authorization') ?? '')) return true
  if (!isWriteMethod(exchange.method) || !body) return false
  try {
    const json = JSON.parse(body) as Record<string, unknown>
    return Object.keys(json).filter((k) => AUTH_FIELD.test(k)).length >= 2
  } catch {
    return [...new URLSearchParams(body).keys()].filter((k) => AUTH_FIELD.test(k)).length >= 2
  }
}

function formText(exchange: Exchange): string {
  const body = exchange.requestBody?.encoding === 'utf8' ? exchange.requestBody.text : ''
  return body.length < 2000 && !body.trimStart().startsWith('{') ? body : ''
}

/** Names sites give the field of a search term (WordPress `s`, Google-style `q`, `query`, ...). */
const TERM_FIELD = /^(q|s|query|search|search_?term|term|keywords?|kw|text|prefix)$/i

/** Path words after which a REST-style search puts its term (`/search/<term>`). */
const SEARCH_SEGMENT = /^(search|find|query|q|lookup|suggest)$/i

/** The search word of a path that holds a term after it (`/data/search/lunar`), or null. */
function searchPathTerm(exchange: Exchange): string | null {
  const segments = (httpUrl(exchange.url)?.pathname ?? '').split('/').filter(Boolean)
  const at = segments.findIndex((s, i) => SEARCH_SEGMENT.test(s) && i < segments.length - 1)
  return at >= 0 ? segments[at]! : null
}

/** True when the request sends nothing that could vary: no query string and no body. */
function carriesNothing(exchange: Exchange): boolean {
  return !httpUrl(exchange.url)?.search && !exchange.requestBody
}

/** The request's non-empty search-term field, if it has one. */
function searchTerm(exchange: Exchange): RequestValue | null {
  return (
    requestValues(exchange).find(
      (v) => TERM_FIELD.test(v.key) && typeof v.value === 'string' && v.value.trim() !== '',
    ) ?? null
  )
}
