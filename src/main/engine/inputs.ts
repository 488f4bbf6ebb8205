import { Ajv, type ValidateFunction } from 'ajv'
import { ServiceError } from '../../shared/errors'
import { renderRelativeTime } from '../../shared/relativeTime'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'

/** Body fields every surface-A call accepts besides the tool's inputs (interface.md "A. Site tool calls"). */
const COMMON_CALL_FIELDS = ['select', 'deadlineMs'] as const

/**
 * Checks a call's inputs against the tool's input schema and resolves them to slot values.
 * Inputs are by semantic name (surface A, MCP, UI); absent optional slots take their default.
 * Errors: 422 `unknown_argument` naming the valid arguments; 400 `invalid_input` for a value of
 * the wrong type or a missing required slot (the interface's "Request shape" table).
 */
export interface InputValidator {
  resolve(tool: ToolSpec, inputs: Record<string, unknown>): Record<string, unknown>
  /**
   * Checks names and types only: a missing required slot is not an error here (it becomes a
   * `value` requirement), nor is a value outside a slot's options (a `choice`).
   */
  check(tool: ToolSpec, inputs: Record<string, unknown>): void
  /** Maps inputs by semantic name to template slots (`input.p0`), defaults filled in. */
  toScope(tool: ToolSpec, inputs: Record<string, unknown>): Record<string, unknown>
}

/**
 * What an absent slot takes: its relative time written for `now` (ms) when it has one
 * (`x-default-time`: a time relative to the run), else its `default` (undefined when it has none).
 */
export function slotDefault(slot: SlotSchema, now = Date.now()): unknown {
  const relative = slot['x-default-time']
  return (relative && renderRelativeTime(relative, now)) ?? slot.default
}

/** Creates a validator that compiles each tool's schema once per tool version. */
export function createInputValidator(): InputValidator {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false })
  const cache = new Map<string, ValidateFunction>()
  const compile = (tool: ToolSpec) => {
    const key = `${tool.id}@${tool.updatedAt}`
    let fn = cache.get(key)
    if (!fn) {
      fn = ajv.compile({ ...tool.inputs, additionalProperties: true })
      cache.set(key, fn)
    }
    return fn
  }
  const unknownArguments = (tool: ToolSpec, inputs: Record<string, unknown>) => {
    const names = Object.keys(tool.inputs.properties)
    const unknown = Object.keys(inputs).filter((k) => !names.includes(k))
    if (unknown.length)
      throw new ServiceError(
        'unknown_argument',
        `${tool.name} does not take ${unknown.map((k) => `"${k}"`).join(', ')}. Valid arguments: ${[...names, ...COMMON_CALL_FIELDS].join(', ')}.`,
        { valid: [...names, ...COMMON_CALL_FIELDS] },
      )
  }
  const toScope = (tool: ToolSpec, inputs: Record<string, unknown>) => {
    const slots: Record<string, unknown> = {}
    for (const [name, schema] of Object.entries(tool.inputs.properties)) {
      const value = Object.hasOwn(inputs, name) ? inputs[name] : slotDefault(schema)
      if (value !== undefined) slots[`input.${schema['x-slot']}`] = value
    }
    return slots
  }
  return {
    toScope,
    check(tool, inputs) {
      unknownArguments(tool, inputs)
      const validate = compile(tool)
      if (validate(inputs)) return
      const problems = (validate.errors ?? [])
        .filter((e) => e.keyword !== 'required' && e.keyword !== 'enum')
        .map((e) => `"${e.instancePath.slice(1)}" ${e.message ?? 'is invalid'}`)
      if (problems.length)
        throw new ServiceError('invalid_input', `Invalid input: ${problems.join('; ')}.`)
    },
    resolve(tool, inputs) {
      unknownArguments(tool, inputs)
      const validate = compile(tool)
      if (!validate(inputs)) {
        const problems = (validate.errors ?? []).map((e) =>
          e.keyword === 'required'
            ? `missing required "${String(e.params.missingProperty)}"`
            : `"${e.instancePath.slice(1)}" ${e.message ?? 'is invalid'}`,
        )
        throw new ServiceError('invalid_input', `Invalid input: ${problems.join('; ')}.`)
      }
      return toScope(tool, inputs)
    },
  }
}
