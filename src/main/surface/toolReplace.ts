import { ServiceError } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { Store } from '../store/store'
import type { ToolRepository } from '../store/toolRepository'
import { nextToolVersion } from './toolEdit'

/** `METHOD path` of a tool's target request, its URL's query and placeholders' values left out. */
function targetKey(tool: ToolSpec): string | null {
  const request = tool.steps.at(-1)?.request
  if (!request) return null
  const path = request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0] || '/'
  return `${request.method.toUpperCase()} ${path}`
}

/**
 * The tool a new candidate records again ("recording the same workflow again
 * offers to replace the existing tool instead of adding `_2`"): another tool of the same site
 * whose name the candidate's is numbered from (`x` for `x_2`), or whose target request has the
 * same method and path. Verified tools first, then the most recently updated; null when none.
 */
export function replaceableTool(candidate: ToolSpec, tools: ToolRepository): ToolSpec | null {
  if (candidate.status !== 'candidate') return null
  const base = candidate.name.replace(/_\d+$/, '')
  const key = targetKey(candidate)
  const same = tools
    .list({ siteHost: candidate.siteHost })
    .filter((t) => t.id !== candidate.id && t.createdAt <= candidate.createdAt)
    .filter((t) => t.name === base || (key !== null && targetKey(t) === key))
  same.sort(
    (a, b) =>
      Number(b.status === 'verified') - Number(a.status === 'verified') ||
      b.updatedAt - a.updatedAt,
  )
  return same[0] ?? null
}

/**
 * Puts `candidateId` in the place of `replacedId`: the old tool is deleted and the candidate
 * takes its name (so callers' paths stay the same) with the next version; it stays a candidate
 * until a run verifies it. Both writes are one SQLite transaction. Errors: 404 `not_found` for either id; 400 `invalid_input` when the
 * first is not a candidate or the two belong to different sites.
 */
export function replaceTool(
  store: Pick<Store, 'transaction' | 'tools'>,
  candidateId: string,
  replacedId: string,
  now: number,
): ToolSpec {
  const { tools } = store
  const candidate = tools.get(candidateId)
  const replaced = tools.get(replacedId)
  if (!candidate) throw new ServiceError('not_found', `No tool ${candidateId}.`)
  if (!replaced) throw new ServiceError('not_found', `No tool ${replacedId}.`)
  if (candidate.status !== 'candidate' || candidate.id === replaced.id)
    throw new ServiceError('invalid_input', `${candidate.name} is not a new candidate.`)
  if (candidate.siteHost !== replaced.siteHost)
    throw new ServiceError(
      'invalid_input',
      `${candidate.name} is for ${candidate.siteHost}, ${replaced.name} for ${replaced.siteHost}.`,
    )
  const next: ToolSpec = {
    ...candidate,
    name: replaced.name,
    capabilityId:
      candidate.capabilityId === `${candidate.siteHost}/${candidate.name}`
        ? `${candidate.siteHost}/${replaced.name}`
        : candidate.capabilityId,
    version: nextToolVersion(replaced.version, now),
    updatedAt: now,
  }
  // One transaction: the name is never free for another tool, and never on two tools.
  store.transaction(() => {
    tools.delete(replaced.id)
    tools.save(next)
  })
  return next
}
