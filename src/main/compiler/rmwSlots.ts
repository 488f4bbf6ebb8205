import { fold, formatPath, parsePath } from '../../shared/jsonPath'
import type { SlotSchema, ToolSpec } from '../../shared/toolSpec'
import type { Exchange } from '../../shared/trace'
import type { PersonValue } from './personValues'
import { pathSegments } from './requestValues'
import type { DiffContext, ResourceDiff } from './resourceDiff'
import type { Resource } from './resourceRecords'

/**
 * The inputs as the rewrite leaves them: which are the person's (changes carry them), which name
 * a list item (selectors), and new ones (the old name of a rename).
 */
export class SlotBook {
  private readonly properties: Record<string, SlotSchema>
  private readonly required: string[]
  private readonly given: PersonValue[]
  private readonly selectors = new Set<string>()

  constructor(inputs: ToolSpec['inputs'], given: PersonValue[]) {
    this.properties = structuredClone(inputs.properties)
    this.required = [...(inputs.required ?? [])]
    this.given = given
  }

  /** How the diff tells the person's values and the item they picked. */
  context(resource: Resource): DiffContext {
    const personal = new Set(
      Object.entries(this.properties)
        .filter(([name, p]) => this.required.includes(name) || this.isGiven(p.default, true))
        .map(([, p]) => p['x-slot']),
    )
    return {
      exact: resource.kind === 'read',
      personal: (template) =>
        [...JSON.stringify(template ?? null).matchAll(/\{\{\s*input\.(p\d+)\s*\}\}/g)].some((m) =>
          personal.has(m[1]!),
        ),
      selectorSlot: (value, field) => {
        if (!this.isGiven(value, false)) return null
        let slot = Object.values(this.properties).find(
          (p) => typeof p.default === 'string' && fold(p.default) === fold(value),
        )?.['x-slot']
        // A record the person named that the write leaves out (a folder removed from the list):
        // its name becomes the input that finds it.
        slot ??= field ? this.addSelectorInput(field, value) : undefined
        if (!slot) return null
        this.selectors.add(slot)
        return slot
      },
    }
  }

  /** A new required input naming a list item the person picked by `field` (found in the read). */
  private addSelectorInput(field: string, value: string): string {
    const used = Object.values(this.properties).map((p) => Number(p['x-slot'].slice(1)) || 0)
    const slot = `p${Math.max(-1, ...used) + 1}`
    let name = field
    for (let i = 2; name in this.properties; i++) name = `${field}_${i}`
    this.properties[name] = {
      'x-slot': slot,
      'x-in': 'answer',
      'x-path': '',
      type: 'string',
      minLength: 1,
      description: `The ${field} of the record to act on.`,
      default: value,
      examples: [value],
    }
    this.required.push(name)
    return slot
  }

  /** A new required path input holding a record's old name (a rename's `DELETE` segment). */
  addPathInput(field: string, value: string, remove: Exchange): string {
    const used = Object.values(this.properties).map((p) => Number(p['x-slot'].slice(1)) || 0)
    const slot = `p${Math.max(-1, ...used) + 1}`
    const taken = Object.entries(this.properties).find(([name]) => name === field)
    if (taken) {
      delete this.properties[field]
      this.properties[`new_${field}`] = taken[1]
      this.required.forEach((r, i) => r === field && (this.required[i] = `new_${field}`))
      taken[1].description = `The new ${field}.`
    }
    const segments = pathSegments(remove.url)
    this.properties[field] = {
      'x-slot': slot,
      'x-in': 'path',
      'x-path': String(segments.length - 1),
      type: 'string',
      minLength: 1,
      description: `The ${field} of the record to rename: it is read, written under the new ${field}, then deleted.`,
      default: value,
      examples: [value],
    }
    this.required.push(field)
    return slot
  }

  /** The inputs with where each now goes: a change's path, or the item lookup of a selector. */
  inputs(readStep: string, diff: ResourceDiff): ToolSpec['inputs'] {
    for (const p of Object.values(this.properties)) {
      const placeholder = `{{input.${p['x-slot']}}}`
      if (this.selectors.has(p['x-slot'])) {
        const change = diff.changes.find((c) => c.path.includes(placeholder))
        const parts = change ? parsePath(change.path) : null
        const at = parts?.findIndex((part) => part.kind === 'where') ?? -1
        const where = parts?.[at]
        p['x-in'] = 'answer'
        p['x-path'] =
          `step.${readStep}.${parts && at >= 0 ? formatPath(parts.slice(0, at + 1)) : ''}`
        if (parts && where?.kind === 'where') {
          const list = formatPath(parts.slice(0, at)) || 'the list'
          const field = where.field.join('.')
          p.description = `The ${field} of the item of ${list} to change (found by this ${field} in the answer read first).`
        }
        continue
      }
      const change = diff.changes.find((c) => c.value === placeholder)
      if (change && p['x-in'] === 'body') p['x-path'] = change.path
    }
    return { type: 'object', properties: this.properties, required: this.required }
  }

  private isGiven(value: unknown, strongOnly: boolean): boolean {
    if (typeof value !== 'string' || !value.trim()) return false
    return this.given.some((g) => (g.strong || !strongOnly) && fold(g.value) === fold(value))
  }
}
