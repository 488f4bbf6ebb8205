import { ServiceError } from '../../shared/errors'
import type { Requirement } from '../../shared/run'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'
import { asRecorded, renderRequest, type TemplateScope } from './template'
import { slotDefault } from './inputs'

/** interface.md "Limits": requirement answer window. */
export const REQUIREMENT_WINDOW_MS = 15 * 60 * 1000

/** An open requirement with what the engine needs to apply its answer. */
export interface OpenRequirement extends Requirement {
  /** The semantic input name a choice or value fills. */
  slot?: string
  /** For an approval: the request the run will send once approved (shown in the inbox). */
  request?: { method: string; url: string; body: unknown }
}

export interface Answer {
  requirementId: string
  value?: unknown
  optionId?: string
  approve?: boolean
}

export interface PlannedInputs {
  /** Inputs by semantic name after resolving unique choices (`Express` ► `express`). */
  inputs: Record<string, unknown>
  requirements: OpenRequirement[]
}

/**
 * What a call still needs from a person before it may run (spec
 * "Answering an input_required run"): a value for each missing required slot, a choice for a
 * slot with known options whose value matches none or several of them (a case-insensitive
 * prefix that matches exactly one is taken as that option), and an approval when a mutating tool
 * is called without `allow_mutation` by a caller that may ask (or is a candidate the compiler
 * cautions about, whose message then says why: architecture.md "What recorded traffic asks"). Ids are `<runId>.<revision>.<n>`,
 * so an answer naming a replaced requirement of the same run is told apart from a foreign id.
 */
export function planRequirements(
  tool: ToolSpec,
  inputs: Record<string, unknown>,
  options: {
    runId: string
    revision: number
    now: number
    needsApproval: boolean
    /** What the person must know before approving (a candidate's `evidence.caution`). */
    caution?: string
  },
): PlannedInputs {
  const out: Record<string, unknown> = { ...inputs }
  const requirements: OpenRequirement[] = []
  const expiresAt = new Date(options.now + REQUIREMENT_WINDOW_MS).toISOString()
  const id = () => `${options.runId}.${options.revision}.${requirements.length + 1}`
  const required = new Set(tool.inputs.required ?? [])
  for (const [name, schema] of Object.entries(tool.inputs.properties)) {
    const given = out[name]
    if (given === undefined) {
      if (required.has(name))
        requirements.push({
          id: id(),
          kind: 'value',
          slot: name,
          message: `Enter ${name} (${describeType(schema)}).`,
          expiresAt,
        })
      continue
    }
    if (!schema.enum?.length || typeof given !== 'string') continue
    const choices = schema.enum.map(String)
    if (choices.includes(given)) continue
    const matches = choices.filter((c) => c.toLowerCase().startsWith(given.toLowerCase()))
    if (matches.length === 1) {
      out[name] = matches[0]
      continue
    }
    delete out[name]
    const offered = matches.length ? matches : choices
    requirements.push({
      id: id(),
      kind: 'choice',
      slot: name,
      options: offered.map((label) => ({ id: `opt_${choices.indexOf(label)}`, label })),
      message: matches.length
        ? `"${given}" fits several ${name} options: choose one.`
        : `"${given}" is not a ${name} option: choose one.`,
      expiresAt,
    })
  }
  if (options.needsApproval)
    requirements.push({
      id: id(),
      kind: 'approval',
      message: `${tool.name} changes data on ${tool.siteHost}: approve the request it will send.${options.caution ? ` ${options.caution}` : ''}`,
      request: previewRequest(tool, out),
      expiresAt,
    })
  return { inputs: out, requirements }
}

/**
 * Applies answers to a waiting run's open requirements (interface.md "Answering an input_required run").
 * Returns the new inputs, the requirements still open, and whether an approval was declined.
 * Errors: 422 `unknown_requirement` (an id of no requirement of this run), 409
 * `stale_requirement` (a replaced one), 409 `expired_requirement` (past its 15 minutes), 422
 * `invalid_option`, 422 `invalid_answer`.
 */
export function applyAnswers(
  tool: ToolSpec,
  runId: string,
  open: OpenRequirement[],
  inputs: Record<string, unknown>,
  answers: Answer[],
  now: number,
): { inputs: Record<string, unknown>; open: OpenRequirement[]; declined: boolean } {
  const next = { ...inputs }
  const answered = new Set<string>()
  let declined = false
  for (const answer of answers) {
    const requirement = open.find((r) => r.id === answer.requirementId)
    if (!requirement) {
      if (typeof answer.requirementId === 'string' && answer.requirementId.startsWith(`${runId}.`))
        throw new ServiceError(
          'stale_requirement',
          `Requirement ${answer.requirementId} was replaced: GET the run and answer its current requirements.`,
        )
      throw new ServiceError(
        'unknown_requirement',
        `No open requirement ${String(answer.requirementId)} on ${runId}.`,
      )
    }
    if (Date.parse(requirement.expiresAt) <= now)
      throw new ServiceError(
        'expired_requirement',
        `Requirement ${requirement.id} expired at ${requirement.expiresAt}: start a new run.`,
      )
    if (requirement.kind === 'approval') {
      if (typeof answer.approve !== 'boolean')
        throw new ServiceError(
          'invalid_answer',
          'Answer an approval with "approve": true or false.',
        )
      if (!answer.approve) declined = true
    } else if (requirement.kind === 'choice') {
      const option = requirement.options?.find((o) => o.id === answer.optionId)
      if (!option)
        throw new ServiceError(
          'invalid_option',
          `"${String(answer.optionId)}" is not offered; choose one of ${requirement.options?.map((o) => o.id).join(', ')}.`,
        )
      next[requirement.slot!] = option.label
    } else {
      const schema = tool.inputs.properties[requirement.slot!]!
      const value = coerce(answer.value, schema)
      if (value === undefined)
        throw new ServiceError(
          'invalid_answer',
          `${requirement.slot} takes ${describeType(schema)}; send it as "value".`,
        )
      next[requirement.slot!] = value
    }
    answered.add(requirement.id)
  }
  // An approval still open shows the request with the values just given: the one it will send.
  const still = open
    .filter((r) => !answered.has(r.id))
    .map((r) => (r.kind === 'approval' ? { ...r, request: previewRequest(tool, next) } : r))
  return { inputs: next, open: still, declined }
}

/** The answer's value as the slot's type, or undefined when it is not one. */
function coerce(value: unknown, schema: SlotSchema): unknown {
  if (value === undefined || value === null) return undefined
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  let out: unknown = value
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && value.trim())
    out = Number(value)
  if (type === 'boolean' && (value === 'true' || value === 'false')) out = value === 'true'
  if (type === 'integer' && !Number.isInteger(out)) return undefined
  if (type === 'number' && (typeof out !== 'number' || Number.isNaN(out))) return undefined
  if (type === 'boolean' && typeof out !== 'boolean') return undefined
  if (type === 'string' && typeof out !== 'string') return undefined
  if (schema.enum?.length && !schema.enum.includes(out)) return undefined
  return out
}

function describeType(schema: SlotSchema): string {
  if (schema.enum?.length) return `one of ${schema.enum.join(', ')}`
  return String(schema.type ?? 'a value')
}

/**
 * The target request with the inputs known so far in place (the approval shows it), rendered by
 * the executor's own `renderRequest` so types and escaping match what is sent (an integer slot
 * stays a number). Values only known at send time (`{{step.…}}`, `{{login.…}}`, `{{gen.…}}`,
 * `{{secret:…}}`) stay visible as their placeholders.
 */
function previewRequest(
  tool: ToolSpec,
  inputs: Record<string, unknown>,
): { method: string; url: string; body: unknown } {
  const target = tool.steps[tool.steps.length - 1]!.request
  const scope: TemplateScope = {}
  for (const name of JSON.stringify(target).matchAll(/\{\{\s*([a-zA-Z0-9_.:-]+)\s*\}\}/g))
    if (!name[1]!.startsWith('input.')) scope[name[1]!] = `{{${name[1]!}}}`
  for (const [name, s] of Object.entries(tool.inputs.properties)) {
    const value = inputs[name] ?? slotDefault(s)
    if (value !== undefined) scope[`input.${s['x-slot']}`] = value
  }
  // A body based on a read not yet made shows its recorded form, the run's values in place.
  const rendered = renderRequest(asRecorded(target), scope)
  // Placeholders kept in the URL were percent-encoded like any value: show them as written.
  const url = rendered.url.replace(
    /%7B%7B(.*?)%7D%7D/g,
    (_, name: string) => `{{${decodeURIComponent(name)}}}`,
  )
  const kind = target.body?.kind
  return {
    method: rendered.method,
    url,
    body:
      rendered.body === null
        ? null
        : kind === 'json'
          ? (JSON.parse(rendered.body) as unknown)
          : kind === 'form'
            ? Object.fromEntries(new URLSearchParams(rendered.body))
            : rendered.body,
  }
}
