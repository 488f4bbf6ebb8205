import type { RunFailureCode } from '../../shared/errors'
import type { ToolSpec } from '../../shared/toolSpec'
import type { RunRecord } from '../store/runRepository'
import type { ToolHealthRepository } from '../store/toolHealthRepository'
import type { ToolRepository } from '../store/toolRepository'

/** Failures in a row that quarantine a verified tool. */
const QUARANTINE_AFTER = 3
/** Failures that say the site changed under the tool, not that one call went wrong. */
const DRIFT: RunFailureCode[] = ['schema_or_auth_drift', 'outcome_not_verified']

export interface Quarantine {
  /**
   * `tenant`: the run's, whose workspace holds the tool; absent: the owner's. `healthRecorded`:
   * the store reset the streak with these inputs already (`RunRepository.succeed`).
   */
  succeeded(
    tool: ToolSpec,
    inputs: Record<string, unknown>,
    tenant?: string,
    healthRecorded?: boolean,
  ): void
  failed(tool: ToolSpec, code: RunFailureCode, tenant?: string): void
  /**
   * Re-runs quarantined read tools with their last good inputs (else the recording's); returns
   * how many were let out.
   */
  recheck(
    run: (tool: ToolSpec, inputs: Record<string, unknown>) => Promise<RunRecord>,
  ): Promise<number>
}

/**
 * Keeps each tool's failure streak: a verified tool that fails with
 * `schema_or_auth_drift` or `outcome_not_verified` three times in a row is quarantined (calls
 * answer 409 `tool_quarantined`); a success resets the streak, records its inputs for rechecks,
 * and lets a quarantined tool out. A candidate's first success verifies it.
 */
export function createQuarantine(deps: {
  tools: ToolRepository
  toolsFor?: ((tenant: string) => ToolRepository) | undefined
  health?: ToolHealthRepository
  clock: () => number
  onToolChanged?: (tool: ToolSpec) => void
}): Quarantine {
  const toolsOf = (tenant: string | undefined) =>
    (tenant === undefined ? undefined : deps.toolsFor?.(tenant)) ?? deps.tools
  const setStatus = (tools: ToolRepository, tool: ToolSpec, status: ToolSpec['status']) => {
    const updated = tools.setStatus(tool.id, status, deps.clock())
    if (updated) deps.onToolChanged?.(updated)
  }
  return {
    succeeded(tool, inputs, tenant, healthRecorded = false) {
      const tools = toolsOf(tenant)
      const current = tools.get(tool.id) ?? tool
      if (current.status !== 'verified') setStatus(tools, current, 'verified')
      if (!deps.health) return
      if (!healthRecorded) deps.health.recordSuccess(tool.id, inputs)
      if (current.status === 'quarantined') deps.health.setQuarantined(tool.id, null)
    },
    failed(tool, code, tenant) {
      if (!deps.health || !DRIFT.includes(code)) return
      const tools = toolsOf(tenant)
      const current = tools.get(tool.id) ?? tool
      if (current.status === 'candidate') return
      const health = deps.health.recordFailure(tool.id, code)
      if (current.status === 'verified' && health.consecutiveFailures >= QUARANTINE_AFTER) {
        deps.health.setQuarantined(tool.id, deps.clock())
        setStatus(tools, current, 'quarantined')
      }
    },
    async recheck(run) {
      if (!deps.health) return 0
      let lifted = 0
      for (const health of deps.health.quarantined()) {
        const tool = deps.tools.get(health.toolId)
        // Only reads are rechecked: a write must never be sent without a person asking for it.
        if (!tool || tool.mutating) continue
        const inputs = health.lastGoodInputs ?? recordedInputs(tool)
        if (!inputs) continue
        deps.health.markChecked(tool.id, deps.clock())
        const result = await run(tool, inputs)
        if (result.status === 'succeeded') lifted++
      }
      return lifted
    },
  }
}

/**
 * The inputs of the recording, for a tool verified before any run of its own succeeded: each
 * slot's default is the value the person used. Null when a required slot has none.
 */
function recordedInputs(tool: ToolSpec): Record<string, unknown> | null {
  const inputs: Record<string, unknown> = {}
  for (const [name, slot] of Object.entries(tool.inputs.properties))
    // A relative time is left to the run, which writes it from its own clock.
    if (slot.default !== undefined && !slot['x-default-time']) inputs[name] = slot.default
  const required = tool.inputs.required ?? []
  return required.every((name) => name in inputs) ? inputs : null
}
