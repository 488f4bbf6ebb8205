import { ServiceError } from '../../shared/errors'
import { isUnsafeKey } from '../../shared/safeKeys'
import { safeUrl } from '../../shared/safeJson'

/** A secret's name: 1 to 64 letters, digits, `_`, `-`, `.` (it is written `{{secret:NAME}}`). */
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/
/** Largest secret value, in UTF-8 bytes. */
const MAX_SECRET_BYTES = 64 * 1024
/** Hosts one secret may be bound to. */
const MAX_SECRET_HOSTS = 20

const HOST =
  /^(?=.{1,253}(:|$))[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/

/** Throws 400 `invalid_input` unless `name` is a valid secret name. */
export function checkSecretName(name: string): void {
  if (isUnsafeKey(name))
    throw new ServiceError('invalid_input', `"${name}" cannot name a secret: pick another name.`)
  if (!SECRET_NAME.test(name))
    throw new ServiceError(
      'invalid_input',
      'A secret name is 1 to 64 letters, digits, "_", "-" or ".".',
    )
}

/**
 * Checks a secret's value: a non-empty string of at most 64 KiB (UTF-8). Errors: 400
 * `invalid_input`; the message never quotes the value.
 */
export function checkSecretValue(value: unknown): string {
  if (typeof value !== 'string' || !value.length)
    throw new ServiceError('invalid_input', '"value" is required: a non-empty string.')
  if (Buffer.byteLength(value, 'utf8') > MAX_SECRET_BYTES)
    throw new ServiceError('invalid_input', '"value" is over 64 KiB (UTF-8).')
  return value
}

/**
 * Normalises the hosts a secret is bound to: bare `host` or `host:port` (no scheme, no path),
 * lowercased, deduplicated, at most 20. Errors: 400 `invalid_input` naming the bad entry.
 */
export function normalizeSecretHosts(hosts: unknown): string[] {
  if (!Array.isArray(hosts) || hosts.length > MAX_SECRET_HOSTS)
    throw new ServiceError(
      'invalid_input',
      `"hosts" must be a list of at most ${MAX_SECRET_HOSTS} host names.`,
    )
  const out: string[] = []
  for (const raw of hosts) {
    const host = typeof raw === 'string' ? raw.trim().toLowerCase() : ''
    if (!HOST.test(host))
      throw new ServiceError(
        'invalid_input',
        `"${typeof raw === 'string' ? raw.slice(0, 100) : typeof raw}" is not a host: write a bare name like "example.com" or "example.com:8443", no scheme or path.`,
      )
    if (!out.includes(host)) out.push(host)
  }
  return out
}

/**
 * True when a request to `url` may carry a secret bound to `hosts` (docs/architecture.md "Rules that cut across" outbound
 * checks): the URL's host matches an entry exactly; an entry without a port matches that host on
 * any port. Subdomains do not match: each host is bound by name.
 */
export function hostAllowed(url: string, hosts: readonly string[]): boolean {
  const parsed = safeUrl(url)
  if (!parsed) return false
  const host = parsed.host.toLowerCase()
  const hostname = parsed.hostname.toLowerCase()
  return hosts.some((h) => h === host || (!h.includes(':') && h === hostname))
}
