import type { ToolSpec } from '../../shared/toolSpec'

/**
 * What one tool's request is, as a key: its site, the method and the URL without its query of
 * its last step (its name when it has no step). Tools with the same key do the same thing (a
 * tool saved twice, two recordings of one workflow) and are one choice of the ranker
 * (`ranker.ts`). Pure.
 */
export function sameThing(tool: ToolSpec): string {
  const target = tool.steps.at(-1)?.request
  return `${tool.siteHost} ${target?.method ?? ''} ${(target?.url ?? tool.name).split('?')[0]}`
}
