import type { Action } from '../../shared/trace'
import { READ_ACTS } from '../intent/act'
import { namesPlace } from '../intent/place'
import { readIntent } from '../intent/readIntent'
import { wordsOf } from './valueSpelling'

/** A value the person typed or chose, as the compiler uses it to find the target request. */
export interface TypedValue {
  value: string
  fieldName: string | null
  name: string | null
  kind: 'fill' | 'select'
  /** The field's input type (`text`, `number`, `search`...), when the recorder saw it. */
  inputType: string | null
  at: number
  options?: string[]
  /** Not typed: a value the intent names, found in a request of a trace without actions (a HAR). */
  fromIntent?: boolean
  /**
   * The intent describes this value in words ("the team status page" for `team:status`) while it
   * spells out another one literally: the described one picks the record the tool works on, so its
   * slot is optional with the recorded value as default; the literal one is what the caller gives.
   */
  context?: boolean
  /**
   * A value typed or chosen that the intent does not name while it spells out another typed
   * value: a setting of the form the person kept or chose on the way ("durable" left as offered,
   * a downtime's end, a wiki edit's log message), so its slot is optional with the chosen value
   * (a time: the same distance from the run, `slots.ts`) as default.
   */
  setting?: boolean
}

/**
 * The final value of each field the person filled or chose, in the order they were last edited.
 * Secret fields (their value is null in a trace) and empty values are skipped.
 */
export function typedValues(actions: Action[]): TypedValue[] {
  const byField = new Map<string, TypedValue>()
  for (const a of actions) {
    if ((a.kind !== 'fill' && a.kind !== 'select') || a.secret || a.value === null) continue
    const key = a.selector ?? a.fieldName ?? a.name ?? String(a.seq)
    byField.delete(key)
    if (!a.value.trim()) continue
    byField.set(key, {
      value: a.value,
      fieldName: a.fieldName ?? null,
      name: a.name,
      kind: a.kind,
      inputType: a.inputType ?? null,
      at: a.at,
      ...(a.options ? { options: a.options } : {}),
    })
  }
  return [...byField.values()]
}

/**
 * The values the person typed to sign in: every field of a sign-in form, the fields filled
 * together (same page, no submit, Enter, click or navigation between them) with a secret (a
 * password) and a field whose label or name says user, login, e-mail or account (or an e-mail
 * field). They say who the recording ran as and where (Adminer's server, user and database),
 * which the tool's saved login stands for at run time, so they are no inputs of a tool that does
 * something else (a path `/alice/calendar/` stays the account's own path). A value the intent
 * names stays one; an intent that asks to sign in, or is about users or accounts (a form that
 * creates a user also takes a name before a password), keeps them all (see signIn.ts).
 */
export function signInAccounts(actions: Action[], intent: string): Set<string> {
  const out = new Set<string>()
  if (SIGN_IN_INTENT.test(intent)) return out
  const named = intent.toLowerCase()
  let form: Action[] = []
  const close = () => {
    const secret = form.some((a) => a.secret)
    const who = form.some(
      (a) =>
        !a.secret &&
        a.value &&
        (a.inputType === 'email' ||
          USER_LABEL.test(`${a.name ?? ''} ${a.fieldName ?? ''}`) ||
          /^\S+@\S+\.\w+$/.test(a.value)),
    )
    if (secret && who)
      for (const a of form)
        if (!a.secret && a.value?.trim() && !named.includes(a.value.toLowerCase().trim()))
          out.add(a.value)
    form = []
  }
  for (const a of actions) {
    if (a.kind === 'fill' || a.kind === 'select') {
      if (form.length && form[0]!.pageUrl !== a.pageUrl) close()
      form.push(a)
    } else if (a.kind !== 'press' || a.value === 'Enter') close()
  }
  close()
  return out
}

/**
 * Words of an intent about signing in or about accounts themselves (add a user, change a
 * password): there a user name typed before a password may be the value the task is about.
 */
const SIGN_IN_INTENT =
  /\b(sign|log)[ -]?(in|on)\b|\blogin\b|\bauthenticat|\b(user|account|member|password|credential)/i
/** A field label or name that asks who the person is. */
const USER_LABEL = /\b(user(name)?|login|e-?mail|account|uname|user[ _-]?id)\b|^\s*(log|u)\s*$/i

/**
 * When the person committed the form: the first submit, Enter or click after the last value was
 * typed or chosen; with nothing typed (or no commit after it), the last commit of the trace;
 * null when there is none.
 */
export function commitTime(actions: Action[]): number | null {
  const isCommit = (a: Action) =>
    a.kind === 'submit' || a.kind === 'click' || (a.kind === 'press' && a.value === 'Enter')
  let lastEdit = -1
  actions.forEach((a, i) => {
    if ((a.kind === 'fill' || a.kind === 'select') && !a.secret) lastEdit = i
  })
  const after = actions.slice(lastEdit + 1).find(isCommit)
  if (after) return after.at
  const commits = actions.filter(isCommit)
  return commits.length ? commits[commits.length - 1]!.at : null
}

/**
 * Marks as `context` the values the intent names as the place it acts in (`namesPlace`: "from
 * the customers table of the shop database"): the record or the words the act is about stay
 * required, the place is an input whose default is the recorded one (a row chosen by click: a
 * row picked in a table of a database the person had open). A write keeps a place required when
 * it names nothing else, since a default would then pick what it changes; a read may default
 * every place ("show the rows of the products table in the shop database").
 */
function markPlaces(typed: TypedValue[], intent: string): TypedValue[] {
  if (!typed.length) return typed
  const places = typed.map((t) => namesPlace(intent, t.value))
  if (!places.some(Boolean)) return typed
  const read = readIntent(intent)
  const reads = read.act !== null && READ_ACTS.has(read.act)
  // The record a write acts on may reach no request as the intent spells it (a row deleted by its
  // key, "delete the customer Emmy Noether"): a value the intent spells elsewhere counts too.
  const namesMore = places.some((p) => !p) || read.values.some((v) => !namesPlace(intent, v.text))
  if (!reads && !namesMore) return typed
  return typed.map((t, i) => (places[i] ? { ...t, context: true } : t))
}

/**
 * Marks typed values the intent only describes (`context`, see TypedValue): the places it names
 * (`markPlaces`), and values whose words it holds in order but not their spelling while it spells
 * out at least one other typed value; and, beside a spelled one, the values it does not spell
 * (`setting`).
 * Returns new records; the input is not changed.
 */
export function markContext(given: TypedValue[], intent: string): TypedValue[] {
  const typed = markPlaces(given, intent)
  const lower = intent.toLowerCase()
  const literal = (t: TypedValue) => lower.includes(t.value.toLowerCase().trim())
  if (!typed.some(literal)) return typed
  const intentText = ` ${wordsOf(intent).join(' ')} `
  return typed.map((t) => {
    const words = wordsOf(t.value)
    // A value the intent names that the request spells otherwise (the slug `weekly-update` of
    // "rename the post Weekly Update to Weekly Roundup") names the record, not the change.
    const described = !literal(t) && words.length > 1 && intentText.includes(` ${words.join(' ')} `)
    if (described) return { ...t, context: true }
    // What the intent neither spells nor describes, while it spells another value, is what the
    // form asked on the way, not what the task is about: a choice left as offered, a time set
    // from the moment the person acted (its distance is written anew at each run, kind 9), a
    // wiki edit's log message.
    return !literal(t) ? { ...t, setting: true } : t
  })
}

/**
 * How an input's description names what the person typed: the field's label or name, else the
 * value itself (a field with neither is no words for a person).
 */
export function typedIntoWords(t: TypedValue, where: string): string {
  const label = t.name ?? t.fieldName
  return label
    ? `What was typed into "${label}" (${where})`
    : `The value typed while recording (${JSON.stringify(t.value)}; ${where})`
}
