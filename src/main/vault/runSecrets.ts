import { secretForms } from './secretForms'
import { hostAllowed } from './secretPolicy'
import { safeUrl } from '../../shared/safeJson'

/** A secret as a run may use it: the value and the hosts it may be sent to. */
export interface BoundSecret {
  name: string
  value: string
  hosts: string[]
}

/** Looks a secret up for one run's workspace; rejects when the vault is locked. */
export type SecretLookup = (name: string) => Promise<BoundSecret | null>

/**
 * A run's access to its workspace's secrets: `resolve` for the executors, `redact` for whatever
 * the run keeps (result, error message, effects), so a value the site echoes back (raw, or in one
 * of the encodings of `secretForms`) or a URL that carried it is stored as `[secret:NAME]`.
 */
export interface RunSecrets {
  resolve(name: string): Promise<BoundSecret | null>
  /** A deep copy of `value` with every secret resolved so far replaced by `[secret:NAME]`. */
  redact<T>(value: T): T
}

/** Values shorter than this are not searched for when redacting (they would mangle results). */
const MIN_REDACTED = 4

/** Creates the secrets of one run over a lookup bound to the run's workspace. */
export function createRunSecrets(lookup: SecretLookup): RunSecrets {
  const used = new Map<string, string>()
  const forms = new Map<string, string[]>()
  const formsOf = (value: string) => {
    let found = forms.get(value)
    if (!found) forms.set(value, (found = secretForms(value)))
    return found
  }
  const redactText = (text: string): string => {
    let out = text
    // Longest first, so a value inside another one does not leave half of the longer one.
    const values = [...used].sort((a, b) => b[1].length - a[1].length)
    for (const [name, value] of values) {
      if (value.length < MIN_REDACTED) continue
      for (const form of formsOf(value)) out = out.split(form).join(`[secret:${name}]`)
    }
    return out
  }
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(value)
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[redactText(k)] = walk(v)
      return out
    }
    return value
  }
  return {
    async resolve(name) {
      const secret = await lookup(name)
      if (secret) used.set(name, secret.value)
      return secret
    },
    redact: <T>(value: T): T => (used.size ? (walk(value) as T) : value),
  }
}

/** Why a step may not be sent, in the run failure's terms (interface.md "Why a run failed"). */
export interface SecretRefusal {
  ok: false
  code: 'policy_denied' | 'session_or_permission'
  message: string
}

/** The secrets a step names, resolved, with the check of where they may go. */
export interface StepSecrets {
  ok: true
  /** `secret:NAME` → value, to merge into the template scope of this step only. */
  scope: Record<string, string>
  /**
   * Null when the rendered `url` may carry every secret of the step, else the `policy_denied`
   * refusal naming the secret (never its value) and the host it would have gone to.
   */
  deniedAt(url: string): SecretRefusal | null
}

/**
 * Resolves the `{{secret:NAME}}` placeholders of one step before it is rendered. A name with no
 * stored secret, or a locked vault, refuses the step `session_or_permission` (the person must store
 * the secret or unlock, then call again); a run
 * with no access to secrets at all refuses it `policy_denied`. Nothing has been sent either way.
 */
export async function bindStepSecrets(
  names: readonly string[],
  secrets: RunSecrets | undefined,
): Promise<StepSecrets | SecretRefusal> {
  const bound: BoundSecret[] = []
  if (names.length && !secrets)
    return {
      ok: false,
      code: 'policy_denied',
      message: `This run has no access to the vault, so {{secret:${names[0]}}} cannot be sent.`,
    }
  for (const name of names) {
    let secret: BoundSecret | null
    try {
      secret = await secrets!.resolve(name)
    } catch (error) {
      return {
        ok: false,
        code: 'session_or_permission',
        message: `The secret "${name}" cannot be read: ${(error as Error).message}`,
      }
    }
    if (!secret)
      return {
        ok: false,
        code: 'session_or_permission',
        message: `No secret "${name}" is stored: PUT /v1/accounts/${name} {value, hosts}, then call again.`,
      }
    bound.push(secret)
  }
  return {
    ok: true,
    scope: Object.fromEntries(bound.map((s) => [`secret:${s.name}`, s.value])),
    deniedAt(url) {
      for (const secret of bound) {
        if (hostAllowed(url, secret.hosts)) continue
        // An unparsable URL is refused with the placeholder host.
        const host = safeUrl(url)?.host ?? '(no host)'
        const where = secret.hosts.length
          ? `it is bound to ${secret.hosts.join(', ')}`
          : 'it is bound to no host yet (PUT it again with "hosts")'
        return {
          ok: false,
          code: 'policy_denied',
          message: `The secret "${secret.name}" may not be sent to ${host}: ${where}. Nothing was sent.`,
        }
      }
      return null
    },
  }
}
