import { plainLoginSecretName } from '../../shared/loginSecrets'
import type { EvidenceSignal, RequestTemplate } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER } from '../../shared/trace'
import type { SlotPlan } from './slots'

/** Field names that carry who signs in. */
const USER_FIELD = /(^|[._-])(user(name)?|login|email|e-?mail|account|uname|u|name|log)$/i

/**
 * Points a request that sends a typed secret at the site's saved login (issue 9 "Logins were
 * dropped"; DESIGN.md §5 "Typed secrets stay secret"): the redacted password becomes
 * `{{secret:login.<host>.password}}` and, on a sign-in, the user name typed beside it becomes
 * `{{secret:login.<host>.username}}` instead of an input, so the tool signs in as the saved
 * login and never carries a credential. Returns the plan unchanged when nothing was redacted or
 * the host's secret names would pass 64 characters.
 */
export function bindSignIn(
  plan: SlotPlan,
  siteHost: string,
): { plan: SlotPlan; signIn: boolean; signals: EvidenceSignal[] } {
  const password = plainLoginSecretName(siteHost, 'password')
  const username = plainLoginSecretName(siteHost, 'username')
  if (!password || !username || !templateText(plan.request).includes(SECRET_PLACEHOLDER))
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
    plan: {
      inputs: {
        ...plan.inputs,
        properties,
        required: (plan.inputs.required ?? []).filter((n) => n in properties),
      },
      request,
    },
    signIn: true,
    signals: [
      {
        name: 'sign_in',
        weight: 0,
        detail: `sends the saved login's password${user ? ' and user name' : ''} (secrets ${password}${user ? `, ${username}` : ''}); signing in changes no data`,
      },
    ],
  }
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
