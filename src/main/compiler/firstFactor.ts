import { plainLoginSecretName } from '../../shared/loginSecrets'
import type { RequestTemplate, SlotSchema, ToolSpec, ToolStep } from '../../shared/toolSpec'
import { SECRET_PLACEHOLDER, type Trace } from '../../shared/trace'
import { httpUrl } from '../../shared/urls'
import { planDependencies } from './dependencies'
import { requestValues } from './requestValues'
import { firstFactorOf } from './secondFactor'
import { USER_FIELD } from './signIn'
import { typedValues } from './typedValues'

/**
 * Puts a second-factor sign-in's first factor in front of it: a tool whose target sends the
 * one-time code (`{{totp:…}}`, see signIn.ts) only works in the session the first factor opened
 * (Redmine keeps a two-minute `twofa_session`
 * in the cookie that POST /login set), so the tool posts the user name and password first, with
 * the page it reads its token from, then reads the code page and sends the code, all in the
 * run's own cookie jar. The password is the saved login's secret; the user name is an input
 * when the person typed it or the intent names it (Redmine matches logins case-insensitively,
 * and a caller signs in as the person they name), else the saved login's user name.
 * Returns the tool unchanged when it sends no one-time code, no first factor is in the trace,
 * or the dependency plan would not give the target the values it reads.
 */
export function withFirstFactor(tool: ToolSpec, trace: Trace, intent: string): ToolSpec {
  if (!tool.evidence.signals.some((s) => s.name === 'one_time_code')) return tool
  const target = trace.exchanges.find((e) => e.id === tool.evidence.targetExchangeId)
  const first = target && firstFactorOf(trace.exchanges, target)
  const password = plainLoginSecretName(tool.siteHost, 'password')
  const username = plainLoginSecretName(tool.siteHost, 'username')
  if (!target || !first || !password || !username) return tool
  const user = requestValues(first).find(
    (v) =>
      USER_FIELD.test(v.key) &&
      typeof v.value === 'string' &&
      v.value.trim() !== '' &&
      !v.value.includes(SECRET_PLACEHOLDER),
  )
  const typed = typedValues(trace.actions).map((t) => t.value)
  const given =
    !!user &&
    (typed.includes(String(user.value)) ||
      intent.toLowerCase().includes(String(user.value).toLowerCase()))
  const properties = { ...tool.inputs.properties }
  const slot = `p${Object.keys(properties).length}`
  const hosts = siteHosts(trace)
  const plan = planDependencies(trace, target, {
    typed: user ? [String(user.value)] : [],
    slotOf: new Map(given ? [[String(user.value), `{{input.${slot}}}`]] : []),
    forced: [first.id],
    sameSite: (e) => hosts.has(httpUrl(e.url)?.host ?? ''),
  })
  const last = tool.steps[tool.steps.length - 1]!
  const extracted = new Set(plan.steps.flatMap((s) => s.extract.map((x) => `${s.id}.${x.name}`)))
  const read = [...JSON.stringify(last.request).matchAll(/\{\{step\.([\w-]+\.[\w-]+)\}\}/g)]
  if (read.some((m) => !extracted.has(m[1]!))) return tool
  const steps: ToolStep[] = plan.steps.map((s) =>
    s.exchangeId === first.id
      ? { ...s, request: credentialsOf(s.request, user?.path ?? null, given, password, username) }
      : s,
  )
  if (user && given)
    properties[slotName(user.key, properties)] = {
      'x-slot': slot,
      'x-in': user.location,
      'x-path': user.path,
      type: 'string',
      default: String(user.value),
      description: `Who signs in: the user name the first factor sends (${first.method} ${httpUrl(first.url)?.pathname} ${user.location} ${user.path}); the password and the one-time code come from the saved login`,
    } satisfies SlotSchema
  const all = [...steps, last]
  return {
    ...tool,
    inputs: {
      ...tool.inputs,
      properties,
      required: [
        ...(tool.inputs.required ?? []),
        ...(user && given ? [slotName(user.key, tool.inputs.properties)] : []),
      ],
    },
    steps: all,
    evidence: {
      ...tool.evidence,
      exchangeIds: all.map((s) => s.exchangeId!).filter(Boolean),
      signals: [
        ...tool.evidence.signals,
        {
          name: 'first_factor',
          weight: 0,
          detail: `${first.method} ${httpUrl(first.url)?.pathname} (user name and password) runs first: the one-time code completes the session it opened`,
        },
      ],
    },
  }
}

/** The first factor's request with the saved password, and the user name an input or secret. */
function credentialsOf(
  request: RequestTemplate,
  userPath: string | null,
  given: boolean,
  password: string,
  username: string,
): RequestTemplate {
  // The redacted password, wherever the template holds it (a JSON string keeps it escaped).
  const redacted = JSON.stringify(SECRET_PLACEHOLDER).slice(1, -1)
  const withPassword = JSON.parse(
    JSON.stringify(request).split(redacted).join(`{{secret:${password}}}`),
  ) as RequestTemplate
  const body = withPassword.body
  if (given || !userPath || body?.kind !== 'form' || !(userPath in body.template))
    return withPassword
  return {
    ...withPassword,
    body: { kind: 'form', template: { ...body.template, [userPath]: `{{secret:${username}}}` } },
  }
}

function slotName(key: string, properties: Record<string, unknown>): string {
  const base = key.replace(/[^A-Za-z0-9_]/g, '_') || 'username'
  let name = base
  for (let n = 2; name in properties; n++) name = `${base}_${n}`
  return name
}

/** The hosts the person's pages were on: the trace's start and every action's page. */
function siteHosts(trace: Trace): Set<string> {
  return new Set(
    [trace.startUrl, ...trace.actions.map((a) => a.pageUrl)]
      .map((u) => httpUrl(u)?.host)
      .filter((h): h is string => !!h),
  )
}
