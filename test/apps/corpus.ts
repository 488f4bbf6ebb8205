/**
 * The real-app corpus as data: every workflow with its stored recordings, compiled with
 * Sitecall's compiler and judged against its answer key (issue 9 "Measured": target, slots,
 * dependencies, mutating flag). Pure but for reading the stored files.
 */
import { compileTrace, type CompileResult } from '../../src/main/compiler'
import type { TargetModelParams } from '../../src/main/compiler/ranker/targetModel'
import { importHar } from '../../src/main/recorder/har'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { Trace } from '../../src/shared/trace'
import { normalValue } from '../../src/main/compiler/valueSpelling'
import { stepMatches } from './match'
import { loadApps } from './registry'
import { readStoredHar, readStoredTrace, rebase, type RecordingPath } from './store'
import type { AnswerKey, AppDefinition, Workflow } from './types'

/** One workflow of the corpus with what was recorded of it. */
export interface StoredWorkflow {
  app: AppDefinition
  workflow: Workflow
  /** `<app>/<workflow id>`: how paraphrases and reports name it. */
  ref: string
  recording: { origin: string; trace: Trace } | null
  har: { origin: string; trace: Trace } | null
}

/** The fixed clock and tool id of corpus compiles, so results never depend on the time. */
const NOW = Date.UTC(2026, 0, 1)
const TOOL_ID = '00000000-0000-4000-8000-00000000a995'

/** Loads every workflow of the named apps (all when empty) with its stored recordings. */
export async function loadStoredWorkflows(names: string[] = []): Promise<StoredWorkflow[]> {
  const out: StoredWorkflow[] = []
  for (const app of await loadApps(names)) {
    for (const workflow of app.workflows) {
      const rec = readStoredTrace(app.name, workflow.id)
      const har = readStoredHar(app.name, workflow.id)
      out.push({
        app,
        workflow,
        ref: `${app.name}/${workflow.id}`,
        recording: rec,
        har: har
          ? {
              origin: har.origin,
              trace: importHar(har.har, {
                traceId: `trc_har_${app.name}_${workflow.id}`,
                intent: workflow.intent,
                now: NOW,
              }),
            }
          : null,
      })
    }
  }
  return out
}

/**
 * Compiles one stored recording of a workflow as a user would: the whole trace and an intent
 * (the workflow's own unless given), moved to `origin` first when given (a live instance).
 */
export function compileStored(
  entry: StoredWorkflow,
  path: RecordingPath,
  options: { intent?: string; origin?: string; targetModel?: TargetModelParams | null } = {},
): CompileResult | null {
  const stored = path === 'recording' ? entry.recording : entry.har
  if (!stored) return null
  const trace = options.origin ? rebase(stored.trace, stored.origin, options.origin) : stored.trace
  const intent = options.intent ?? entry.workflow.intent
  return compileTrace(
    { ...trace, intent },
    {
      toolId: TOOL_ID,
      now: NOW,
      intent,
      ...(options.targetModel !== undefined ? { targetModel: options.targetModel } : {}),
    },
  )
}

/** How a compiled tool compares with its answer key. */
export interface Verdict {
  compiled: boolean
  target: boolean
  slots: boolean
  dependencies: boolean
  mutating: boolean
  /** One line per difference. */
  problems: string[]
}

/** The same value in any spelling a site uses (`Book_Club`, `book-club`, `Book%20Club`). */
const same = (a: unknown, b: unknown): boolean =>
  a !== undefined && a !== null && normalValue(String(a)) === normalValue(String(b))

/**
 * The input of `tool` that carries `recorded` (its default is what the person gave), or null.
 * The answer key names values, not slot names: slot names are the compiler's choice.
 */
export function inputFor(
  tool: ToolSpec,
  recorded: unknown,
  taken: Set<string> = new Set(),
  secret = false,
): string | null {
  for (const [name, schema] of Object.entries(tool.inputs.properties)) {
    if (taken.has(name)) continue
    if (secret && schema.writeOnly === true && schema.default === undefined) return name
    const examples = Array.isArray(schema['examples']) ? (schema['examples'] as unknown[]) : []
    if (same(schema.default, recorded) || examples.some((e) => same(e, recorded))) return name
  }
  return null
}

/** The input and step placeholders of `tool`'s requests that name no input or no earlier step. */
export function danglingPlaceholders(tool: ToolSpec): string[] {
  const slots = new Set(Object.values(tool.inputs.properties).map((p) => p['x-slot']))
  const out = new Set<string>()
  tool.steps.forEach((step, i) => {
    const before = new Set(tool.steps.slice(0, i).map((s) => s.id))
    const text = JSON.stringify(step.request)
    for (const m of text.matchAll(/\{\{\s*(?:num:|json:|xml:)?input\.(p\d+)\s*\}\}/g))
      if (!slots.has(m[1]!)) out.add(m[0])
    for (const m of text.matchAll(/\{\{\s*(?:num:|json:|xml:)?step\.([\w-]+)\./g))
      if (!before.has(m[1]!)) out.add(`${m[0]}…`)
  })
  return [...out]
}

/** Judges a compile result against a key: target, slots, dependencies and mutating flag. */
export function judge(result: CompileResult | null, key: AnswerKey): Verdict {
  if (!result)
    return {
      compiled: false,
      target: false,
      slots: false,
      dependencies: false,
      mutating: false,
      problems: ['not recorded'],
    }
  if (!result.ok)
    return {
      compiled: false,
      target: false,
      slots: false,
      dependencies: false,
      mutating: false,
      problems: [`no candidate: ${result.explanation.reason}`],
    }
  const tool = result.candidate
  const problems: string[] = []
  const steps = tool.steps
  const last = steps[steps.length - 1]!
  const target = stepMatches(tool, last.request, key.target)
  if (!target) problems.push(`target: got ${last.request.method} ${last.request.url}`)

  const taken = new Set<string>()
  for (const input of key.inputs) {
    const name = inputFor(tool, input.recorded, taken, input.secret)
    if (name) taken.add(name)
    else problems.push(`slots: no input carries ${JSON.stringify(input.recorded)}`)
  }
  const extraRequired = (tool.inputs.required ?? []).filter(
    (n) => !taken.has(n) && !(key.file && tool.inputs.properties[n]?.contentEncoding === 'base64'),
  )
  if (extraRequired.length)
    problems.push(`slots: required inputs not in the key: ${extraRequired.join(', ')}`)
  // A placeholder must name an input the tool has and a step that runs before it: a tool that
  // sends a removed input or reads a later step fails at its first run, whatever the key says.
  const dangling = danglingPlaceholders(tool)
  if (dangling.length) problems.push(`slots: placeholders name nothing: ${dangling.join(', ')}`)
  const slots = taken.size === key.inputs.length && extraRequired.length === 0 && !dangling.length

  const before = steps.slice(0, -1)
  const missing = key.dependencies.filter(
    (dep) => !before.some((s) => stepMatches(tool, s.request, dep)),
  )
  for (const dep of missing)
    problems.push(`dependencies: no step reads ${dep.method} ${String(dep.path)}`)
  const dependencies = missing.length === 0

  const mutating = tool.mutating === key.mutating
  if (!mutating) problems.push(`mutating: got ${tool.mutating}`)
  return { compiled: true, target, slots, dependencies, mutating, problems }
}
