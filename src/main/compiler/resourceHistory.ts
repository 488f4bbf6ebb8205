import type { Exchange } from '../../shared/trace'
import { isWriteMethod, parseJsonBody } from './classify'
import { pathSegments } from './requestValues'

/**
 * What a trace shows of the resource a write names, before and after it: a resource is named by the
 * last two segments of its URL's path (`tiddlers/Grocery List`, `comments/5`), so one record
 * reached by two routes
 * (`/recipes/default/tiddlers/X` and `/bags/default/tiddlers/X`) is one resource. Pure.
 */
export interface ResourceHistory {
  /** The trace writes it first and deletes it later: a draft or autosave the app cleans up. */
  temporary: { created: Exchange; deleted: Exchange } | null
  /** An earlier JSON answer lists it by name (a record the person could see and pick). */
  listedBefore: Exchange | null
}

/** The resource a URL names: its last two path segments, decoded, or null when it has one. */
function resourceOf(url: string): { parent: string; name: string } | null {
  const segments = pathSegments(url)
  if (segments.length < 2) return null
  return { parent: segments[segments.length - 2]!, name: segments[segments.length - 1]! }
}

/**
 * The history of the resource `write` names within `exchanges` (the whole trace, in order), for
 * a request that changes state; null for a read or a URL that names no resource. A resource the
 * trace creates and then deletes left nothing behind: RFC 9110 §9.3.4 has a PUT create a
 * resource that did not exist, and §9.3.5 a DELETE remove it; the pair is the app's scratch copy.
 */
export function resourceHistory(write: Exchange, exchanges: Exchange[]): ResourceHistory | null {
  if (!isWriteMethod(write.method)) return null
  const own = resourceOf(write.url)
  if (!own) return null
  const same = (e: Exchange) => {
    const r = resourceOf(e.url)
    return !!r && r.parent === own.parent && r.name === own.name
  }
  const earlier = exchanges.filter((e) => e.seq < write.seq)
  const listedBefore = [...earlier].reverse().find((e) => listsName(e, own.name)) ?? null
  const writes = exchanges.filter(
    (e) => same(e) && ok(e) && ['PUT', 'POST'].includes(e.method.toUpperCase()),
  )
  const created = writes[0]
  const deleted = created
    ? exchanges.find(
        (e) => e.seq > created.seq && same(e) && e.method.toUpperCase() === 'DELETE' && ok(e),
      )
    : undefined
  // A record that existed before its first write (listed by an earlier answer) was no draft.
  const existed = created && exchanges.some((e) => e.seq < created.seq && listsName(e, own.name))
  const temporary =
    created && deleted && !existed && write.seq >= created.seq && write.seq <= deleted.seq
      ? { created, deleted }
      : null
  return { temporary, listedBefore }
}

const ok = (e: Exchange) => e.status >= 200 && e.status < 300

/** True when the exchange answered JSON that holds `name` as a string value. */
function listsName(e: Exchange, name: string): boolean {
  if (e.responseBody?.encoding !== 'utf8' || !ok(e)) return false
  if (!e.responseBody.text.includes(JSON.stringify(name).slice(1, -1))) return false
  return holds(parseJsonBody(e), name, 0)
}

function holds(json: unknown, name: string, depth: number): boolean {
  if (json === name) return true
  if (depth > 5 || json === null || typeof json !== 'object') return false
  return Object.values(json).some((v) => holds(v, name, depth + 1))
}
