import { FROM_KEY, type ComposeBody, type ComposeStep } from '../../shared/composeSchemas'
import { ServiceError } from '../../shared/errors'
import { parsePath, valuesAt, type PathPart } from '../../shared/jsonPath'
import type { ToolSpec } from '../../shared/toolSpec'
import { candidateError, quarantinedError } from '../engine/callTool'
import type { ToolRepository } from '../store/toolRepository'
import { assertInScope } from './caller'
import type { ToolScope } from './toolsInScope'

/** One call of a compose request, its tool resolved and its inputs checked by name. */
export interface PlannedCall {
  /** Position in `steps` (0 for a single call). */
  index: number
  app: string
  tool: ToolSpec
  /** As sent: values, or `{"$from": path}` read from earlier steps when the call starts. */
  inputs: Record<string, unknown>
  allowMutation: boolean
}

export interface ComposePlan {
  /** `steps` was sent: the answer lists every step. */
  stepped: boolean
  calls: PlannedCall[]
}

/** What the steps answered so far, as `$from` paths read it: `{steps: [{data, runId}]}`. */
export interface AnsweredSteps {
  steps: Array<{ data: unknown; runId: string }>
}

/**
 * Checks a compose body before anything is sent: `app` and `tool`, or `steps`
 * (400 `invalid_input` for both or neither); each call's tool must exist on its app (404
 * `not_found`), be verified (404 `not_found` for a candidate, 409 `tool_quarantined`), lie in
 * every tool scope of the connection (403 `not_in_scope`), take every input named (422
 * `unknown_argument`) and, when it writes, carry `allow_mutation: true` (403 `forbidden`, spec
 * "Tool candidate": mutating workflows require it); a `$from` must be a path of the JSON-path
 * grammar into an earlier step (400 `invalid_input`). Refusals of a step carry `step`.
 */
export function planCompose(
  body: ComposeBody,
  tools: Pick<ToolRepository, 'get' | 'getByName' | 'list'>,
  scopes: ToolScope[],
): ComposePlan {
  const single = body.app !== undefined || body.tool !== undefined
  const singleOnly = body.inputs !== undefined || body.allow_mutation !== undefined
  if (body.steps && (single || singleOnly))
    throw new ServiceError(
      'invalid_input',
      'Send either "app", "tool" and "inputs" for one call, or "steps": not both.',
    )
  if (!body.steps && (body.app === undefined || body.tool === undefined))
    throw new ServiceError(
      'invalid_input',
      '"app" (the site host) and "tool" (its name) are required, or "steps".',
    )
  const steps: ComposeStep[] = body.steps ?? [
    {
      app: body.app!,
      tool: body.tool!,
      ...(body.inputs ? { inputs: body.inputs } : {}),
      ...(body.allow_mutation !== undefined ? { allow_mutation: body.allow_mutation } : {}),
    },
  ]
  const stepped = body.steps !== undefined
  const calls = steps.map((step, index) => {
    const at = (error: ServiceError) =>
      stepped
        ? new ServiceError(
            error.code,
            `steps[${index}]: ${error.message}`,
            { ...error.details, step: index },
            error.status as never,
          )
        : error
    try {
      return planCall(step, index, tools, scopes)
    } catch (error) {
      throw error instanceof ServiceError ? at(error) : error
    }
  })
  return { stepped, calls }
}

function planCall(
  step: ComposeStep,
  index: number,
  tools: Pick<ToolRepository, 'get' | 'getByName' | 'list'>,
  scopes: ToolScope[],
): PlannedCall {
  const found = tools.getByName(step.app, step.tool)
  if (!found || found.siteHost !== step.app)
    throw new ServiceError(
      'not_found',
      `No tool "${step.tool}" on ${step.app}: GET /api/v1/sites/${step.app} lists them.`,
    )
  assertInScope({ toolScopes: scopes }, found)
  if (found.status === 'quarantined') throw quarantinedError(found, tools)
  if (found.status === 'candidate') throw candidateError(found)
  const inputs = step.inputs ?? {}
  const names = Object.keys(found.inputs.properties)
  const unknown = Object.keys(inputs).filter((k) => !names.includes(k))
  if (unknown.length)
    throw new ServiceError(
      'unknown_argument',
      `${found.name} does not take ${unknown.map((k) => `"${k}"`).join(', ')}. Valid inputs: ${names.join(', ') || 'none'}.`,
      { valid: names },
    )
  if (found.mutating && step.allow_mutation !== true)
    throw new ServiceError(
      'forbidden',
      `${found.name} changes data on the site: send "allow_mutation": true to confirm.`,
    )
  for (const [name, value] of Object.entries(inputs)) {
    const path = fromPath(value)
    if (path === null) continue
    const earlier = earlierStep(path)
    if (earlier === null || earlier >= index)
      throw new ServiceError(
        'invalid_input',
        index === 0
          ? `"${name}": "$from" reads an earlier step's result, and this is the first call.`
          : `"${name}": "$from" must be a path into an earlier step, like "steps[0].data.items[0].id", not ${formatFrom(value)}.`,
        { input: name },
      )
  }
  return {
    index,
    app: step.app,
    tool: found,
    inputs,
    allowMutation: step.allow_mutation === true,
  }
}

/**
 * The inputs of `call` with each `$from` replaced by the value at its path in what the earlier
 * steps answered: the list of every match when the path holds `[]`, else the first match. A
 * path that matches nothing is 422 `invalid_input` naming the input: the step is not started.
 */
export function resolveInputs(call: PlannedCall, answered: AnsweredSteps): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(call.inputs)) {
    const path = fromPath(value)
    if (path === null) {
      out[name] = value
      continue
    }
    // An unreadable path (`parsePath` refused it, e.g. one through `__proto__`) reads nothing.
    const found = path.length ? valuesAt(answered, path) : []
    if (!found.length)
      throw new ServiceError(
        'invalid_input',
        `"${name}": ${formatFrom(value)} matched nothing in the earlier results.`,
        { input: name },
        422,
      )
    out[name] = path.some((p) => p.kind === 'each') ? found : found[0]
  }
  return out
}

/** The parsed path of a `{"$from": path}` value; null for any other value. */
function fromPath(value: unknown): PathPart[] | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null
  const keys = Object.keys(value)
  if (keys.length !== 1 || keys[0] !== FROM_KEY) return null
  const text = (value as Record<string, unknown>)[FROM_KEY]
  const parts = typeof text === 'string' ? parsePath(text) : null
  // An unreadable path is answered where it is checked: as no earlier step.
  return parts ?? []
}

/** The step index a path starts at (`steps[N]…` or `steps.N…`), or null. */
function earlierStep(path: PathPart[]): number | null {
  const [root, at] = path
  if (root?.kind !== 'key' || root.key !== 'steps') return null
  if (at?.kind === 'index') return at.index
  if (at?.kind === 'key' && /^\d+$/.test(at.key)) return Number(at.key)
  return null
}

/** `{"$from":"…"}` as the caller wrote it, for messages. */
function formatFrom(value: unknown): string {
  return JSON.stringify((value as Record<string, unknown>)[FROM_KEY])
}
