import type { JsonSchema, ToolSpec } from '../../shared/toolSpec'

/** One input slot as the account API shows it: a string, with the type it converts to. */
interface SlotInputSchema extends JsonSchema {
  type: 'string'
  /** The declared type the string is converted to (`integer`, `boolean`...). */
  'x-type': string
  /** The slot's semantic name (the property name surface A and MCP use). */
  'x-name': string
}

/** The `inputs` of a tool match: `p0..pn` as strings, each with its declared type. */
export interface SlotInputs extends JsonSchema {
  type: 'object'
  properties: Record<string, SlotInputSchema>
  required: string[]
  additionalProperties: false
}

/** The pattern a string must match to convert to each declared type (as `slotInputs` converts). */
const PATTERNS: Record<string, string> = {
  integer: '^-?\\d+$',
  number: '^-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$',
}

/**
 * The slot schema of a tool for the account API (interface.md "Tool match": "a slot is named like `p0`,
 * with a type declared in the returned schema"; docs/architecture.md "The records": the execute endpoint and search
 * matches take slots as strings, converted by the declared type). Booleans are `"true"`/`"false"`,
 * numbers carry a pattern, enums and defaults are given as strings.
 */
export function slotInputSchema(tool: ToolSpec): SlotInputs {
  const properties: Record<string, SlotInputSchema> = {}
  const required: string[] = []
  const requiredNames = new Set(tool.inputs.required ?? [])
  const entries = Object.entries(tool.inputs.properties ?? {}).sort(
    ([, a], [, b]) => slotIndex(a['x-slot']) - slotIndex(b['x-slot']),
  )
  for (const [name, schema] of entries) {
    const slot = schema['x-slot']
    const declared = Array.isArray(schema.type)
      ? schema.type.join('|')
      : String(schema.type ?? 'string')
    const property: SlotInputSchema = { type: 'string', 'x-type': declared, 'x-name': name }
    property.title = name
    if (schema.description) property.description = schema.description
    if (declared === 'boolean') property.enum = ['true', 'false']
    else if (Array.isArray(schema.enum)) property.enum = schema.enum.map((v) => String(v))
    const pattern = PATTERNS[declared]
    if (pattern) property.pattern = pattern
    if (schema.default !== undefined && schema.default !== null)
      property.default = String(schema.default)
    properties[slot] = property
    if (requiredNames.has(name)) required.push(slot)
  }
  return { type: 'object', properties, required, additionalProperties: false }
}

function slotIndex(slot: string): number {
  const n = /^p(\d+)$/.exec(slot)
  return n ? Number(n[1]) : Number.MAX_SAFE_INTEGER
}
