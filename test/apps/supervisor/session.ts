/**
 * Signing in to Supervisor's web UI and using it by hand, as a person with curl would. The login
 * is HTTP Basic only (`[inet_http_server] username/password`, realm "default"): no session, no
 * cookie, no CSRF token. The same server answers the XML-RPC interface at `/RPC2` (what
 * `supervisorctl` speaks), which the keys use to read the programs' states; the page never does.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance } from '../types'
import { fetchBasic } from '../basicAuth'
import { getText } from '../sessionFetch'

export { getText }

export { fetchBasic }

/** An XML-RPC value as this client reads it. */
export type RpcValue = string | number | boolean | RpcValue[] | { [key: string]: RpcValue }

/** Escapes text for an XML element's content. */
function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Undoes the entities Python's xmlrpc writes into strings. */
function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** An XML-RPC `<param>` for a string or integer argument. */
function rpcParam(arg: string | number): string {
  const value = typeof arg === 'number' ? `<int>${arg}</int>` : `<string>${xmlText(arg)}</string>`
  return `<param><value>${value}</value></param>`
}

/**
 * Reads one `<value>` starting at `xml[pos]` (whitespace before it skipped); returns the value and
 * the position after its `</value>`. Enough of XML-RPC for Supervisor's answers: strings, ints,
 * booleans, arrays and structs.
 */
function readValue(xml: string, pos: number): { value: RpcValue; end: number } {
  const open = /\s*<value>\s*/y
  open.lastIndex = pos
  if (!open.exec(xml)) throw new Error(`XML-RPC: no <value> at ${pos}`)
  let at = open.lastIndex
  const scalar =
    /<(string|int|i4|boolean|double)>([\s\S]*?)<\/\1>\s*<\/value>|<(string)\/>\s*<\/value>/y
  scalar.lastIndex = at
  const s = scalar.exec(xml)
  if (s) {
    const [, type, text = ''] = s
    const value: RpcValue =
      type === 'string' || s[3]
        ? unescapeXml(text)
        : type === 'boolean'
          ? text === '1'
          : Number(text)
    return { value, end: scalar.lastIndex }
  }
  if (xml.startsWith('<array>', at)) {
    const items: RpcValue[] = []
    at = xml.indexOf('<data>', at) + '<data>'.length
    for (;;) {
      const close = /\s*<\/data>\s*<\/array>\s*<\/value>/y
      close.lastIndex = at
      if (close.exec(xml)) return { value: items, end: close.lastIndex }
      const item = readValue(xml, at)
      items.push(item.value)
      at = item.end
    }
  }
  if (xml.startsWith('<struct>', at)) {
    const members: Record<string, RpcValue> = {}
    at += '<struct>'.length
    for (;;) {
      const close = /\s*<\/struct>\s*<\/value>/y
      close.lastIndex = at
      if (close.exec(xml)) return { value: members, end: close.lastIndex }
      const name = /\s*<member>\s*<name>([^<]*)<\/name>/y
      name.lastIndex = at
      const n = name.exec(xml)
      if (!n) throw new Error(`XML-RPC: no <member> at ${at}`)
      const member = readValue(xml, name.lastIndex)
      members[unescapeXml(n[1]!)] = member.value
      const end = /\s*<\/member>/y
      end.lastIndex = member.end
      if (!end.exec(xml)) throw new Error(`XML-RPC: no </member> at ${member.end}`)
      at = end.lastIndex
    }
  }
  // A bare `<value>text</value>` is a string too.
  const bare = /([^<]*)<\/value>/y
  bare.lastIndex = at
  const b = bare.exec(xml)
  if (b) return { value: unescapeXml(b[1]!), end: bare.lastIndex }
  throw new Error(`XML-RPC: cannot read the value at ${at}`)
}

/**
 * Calls `method` on Supervisor's XML-RPC interface (`POST /RPC2`, signed in with `session`) and
 * returns its answer; throws on a fault or an HTTP error.
 */
export async function rpc(
  fetchApp: AppInstance['fetch'],
  session: StorageState,
  method: string,
  args: Array<string | number> = [],
): Promise<RpcValue> {
  const body =
    `<?xml version="1.0"?><methodCall><methodName>${method}</methodName>` +
    `<params>${args.map(rpcParam).join('')}</params></methodCall>`
  const res = await fetchApp('/RPC2', {
    method: 'POST',
    session,
    headers: { 'content-type': 'text/xml' },
    body,
  })
  const xml = await res.text()
  if (res.status !== 200) throw new Error(`POST /RPC2 ${method} answered ${res.status}`)
  const fault = /<fault>\s*([\s\S]*?)<\/fault>/.exec(xml)
  if (fault) {
    const f = readValue(fault[1]!, 0).value as Record<string, RpcValue>
    throw new Error(`${method}: fault ${String(f['faultCode'])} ${String(f['faultString'])}`)
  }
  const start = xml.indexOf('<param>')
  if (start < 0) throw new Error(`${method}: no answer in ${xml.slice(0, 200)}`)
  return readValue(xml, start + '<param>'.length).value
}

/** One program as `supervisor.getAllProcessInfo` describes it. */
export interface ProcessInfo {
  /** `group:name`, or `name` when the program is its own group: what the web UI shows. */
  namespec: string
  /** `STOPPED`, `STARTING`, `RUNNING`, `BACKOFF`, `STOPPING`, `EXITED`, `FATAL`, `UNKNOWN`. */
  statename: string
  /** Its process id while it runs, else 0. */
  pid: number
  /** When it was last started (Unix seconds; 0: never). */
  start: number
  /** Supervisor's clock when it answered (Unix seconds). */
  now: number
}

/** Every program's state, read with XML-RPC (signed in with `session`). */
export async function readStates(
  fetchApp: AppInstance['fetch'],
  session: StorageState,
): Promise<ProcessInfo[]> {
  const all = (await rpc(fetchApp, session, 'supervisor.getAllProcessInfo')) as Array<
    Record<string, RpcValue>
  >
  return all.map((p) => ({
    namespec:
      p['group'] === p['name'] ? String(p['name']) : `${String(p['group'])}:${String(p['name'])}`,
    statename: String(p['statename']),
    pid: Number(p['pid']),
    start: Number(p['start']),
    now: Number(p['now']),
  }))
}

/** A program's whole stdout log, read with XML-RPC (`readProcessStdoutLog(name, 0, 0)`). */
export async function readLog(
  fetchApp: AppInstance['fetch'],
  session: StorageState,
  spec: string,
): Promise<string> {
  return String(await rpc(fetchApp, session, 'supervisor.readProcessStdoutLog', [spec, 0, 0]))
}

/**
 * Checks the credentials with one XML-RPC call (`supervisor.getState`) and returns what a browser
 * keeps of the login: nothing in cookies or localStorage, since Basic auth lives in the browser's
 * auth cache (what Sitecall saves for a Basic site is this empty state plus the name and
 * password). Throws when Supervisor refuses.
 */
export async function signInBasic(
  origin: string,
  user: { name: string; password: string },
): Promise<StorageState> {
  const session: StorageState = { cookies: [], origins: [] }
  await rpc((path, init) => fetchBasic(origin, user, path, init), session, 'supervisor.getState')
  return session
}
