import { randomUUID } from 'node:crypto'
import { ulid } from 'ulid'
import { compileTrace } from '../../src/main/compiler'
import type { Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { Trace } from '../../src/shared/trace'
import type { DirectorySite } from '../fixtures/sites/directory'

/** The body the site's own page sends when a person searches for "writing". */
export const RECORDED_SEARCH = { query: 'writing', verified: false, page: 1, perPage: 12 }

/**
 * Builds and saves the directory's verified search tool the way the app would from a recording,
 * without a browser: the trace carries the site's real answer (fetched here first), so the
 * compiled schema and verify rule are those a real recording would give.
 */
export async function makeSearchTool(core: Core, site: DirectorySite): Promise<ToolSpec> {
  const requestBody = JSON.stringify(RECORDED_SEARCH)
  const startedAt = Date.now()
  const answer = await fetch(`${site.url}/api/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: requestBody,
  })
  const responseText = await answer.text()
  if (answer.status !== 200)
    throw new Error(`The fixture answered ${answer.status} to the recorded search.`)
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
        status: 200,
        responseHeaders: { 'content-type': 'application/json' },
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
  const tool: ToolSpec = { ...compiled.candidate, status: 'verified' }
  if (!('query' in tool.inputs.properties))
    throw new Error(
      `The compiled tool has no "query" input: ${Object.keys(tool.inputs.properties).join(', ')}`,
    )
  core.store.tools.save(tool)
  return tool
}
