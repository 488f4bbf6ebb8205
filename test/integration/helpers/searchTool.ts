import { randomUUID } from 'node:crypto'
import { ulid } from 'ulid'
import { compileTrace } from '../../../src/main/compiler'
import type { Core } from '../../../src/main/core'
import type { ToolSpec, ToolStatus } from '../../../src/shared/toolSpec'
import type { Trace } from '../../../src/shared/trace'
import type { DirectorySite } from '../../fixtures/sites/directory'

/** The body the site's own page sends when a person searches for "writing". */
export const RECORDED_SEARCH = { query: 'writing', verified: false, page: 1, perPage: 12 }

export interface SearchTool {
  tool: ToolSpec
  trace: Trace
}

/**
 * Builds the directory's search tool the way the app does, without a browser: asks the fixture
 * for its real answer to `RECORDED_SEARCH` (so this request goes through the site's hook and its
 * fault: call it before arming either), wraps it in a synthetic trace (a fill of "writing" into the
 * field `query`, a submit, the `POST /api/search` fetch), compiles it with `compileTrace`, and saves
 * trace and tool in the core's store with `status` (default `verified`).
 */
export async function makeSearchTool(
  core: Core,
  site: DirectorySite,
  options: { status?: ToolStatus } = {},
): Promise<SearchTool> {
  const requestBody = JSON.stringify(RECORDED_SEARCH)
  const startedAt = Date.now()
  const answer = await fetch(`${site.url}/api/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: requestBody,
  })
  const responseText = await answer.text()
  if (answer.status !== 200)
    throw new Error(`The fixture answered ${answer.status} to the recorded search: ${responseText}`)
  const page = `${site.url}/`
  const trace: Trace = {
    id: `trc_${ulid()}`,
    intent: 'search the AI tools directory by keyword',
    startUrl: page,
    createdAt: startedAt,
    actions: [
      {
        seq: 1,
        kind: 'fill',
        at: startedAt,
        pageUrl: page,
        selector: '[name=query]',
        role: 'searchbox',
        name: 'Search AI tools',
        value: 'writing',
        fieldName: 'query',
        inputType: 'search',
      },
      {
        seq: 2,
        kind: 'submit',
        at: startedAt + 50,
        pageUrl: page,
        selector: 'form',
        role: 'form',
        name: null,
        value: null,
      },
    ],
    exchanges: [
      {
        id: 'exc_1',
        seq: 1,
        method: 'POST',
        url: `${site.url}/api/search`,
        requestHeaders: { 'content-type': 'application/json', accept: 'application/json' },
        requestBody: { text: requestBody, encoding: 'utf8' },
        status: answer.status,
        responseHeaders: { 'content-type': answer.headers.get('content-type') ?? '' },
        responseBody: { text: responseText, encoding: 'utf8' },
        resourceType: 'fetch',
        startedAt: startedAt + 60,
        durationMs: 5,
        pageUrl: page,
      },
    ],
    storageState: null,
  }
  const compiled = compileTrace(trace, { toolId: randomUUID(), now: startedAt })
  if (!compiled.ok)
    throw new Error(`The search trace did not compile: ${compiled.explanation.reason}`)
  const tool: ToolSpec = { ...compiled.candidate, status: options.status ?? 'verified' }
  core.store.traces.save(trace)
  core.store.tools.save(tool)
  return { tool, trace }
}
