import { ServiceError } from '../../shared/errors'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'

/**
 * Maps the account API's slot inputs (`{"p0": "writing"}`, values as strings) to semantic names,
 * converting each by its slot's declared type (docs/architecture.md "The records"). Errors: 422 `unknown_argument` for
 * a slot the tool lacks, 400 `invalid_input` for a value that does not convert.
 */
export function slotInputs(tool: ToolSpec, raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {}
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ServiceError(
      'invalid_input',
      '"inputs" must be an object of slot names (p0, p1, ...) to string values.',
    )
  const bySlot = new Map(
    Object.entries(tool.inputs.properties).map(([name, s]) => [s['x-slot'], [name, s] as const]),
  )
  const out: Record<string, unknown> = {}
  for (const [slot, value] of Object.entries(raw)) {
    const entry = bySlot.get(slot)
    if (!entry)
      throw new ServiceError(
        'unknown_argument',
        `${tool.name} has no slot "${slot}". Valid slots: ${[...bySlot.keys()].join(', ')}.`,
      )
    out[entry[0]] = convert(slot, value, entry[1])
  }
  return out
}

function convert(slot: string, value: unknown, schema: SlotSchema): unknown {
  if (typeof value !== 'string') return value
  const bad = () =>
    new ServiceError(
      'invalid_input',
      `Slot ${slot} takes ${String(schema.type)}; "${value}" is not one.`,
    )
  switch (schema.type) {
    case 'integer':
      if (!/^-?\d+$/.test(value.trim())) throw bad()
      return Number(value)
    case 'number':
      if (value.trim() === '' || Number.isNaN(Number(value))) throw bad()
      return Number(value)
    case 'boolean':
      if (value !== 'true' && value !== 'false') throw bad()
      return value === 'true'
    default:
      return value
  }
}
