import type { ToolSpec, SlotSchema } from '../../shared/toolSpec'
import type { Runner } from '../useRunner'
import { safeJson } from '../../shared/safeJson'

type InputSchema = ToolSpec['inputs']
export type Values = Record<string, unknown>

/** The inputs' defaults: for a candidate, the values recorded in the trace. */
export function defaultsOf(schema: InputSchema): Values {
  const entries = Object.entries(schema.properties).filter(([, s]) => s.default !== undefined)
  return Object.fromEntries(entries.map(([name, s]) => [name, s.default]))
}

/** Drops unset fields and empty optional strings, so the tool's own defaults apply. */
export function cleanInputs(schema: InputSchema, values: Values): Values {
  const required = new Set(schema.required ?? [])
  return Object.fromEntries(
    Object.entries(values).filter(([k, v]) => v !== undefined && (v !== '' || required.has(k))),
  )
}

/** A slot's JSON type for its form field: the first non-null of a type list, else `string`. */
export function typeOf(slot: SlotSchema): string {
  const type = Array.isArray(slot.type) ? slot.type.find((t) => t !== 'null') : slot.type
  return type ?? 'string'
}

interface FieldProps {
  name: string
  slot: SlotSchema
  value: unknown
  onChange(value: unknown): void
}

function Field({ name, slot, value, onChange }: FieldProps) {
  const type = typeOf(slot)
  if (slot.enum) {
    const index = slot.enum.findIndex((o) => o === value)
    return (
      <select name={name} value={index} onChange={(e) => onChange(slot.enum![+e.target.value])}>
        {index < 0 && <option value={-1}>—</option>}
        {slot.enum.map((option, i) => (
          <option key={i} value={i}>
            {String(option)}
          </option>
        ))}
      </select>
    )
  }
  if (type === 'boolean')
    return (
      <input
        type="checkbox"
        name={name}
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
      />
    )
  if (type === 'integer' || type === 'number')
    return (
      <input
        type="number"
        name={name}
        step={type === 'integer' ? 1 : 'any'}
        value={typeof value === 'number' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    )
  const isText = type === 'string'
  return (
    <input
      type="text"
      name={name}
      value={isText ? String(value ?? '') : JSON.stringify(value ?? null)}
      onChange={(e) => onChange(isText ? e.target.value : parseOr(e.target.value))}
    />
  )
}

// Arrays and objects are edited as JSON; text that is not JSON yet is kept as typed.
function parseOr(text: string): unknown {
  const value = safeJson(text)
  return value === undefined ? text : value
}

interface RunFormProps {
  tool: ToolSpec
  /** Starts the run on submit; its `busy` disables the button meanwhile. */
  runner: Runner
  values: Values
  onChange(values: Values): void
  submitLabel: string
  submitTestId: string
}

/**
 * A form built from the tool's input schema, one field per semantic input, defaults prefilled,
 * that runs the tool with the inputs set ({@link cleanInputs}).
 */
export function RunForm({ tool, runner, values, onChange, ...submit }: RunFormProps) {
  const schema = tool.inputs
  const busy = runner.busy
  const required = new Set(schema.required ?? [])
  const slots = Object.entries(schema.properties)
  return (
    <form
      className="run-form"
      data-testid="run-form"
      onSubmit={(e) => {
        e.preventDefault()
        void runner.start(tool.id, cleanInputs(schema, values))
      }}
    >
      {slots.length === 0 && <p className="muted">This tool takes no inputs.</p>}
      {slots.map(([name, slot]) => (
        <label key={name} className="field">
          <span className="field-name">
            {name}
            {required.has(name) && <span className="required"> *</span>}
            <span className="muted"> {typeOf(slot)}</span>
          </span>
          <Field
            name={name}
            slot={slot}
            value={values[name]}
            onChange={(v) => onChange({ ...values, [name]: v })}
          />
          {slot.description && <span className="hint">{slot.description}</span>}
        </label>
      ))}
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid={submit.submitTestId}>
          {busy ? 'Running…' : submit.submitLabel}
        </button>
      </div>
    </form>
  )
}
