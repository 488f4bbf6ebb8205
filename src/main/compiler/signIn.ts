import { plainLoginSecretName } from '../../shared/loginSecrets'
import type { EvidenceSignal, RequestTemplate } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER } from '../../shared/trace'
import { isOneTimeCode } from './secondFactor'
import type { SlotPlan } from './slots'

/** Field names that carry who signs in (`username`, `login`, `email`, WordPress's `log`). */
export const USER_FIELD = /(^|[._-])(user(name)?|login|email|e-?mail|account|uname|u|name|log)$/i

/**
 * Points a request that sends a typed secret at the site's saved login (docs/architecture.md "Typed secrets
 * stay secret"): the redacted password becomes `{{secret:login.<host>.password}}` and, on a
 * sign-in, the user name typed beside it becomes
 * `{{secret:login.<host>.username}}` instead of an input, so the tool signs in as the saved
 * login and never carries a credential. With `secondFactor` (the target sends the one-time code
 * a sign-in asked for: selectTarget's `sends_second_factor`), the code field becomes
 * `{{totp:login.<host>.totp}}` (see `bindOneTimeCode`) and the request is a sign-in even when
 * it carries no password. Slots are renumbered p0..pn after some became secrets. Returns the
 * plan unchanged when nothing was redacted, the host's secret names would pass 64 characters, or
 * `asksWork` (the intent asks to read or change something, not to sign in).
 */
export function bindSignIn(
  plan: SlotPlan,
  siteHost: string,
  secondFactor = false,
  asksWork = false,
): { plan: SlotPlan; signIn: boolean; signals: EvidenceSignal[] } {
  // A write or read the person asked for is no sign-in because its body carries a field the
  // recorder sealed as a password (Syncthing's whole-config PUT holds the GUI's password hash).
  if (asksWork && !secondFactor) return { plan, signIn: false, signals: [] }
  const password = plainLoginSecretName(siteHost, 'password')
  const username = plainLoginSecretName(siteHost, 'username')
  const totp = plainLoginSecretName(siteHost, 'totp')
  if (!password || !username || !totp) return { plan, signIn: false, signals: [] }
  // Only a sign-in's code is the login's TOTP: a code a caller confirms an e-mail with is input.
  const coded = secondFactor ? bindOneTimeCode(plan, totp) : null
  if (coded) plan = coded
  if (!coded && !templateText(plan.request).includes(SECRET_PLACEHOLDER))
    return { plan, signIn: false, signals: [] }
  const slots = Object.entries(plan.inputs.properties).filter(
    ([name, p]) => p['x-in'] !== 'path' && (USER_FIELD.test(p['x-path']) || USER_FIELD.test(name)),
  )
  const user = slots.length === 1 ? slots[0]! : null
  const properties = { ...plan.inputs.properties }
  let request = replaceAll(plan.request, SECRET_PLACEHOLDER, `{{secret:${password}}}`)
  if (user) {
    delete properties[user[0]]
    request = replaceAll(request, `{{input.${user[1]['x-slot']}}}`, `{{secret:${username}}}`)
  }
  return {
    plan: densify({
      inputs: {
        ...plan.inputs,
        properties,
        required: (plan.inputs.required ?? []).filter((n) => n in properties),
      },
      request,
    }),
    signIn: true,
    signals: [
      {
        name: 'sign_in',
        weight: 0,
        detail: `sends the saved login's password${user ? ' and user name' : ''} (secrets ${password}${user ? `, ${username}` : ''}); signing in changes no data`,
      },
      ...(coded
        ? [
            {
              name: 'one_time_code',
              weight: 0,
              detail: `sends a fresh one-time code from the saved login's TOTP seed ({{totp:${totp}}}, RFC 6238), never the recorded one`,
            },
          ]
        : []),
    ],
  }
}

/**
 * The plan with its one-time-code field (`twofa_code`, `otp`: `isOneTimeCode`) sent as
 * `{{totp:<seed secret>}}`, the RFC 6238 code the engine makes at send time from the saved
 * login's TOTP seed, instead of an input or the redacted value; null when the request sends no
 * code. A recorded code is dead 30 seconds later and refused when reused: it is never an input.
 */
function bindOneTimeCode(plan: SlotPlan, seedSecret: string): SlotPlan | null {
  const placeholder = `{{totp:${seedSecret}}}`
  const properties = { ...plan.inputs.properties }
  let request = plan.request
  let bound = false
  for (const [name, p] of Object.entries(plan.inputs.properties)) {
    if (p['x-in'] !== 'body' && p['x-in'] !== 'query') continue
    const key = p['x-path'].split('.').pop() ?? ''
    const value = p.default ?? (Array.isArray(p.examples) ? (p.examples[0] as unknown) : null)
    if (!isOneTimeCode({ location: p['x-in'], path: p['x-path'], key, value: codeText(value) }))
      continue
    delete properties[name]
    request = replaceAll(request, `{{input.${p['x-slot']}}}`, placeholder)
    bound = true
  }
  const body = request.body
  if (body?.kind === 'form')
    for (const [key, value] of Object.entries(body.template))
      if (
        value === SECRET_PLACEHOLDER &&
        isOneTimeCode({ location: 'body', path: key, key, value })
      ) {
        request = {
          ...request,
          body: { kind: 'form', template: { ...body.template, [key]: placeholder } },
        }
        bound = true
      }
  if (!bound) return null
  return {
    inputs: {
      ...plan.inputs,
      properties,
      required: (plan.inputs.required ?? []).filter((n) => n in properties),
    },
    request,
  }
}

/**
 * The plan with its slots renumbered p0..pn in order once some became secrets, so slot ids stay
 * dense (docs/architecture.md "The records"). Slots are renamed in one pass, so `p1` → `p0` never meets the old `p0`.
 */
function densify(plan: SlotPlan): SlotPlan {
  const renamed = new Map<string, string>()
  const properties = Object.fromEntries(
    Object.entries(plan.inputs.properties).map(([name, p], index) => {
      renamed.set(p['x-slot'], `p${index}`)
      return [name, { ...p, 'x-slot': `p${index}` }]
    }),
  )
  if ([...renamed].every(([from, to]) => from === to)) return plan
  const text = JSON.stringify(plan.request).replace(
    /\{\{input\.(p\d+)\}\}/g,
    (whole, slot: string) => `{{input.${renamed.get(slot) ?? slot}}}`,
  )
  return { inputs: { ...plan.inputs, properties }, request: JSON.parse(text) as RequestTemplate }
}

function codeText(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

function templateText(request: RequestTemplate): string {
  return JSON.stringify(request)
}

/** Replaces a literal everywhere in a request template (URL, headers, body). */
function replaceAll(request: RequestTemplate, from: string, to: string): RequestTemplate {
  return JSON.parse(
    JSON.stringify(request).split(jsonInner(from)).join(jsonInner(to)),
  ) as RequestTemplate
}

/** A literal as it appears inside a JSON string (quotes and backslashes escaped). */
function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1)
}
