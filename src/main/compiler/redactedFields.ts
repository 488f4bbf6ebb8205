/**
 * A secret the person typed into a form that is not a sign-in (a new account's password, a
 * changed password): the recorder sealed its value (`[sitecall:secret]`, architecture.md "Rules
 * that cut across"), so the tool cannot replay it and must never send the placeholder itself.
 * Each such field becomes a required input the caller gives at run time, marked `writeOnly`
 * (JSON Schema 2020-12 §9.4: sent, never returned) and with no default or example.
 */
import type { SlotSchema } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER, type Trace } from '../../shared/trace'
import type { SlotPlan } from './slots'
import { freshInputName, nextSlotNumber } from './stepTemplate'

/** A form field that asks for the secret again. */
const CONFIRMATION = /confirm|again|repeat|retype|verify|[^\d]2$/i

/**
 * `plan` with every form field, JSON string or multipart text part whose whole value is the
 * recorder's secret placeholder sent from a new required `writeOnly` input named after the field
 * (a raw text body's placeholders from one input, `secret`). Unchanged when the request carries
 * none, and when nobody typed a secret (a page's own sealed value, such as a settings document's
 * password hash, stays as it is): a secret field filled in the recording, or, in a trace without
 * actions (a plain HAR), a form body, or a JSON body with an intent that names a password. Run
 * it after the sign-in binding, which takes a sign-in form's placeholders for the login.
 */
export function inputsForRedacted(plan: SlotPlan, trace: Trace, intent: string): SlotPlan {
  const body = plan.request.body
  if (!typedSecret(trace, intent, body?.kind === 'json')) return plan
  const properties: Record<string, SlotSchema> = { ...plan.inputs.properties }
  const required = [...(plan.inputs.required ?? [])]
  let next = nextSlotNumber(properties)
  const add = (field: string, path: string): string => {
    const slot = `p${next++}`
    const name = freshInputName(field, properties, 'secret')
    properties[name] = {
      'x-slot': slot,
      'x-in': 'body',
      'x-path': path,
      type: 'string',
      writeOnly: true,
      description: `The secret typed into "${field}"; the recording keeps no secret, so give it at each run`,
    }
    required.push(name)
    return `{{input.${slot}}}`
  }
  let request = plan.request
  if (body?.kind === 'form') {
    const template = { ...body.template }
    let changed = false
    let last: string | null = null
    for (const [key, value] of Object.entries(template))
      if (value === SECRET_PLACEHOLDER) {
        // A confirmation box (`password_confirm`, `password2`) repeats the secret just typed.
        const repeats: boolean = last !== null && CONFIRMATION.test(key.replace(/#\d+$/, ''))
        last = repeats ? last : add(key.replace(/#\d+$/, ''), key)
        template[key] = last!
        changed = true
      }
    if (changed) request = { ...request, body: { kind: 'form', template } }
  } else if (body?.kind === 'json' && !body.base) {
    let changed = false
    const walk = (value: unknown, path: string): unknown => {
      if (value === SECRET_PLACEHOLDER) {
        changed = true
        return add(path.split('.').at(-1) ?? 'secret', path)
      }
      if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`))
      if (value && typeof value === 'object')
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
        )
      return value
    }
    const template = walk(body.template, '')
    if (changed) request = { ...request, body: { kind: 'json', template } }
  } else if (body?.kind === 'text' && body.template.includes(SECRET_PLACEHOLDER)) {
    const placeholder = add('secret', 'secret')
    request = {
      ...request,
      body: { kind: 'text', template: body.template.split(SECRET_PLACEHOLDER).join(placeholder) },
    }
  } else if (body?.kind === 'multipart') {
    const parts = body.template.map((part) =>
      'value' in part && part.value === SECRET_PLACEHOLDER
        ? { ...part, value: add(part.name, part.name) }
        : part,
    )
    if (parts.some((p, i) => p !== body.template[i]))
      request = { ...request, body: { kind: 'multipart', template: parts } }
  }
  if (request === plan.request) return plan
  return { inputs: { ...plan.inputs, properties, required }, request }
}

function typedSecret(trace: Trace, intent: string, json: boolean): boolean {
  if (trace.actions.length) return trace.actions.some((a) => a.kind === 'fill' && a.secret === true)
  // Without actions, a form field is what a person types; a JSON document may be the app's own.
  return !json || /\b(pass(word|phrase|code)?|pin|secret)\b/i.test(intent)
}
