/**
 * One value, several places (architecture.md "What recorded traffic asks", 4), across steps: a
 * page the tool reads on the way to its target (the picked user's editor, whose form and token
 * the target posts) names the record in its URL as the target does (`?id=1011`). Where the
 * target sends an input or a looked-up value there, the page read sends the same, or the run
 * reads the recorded record's page while it writes another. Pure: the tool and its trace in.
 */
import type { ToolSpec, ToolStep } from '../../shared/toolSpec'
import type { Trace } from '../../shared/trace'
import { queryEntries } from './requestValues'
import { decodePart, queryParts, seqOf, withQueryValues } from './stepTemplate'

/** A placeholder's step references (`{{step.d3.id}}`, `{{num:step.d3.id}}`): the steps it reads. */
const STEP_REF = /\{\{\s*(?:num:)?step\.([A-Za-z0-9_-]+)\./g

/**
 * The tool with each dependency step's query parameter or path segment that holds the value the
 * target's request holds at the same place (same parameter name; same segment index), where the
 * target sends a placeholder there, sending that placeholder too. A step that produces the
 * placeholder's value, or comes before it in the trace, keeps what it sends. Unchanged when none.
 */
export function readSameRecord(tool: ToolSpec, trace: Trace): ToolSpec {
  const target = tool.steps.at(-1)
  const exchange = trace.exchanges.find((e) => e.id === target?.exchangeId)
  if (!target || !exchange) return tool
  const placed = placedValues(target, exchange.url)
  if (!placed.query.size && !placed.segments.size) return tool
  let changed = false
  const steps = tool.steps.map((step, index) => {
    if (index === tool.steps.length - 1) return step
    const seq = seqOf(trace, step)
    const after = (placeholder: string) =>
      [...placeholder.matchAll(STEP_REF)].every((m) => {
        const from = tool.steps.find((s) => s.id === m[1])
        return from !== undefined && from !== step && seqOf(trace, from) < seq
      })
    const url = alignedUrl(step.request.url, placed, after)
    if (url === step.request.url) return step
    changed = true
    return { ...step, request: { ...step.request, url } }
  })
  return changed ? { ...tool, steps } : tool
}

/** Where the target sends a placeholder for a recorded value: by query key, by segment index. */
interface Placed {
  query: Map<string, { recorded: string; placeholder: string }>
  segments: Map<number, { recorded: string; placeholder: string }>
}

function placedValues(target: ToolStep, recordedUrl: string): Placed {
  const query = new Map<string, { recorded: string; placeholder: string }>()
  const recorded = new Map(queryEntries(recordedUrl).map((e) => [e.key, e.value]))
  for (const part of queryParts(target.request.url)) {
    const value = recorded.get(part.name)
    if (value && part.value.includes('{{') && !query.has(part.name))
      query.set(part.name, { recorded: value, placeholder: part.value })
  }
  const segments = new Map<number, { recorded: string; placeholder: string }>()
  const sent = pathOf(target.request.url)
  const was = pathOf(recordedUrl)
  if (sent && was && sent.length === was.length)
    sent.forEach((segment, i) => {
      if (segment.includes('{{') && was[i])
        segments.set(i, { recorded: was[i]!, placeholder: segment })
    })
  return { query, segments }
}

function alignedUrl(url: string, placed: Placed, usable: (placeholder: string) => boolean): string {
  let out = withQueryValues(url, (name, value) => {
    const at = placed.query.get(name)
    return at &&
      !value.includes('{{') &&
      decodePart(value) === at.recorded &&
      usable(at.placeholder)
      ? at.placeholder
      : undefined
  })
  const m = /^(https?:\/\/[^/?#]+)([^?#]*)(.*)$/.exec(out)
  if (!m || !placed.segments.size) return out
  const segments = m[2]!.split('/')
  let moved = false
  for (const [i, at] of placed.segments) {
    const segment = segments[i]
    if (
      segment === undefined ||
      segment.includes('{{') ||
      decodePart(segment) !== decodePart(at.recorded)
    )
      continue
    if (!usable(at.placeholder)) continue
    segments[i] = at.placeholder
    moved = true
  }
  if (moved) out = `${m[1]}${segments.join('/')}${m[3]}`
  return out
}

/** A URL's path split at `/` (the empty first part kept), null for no URL. */
function pathOf(url: string): string[] | null {
  const m = /^https?:\/\/[^/?#]+([^?#]*)/.exec(url)
  return m ? m[1]!.split('/') : null
}
