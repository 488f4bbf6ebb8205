// A minimal verified tool of a file server named Filebox, for router tests that need no compiled
// corpus tool (`meaning.test.ts` builds its tools from one).
import type { ToolSpec } from '../../../src/shared/toolSpec'

/** A verified Filebox tool `id` with this intent and one text slot, `path`, recorded as `a.txt`. */
export function fileTool(id: string, intent: string, mutating: boolean): ToolSpec {
  return {
    id,
    status: 'verified',
    siteHost: 'files.example',
    name: `files__${id}`,
    intent,
    description: intent,
    mutating,
    version: '1',
    capabilityId: `files.example/${id}`,
    inputs: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          default: 'a.txt',
          'x-slot': 'p0',
          'x-in': 'body',
          'x-path': 'path',
        },
      },
    },
    output: { type: 'object', properties: {} },
    steps: [],
    site: { names: ['Filebox'], titles: [] },
  } as unknown as ToolSpec
}
