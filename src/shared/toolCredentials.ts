import type { ToolSpec } from './toolSpec'
import { decodeOrKeep } from './urls'

/** One place of a tool that carries a credential or recorded traffic (never the value itself). */
export interface CredentialFinding {
  /** Where: `steps[0].request.headers.Authorization`, `steps[1].request.body.password`... */
  path: string
  reason: 'credential_value' | 'recorded_traffic' | 'url_userinfo'
}

/**
 * Names of headers, query parameters and body fields whose value is a credential: cookies,
 * authorization, API keys, tokens, session ids, secrets, passwords, CSRF tokens (the last are
 * bound to a session, so a recorded one is a session credential too).
 */
const CREDENTIAL_NAME =
  /^(set-)?cookie$|authori[sz]ation|api[-_]?key|token|session|secret|passw(or)?d|passwd|csrf|xsrf|nonce|credential|private[-_]?key/i

/**
 * Keys that only traces have (recorded requests and answers, a browser's storage): a tool that
 * holds one carries recorded traffic, which may hold a credential.
 */
const RECORDED_KEYS = new Set([
  'requestBody',
  'responseBody',
  'requestHeaders',
  'responseHeaders',
  'storageState',
  'exchanges',
])

/** `{{…}}` placeholders (login values, secrets, step values, inputs, generated values). */
const PLACEHOLDER = /\{\{[^{}]*\}\}/g
/** Authentication scheme words a templated header keeps (RFC 9110 §11.4). */
const SCHEME = /\b(bearer|basic|digest|token|apikey|negotiate)\b/gi

/**
 * Whether `value` is only placeholders (`Bearer {{login.token}}`, `{{secret:API_KEY}}`): what a
 * tool may keep where a credential goes. Empty text is no credential either.
 */
function templatedOnly(value: string): boolean {
  return (
    value
      .replace(PLACEHOLDER, '')
      .replace(SCHEME, '')
      .replace(/[\s=;:,"']/g, '') === ''
  )
}

/**
 * The places of a tool that hold a credential or recorded traffic (docs/team-server.md: a tool pushed to
 * a team server carries its spec, schemas, verify rule and evidence, "never a credential, never
 * a recorded body that may hold one"). Looks at every step's headers, URL (userinfo, query
 * parameters) and body template (JSON, form, multipart text parts, a based body's recorded
 * template) for a credential-named field holding a literal value instead of a placeholder, and
 * at the whole tool for keys only traces have. A compiled tool has none: the compiler turns
 * session values into `{{login.…}}` and secrets into `{{secret:…}}`. Empty: nothing found.
 */
export function findCredentials(tool: ToolSpec): CredentialFinding[] {
  const found: CredentialFinding[] = []
  const literal = (path: string, name: string, value: unknown) => {
    if (typeof value === 'string' && CREDENTIAL_NAME.test(name) && !templatedOnly(value))
      found.push({ path, reason: 'credential_value' })
  }
  const walkBody = (path: string, value: unknown, name: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walkBody(`${path}[${i}]`, v, name))
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walkBody(`${path}.${k}`, v, k)
    else literal(path, name, value)
  }
  ;(Array.isArray(tool.steps) ? tool.steps : []).forEach((step, i) => {
    const at = `steps[${i}].request`
    const request = step?.request
    if (!request) return
    for (const [name, value] of Object.entries(request.headers ?? {}))
      literal(`${at}.headers.${name}`, name, value)
    if (typeof request.url === 'string') {
      const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(request.url)?.[1]
      if (userinfo && !templatedOnly(userinfo))
        found.push({ path: `${at}.url`, reason: 'url_userinfo' })
      const query = request.url.split('#')[0]!.split('?')[1] ?? ''
      for (const pair of query.split('&').filter(Boolean)) {
        const [name = '', value = ''] = pair.split('=')
        literal(`${at}.url?${name}`, safeDecode(name), safeDecode(value))
      }
    }
    const body = request.body
    if (!body) return
    if (body.kind === 'multipart')
      body.template.forEach((part, j) => {
        if ('value' in part) literal(`${at}.body[${j}].${part.name}`, part.name, part.value)
      })
    else if (body.kind === 'json' || body.kind === 'form') walkBody(`${at}.body`, body.template, '')
    else if (body.kind === 'text') {
      // A text body (`a=1&password=x` sent as text/plain): its key=value pairs.
      for (const pair of String(body.template).split(/[&\n]/)) {
        const [name = '', value = ''] = pair.split('=')
        if (pair.includes('=')) literal(`${at}.body.${name.trim()}`, name.trim(), value)
      }
    }
  })
  const walkKeys = (path: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walkKeys(`${path}[${i}]`, v))
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        const at = path ? `${path}.${k}` : k
        if (RECORDED_KEYS.has(k)) found.push({ path: at, reason: 'recorded_traffic' })
        else walkKeys(at, v)
      }
  }
  walkKeys('', tool)
  return found
}

function safeDecode(text: string): string {
  return decodeOrKeep(text.replace(/\+/g, ' '))
}
