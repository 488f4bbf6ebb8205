/**
 * The changes of a based JSON body (ToolSpec `JsonBodyBase`: write the resource
 * just read, changed), applied to a copy of what the site answered. Pure, no Node: the engine
 * renders with it, the compiler reads lists with the same rules.
 */
import { formatPath, parsePath, valueAt, type PathPart, type PathScope } from './jsonPath'
import { ownValue } from './safeKeys'
import type { JsonChange } from './toolSpec'

/** Why a change could not be applied: the item it names is not there, or the answer changed shape. */
export interface ChangeFailure {
  ok: false
  /** `not_found`: a `[?field==value]` part named no item (the input names nothing there). */
  reason: 'not_found' | 'drift'
  message: string
}

/**
 * `base` (never changed in place) with `changes` applied in order. `render` turns a change's
 * value template into the value to write (the engine's JSON-template rendering; `undefined`: the
 * change is skipped, as an optional input left out). `scope` resolves `[?…=={{name}}]` parts.
 * A `set` creates missing keys on the way (`a.b` on `{}`); a list item named by a `[?…]` or an
 * index that is not there fails `not_found`; a path through something that is no object or list
 * fails `drift`.
 */
export function applyChanges(
  base: unknown,
  changes: JsonChange[],
  scope: PathScope,
  render: (value: unknown) => unknown,
): { ok: true; value: unknown } | ChangeFailure {
  let root = structuredClone(base)
  for (const change of changes) {
    const parts = parsePath(change.path)
    if (!parts || !parts.length)
      return drift(`the change path "${change.path}" is not a path inside the body`)
    const value = change.op === 'remove' ? undefined : render(change.value)
    if (change.op !== 'remove' && value === undefined) continue
    if (root === undefined || root === null) root = {}
    const parent = walk(root, parts.slice(0, -1), scope, change.op === 'set')
    if (!parent.ok) return parent
    const last = parts[parts.length - 1]!
    const failed = applyAt(parent.node, last, change, value, scope)
    if (failed) return failed
  }
  return { ok: true, value: root }
}

/**
 * Splits TiddlyWiki's title list format (`a [[b c]] d`: titles separated by spaces, a title with
 * spaces in double brackets), which its server uses for `tags` and `list` fields.
 */
export function parseTitleList(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/\[\[([^\]]*)\]\]|(\S+)/g)) out.push(m[1] ?? m[2]!)
  return out
}

type Container = Record<string, unknown> | unknown[]

function walk(
  root: unknown,
  parts: PathPart[],
  scope: PathScope,
  create: boolean,
): { ok: true; node: Container } | ChangeFailure {
  let node = root
  for (const [i, part] of parts.entries()) {
    if (!isContainer(node)) return drift(`${shown(parts, i)} is not an object or a list`)
    let next: unknown
    if (part.kind === 'where') {
      next = valueAt(node, [part], scope)
      if (next === undefined) return notFound(parts, i, part, scope)
    } else if (part.kind === 'each') return drift(`"[]" names no single place to change`)
    else if (part.kind === 'keyOf') return drift(`"~" names a key, not a place to change`)
    else {
      const key = part.kind === 'index' ? part.index : part.key
      next = ownValue(node, key)
      if (next === undefined) {
        if (!create || Array.isArray(node))
          return { ok: false, reason: 'not_found', message: `${shown(parts, i + 1)} is not there` }
        next = {}
        node[String(key)] = next
      }
    }
    node = next
  }
  if (!isContainer(node)) return drift(`${shown(parts, parts.length)} is not an object or a list`)
  return { ok: true, node }
}

function applyAt(
  parent: Container,
  last: PathPart,
  change: JsonChange,
  value: unknown,
  scope: PathScope,
): ChangeFailure | null {
  if (last.kind === 'keyOf') return drift(`"${change.path}" must end in a key or an index`)
  if (last.kind === 'each' || last.kind === 'where') {
    if (change.op === 'append' || !Array.isArray(parent) || last.kind === 'each')
      return drift(`"${change.path}" must end in a key or an index`)
    const item = valueAt(parent, [last], scope)
    if (item === undefined) return notFound([last], 0, last, scope)
    // A record a write leaves out of a list (`folders[?id==x]` removed) goes; a set replaces it.
    if (change.op === 'remove') parent.splice(parent.indexOf(item), 1)
    else parent[parent.indexOf(item)] = value
    return null
  }
  const key = last.kind === 'index' ? String(last.index) : last.key
  if (Array.isArray(parent)) {
    const index = Number(key)
    if (!Number.isInteger(index) || index < 0 || index >= parent.length)
      return { ok: false, reason: 'not_found', message: `item ${key} of the list is not there` }
    if (change.op === 'remove') parent.splice(index, 1)
    else if (change.op === 'set') parent[index] = value
    else return appendTo(parent, index, change, value)
    return null
  }
  if (change.op === 'remove') delete parent[key]
  else if (change.op === 'set') parent[key] = value
  else return appendTo(parent, key, change, value)
  return null
}

/** Adds `value` to the list at `holder[key]` (absent or empty: a new list), once. */
function appendTo(
  holder: Container,
  key: string | number,
  change: JsonChange,
  value: unknown,
): ChangeFailure | null {
  const current = ownValue(holder, key)
  let list: unknown[]
  if (current === undefined || current === null || current === '') list = []
  else if (Array.isArray(current)) list = current
  else if (typeof current === 'string' && change.split === 'title_list')
    list = parseTitleList(current)
  else return drift(`"${change.path}" holds no list to add to`)
  const same = (item: unknown) => JSON.stringify(item) === JSON.stringify(value)
  ;(holder as Record<string | number, unknown>)[key] = list.some(same) ? list : [...list, value]
  return null
}

function notFound(parts: PathPart[], at: number, part: PathPart, scope: PathScope): ChangeFailure {
  const where = part.kind === 'where' ? part : null
  const value = where?.value
  const wanted = value && ('placeholder' in value ? scope[value.placeholder] : value.literal)
  const list = formatPath(parts.slice(0, at)) || 'the answer'
  return {
    ok: false,
    reason: 'not_found',
    message: `No item of ${list} has ${where?.field.join('.') ?? 'that'} "${String(wanted ?? '')}"`,
  }
}

function shown(parts: PathPart[], upTo: number): string {
  return formatPath(parts.slice(0, upTo)) || 'the base'
}

function drift(message: string): ChangeFailure {
  return { ok: false, reason: 'drift', message }
}

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === 'object'
}
