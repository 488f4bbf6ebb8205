import type { ToolSpec } from '../shared/toolSpec'

/** One field of a sync conflict as the Settings view shows it: the text of each version. */
export interface ConflictRow {
  /** `name`, `description`, `requests`, `inputs`, `verify`, `status`, or another top-level key. */
  field: string
  label: string
  /** Each version's field as readable lines; null: that version does not exist (deleted). */
  mine: string | null
  theirs: string | null
}

/** The fields a person reads a tool by, in the order shown, and how each reads as text. */
const READABLE: Array<{ field: string; label: string; text: (tool: ToolSpec) => string }> = [
  { field: 'name', label: 'Name', text: (t) => t.name },
  { field: 'description', label: 'Description', text: (t) => t.description },
  {
    field: 'requests',
    label: 'URL and method',
    text: (t) => t.steps.map((s) => `${s.request.method} ${s.request.url}`).join('\n'),
  },
  { field: 'inputs', label: 'Inputs (slots)', text: (t) => slotLines(t) },
  { field: 'verify', label: 'Verify rule', text: (t) => verifyLines(t) },
  { field: 'status', label: 'Status', text: (t) => t.status },
]

/** Top-level keys the readable rows already cover, or that every save moves. */
const COVERED = new Set(['name', 'description', 'steps', 'inputs', 'verify', 'status', 'updatedAt'])

/**
 * The fields in which this desktop's version (`mine`) and the server's (`theirs`) of a tool in
 * sync conflict differ, as text side by side (name, description, URL and method of
 * each request, input slots, verify rule, status), then any other top-level field that differs
 * (as JSON; `updatedAt` never counts). A deleted side gives one row per readable field with that
 * side null. Both equal: [] (they differ only in time).
 */
export function conflictRows(mine: ToolSpec | null, theirs: ToolSpec | null): ConflictRow[] {
  const rows: ConflictRow[] = []
  for (const { field, label, text } of READABLE) {
    const a = mine ? text(mine) : null
    const b = theirs ? text(theirs) : null
    if (a !== b) rows.push({ field, label, mine: a, theirs: b })
  }
  if (!mine || !theirs) return rows
  const other = new Set([...Object.keys(mine), ...Object.keys(theirs)])
  for (const key of [...other].sort()) {
    if (COVERED.has(key)) continue
    const a = JSON.stringify((mine as unknown as Record<string, unknown>)[key], null, 2)
    const b = JSON.stringify((theirs as unknown as Record<string, unknown>)[key], null, 2)
    if (a !== b) rows.push({ field: key, label: key, mine: a ?? '—', theirs: b ?? '—' })
  }
  return rows
}

/** `name: type (required)`, then its description, one slot a line, in the schema's order. */
function slotLines(tool: ToolSpec): string {
  const required = new Set(tool.inputs.required ?? [])
  const lines = Object.entries(tool.inputs.properties ?? {}).map(([name, slot]) => {
    const type = Array.isArray(slot.type) ? slot.type.join(' | ') : (slot.type ?? 'any')
    const about = slot.description ? ` — ${slot.description}` : ''
    return `${name}: ${type}${required.has(name) ? ' (required)' : ''}${about}`
  })
  return lines.join('\n') || '(none)'
}

/** The verify rule's status range, media type and required answer paths, a line each. */
function verifyLines(tool: ToolSpec): string {
  const { status, mimeType, required } = tool.verify
  const lines = [
    `status ${status[0] === status[1] ? status[0] : `${status[0]}–${status[1]}`}`,
    `type ${mimeType}`,
  ]
  for (const r of required) lines.push(`has ${r.path}: ${r.type}`)
  const rest = Object.fromEntries(
    Object.entries(tool.verify).filter(([k]) => !['status', 'mimeType', 'required'].includes(k)),
  )
  if (Object.keys(rest).length) lines.push(JSON.stringify(rest))
  return lines.join('\n')
}

/** The sync's progress as the Settings view says it: `Pushed 3 of 10` or `Pulled 12`. */
export function progressText(p: {
  phase: 'push' | 'pull'
  done: number
  total: number
  pulled: number
}): string {
  return p.phase === 'push'
    ? `Pushed ${p.done} of ${p.total}…`
    : `Pushed ${p.total} of ${p.total}; pulled ${p.pulled}…`
}

/**
 * The lines of one side of a conflict row, each marked `changed` when the other side has no
 * such line (what the Settings view highlights); a side that is null has no lines.
 */
export function markedLines(
  text: string | null,
  other: string | null,
): Array<{ text: string; changed: boolean }> {
  if (text === null) return []
  const theirs = new Set((other ?? '').split('\n'))
  return text
    .split('\n')
    .map((line) => ({ text: line, changed: other === null || !theirs.has(line) }))
}
