import type { InboxItem, InboxRequirement } from '../../shared/appApi'
import type { Requirement } from '../../shared/run'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { RunEngine } from '../engine/runEngine'
import type { RunRecord } from '../store/runRepository'
import type { Store } from '../store/store'

/**
 * The requirements inbox: the workspace's runs that wait on
 * the person, oldest first. Each run is read through `engine.get`, which expires a run past its
 * 15 minutes (interface.md "Limits"), so an expired run never shows as answerable.
 */
export function listInbox(deps: { store: Store; engine: RunEngine }, tenant: string): InboxItem[] {
  const items: InboxItem[] = []
  for (const waiting of deps.store.runs.withStatus(['input_required'])) {
    if (waiting.tenant !== tenant) continue
    const run = deps.engine.get(waiting.runId)
    if (!run || run.status !== 'input_required') continue
    items.push(toInboxItem(run, deps.store.tools.get(run.toolId)))
  }
  return items
}

/** A waiting run as an inbox item; a deleted tool still shows by id so the run can be declined. */
function toInboxItem(run: RunRecord, tool: ToolSpec | null): InboxItem {
  return {
    runId: run.runId,
    stateRevision: run.stateRevision,
    toolId: run.toolId,
    toolName: tool?.name ?? run.toolId,
    siteHost: tool?.siteHost ?? '',
    mutating: run.mutating,
    createdAt: run.createdAt,
    requirements: (run.requirements as Requirement[]).map((r) => withSlotType(r, tool)),
  }
}

function withSlotType(requirement: Requirement, tool: ToolSpec | null): InboxRequirement {
  const schema: SlotSchema | undefined = requirement.slot
    ? tool?.inputs.properties[requirement.slot]
    : undefined
  if (!schema) return requirement
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  const slotSchema: NonNullable<InboxRequirement['slotSchema']> = {}
  if (typeof type === 'string') slotSchema.type = type
  if (typeof schema.format === 'string') slotSchema.format = schema.format
  if (schema.enum?.length) slotSchema.enum = schema.enum
  if (typeof schema.description === 'string') slotSchema.description = schema.description
  return { ...requirement, slotSchema }
}
